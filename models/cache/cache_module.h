#pragma once
// A cache level in time: a TLM target above, an initiator below, the exact
// CacheLevel logic inside. A request waits for the port ("busy until"),
// pays the hit latency, and a miss adds the time of the fill from below.
// Writebacks and write-throughs are posted: they occupy the levels below but
// the requester does not wait for them.
#include <systemc>
#include <tlm>

#include "models/cache/cache_level.h"
#include "models/cache/level_report.h"
#include "models/system/access_tags.h"
#include "models/system/busy_port.h"
#include "models/system/target_base.h"

namespace ptosim {

class CacheModule : public sc_core::sc_module, public LtTarget, public LtInitiator, private MemPort {
 public:
  TargetSocket up;
  tlm::tlm_initiator_socket<> down;

  CacheModule(sc_core::sc_module_name name, const CacheConfig& config, double clock_hz);

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  CacheLevel& logic() { return logic_; }
  const CacheLevel& logic() const { return logic_; }
  sc_core::sc_time hit_latency() const { return latency_; }
  // Writes back every dirty line; `at` is the offset from now at which it happens.
  void flush(const sc_core::sc_time& at);
  void report(StatsNode& parent, const TagNames& names, double seconds) const;

 private:
  void request(const MemRequest& r) override;  // what the logic sends below

  CacheLevel logic_;
  sc_core::sc_time latency_;
  BusyPort port_;
  sc_core::sc_time* delay_ = nullptr;  // the delay of the request being served
  TaggedPayload below_;
  sc_core::sc_time latency_sum_ = sc_core::SC_ZERO_TIME;
  uint64_t requests_ = 0;
  double clock_hz_;
};

}  // namespace ptosim
