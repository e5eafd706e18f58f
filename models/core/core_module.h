#pragma once
// The core: consumes the event stream and keeps the clock. Accesses issue at
// `issue_width` per cycle; an access that misses its first level holds one of
// `max_outstanding` slots until its data returns, and a new access waits only
// when every slot is held and it would miss too. Compute takes
// flops / flops_per_cycle cycles of issue time while misses stay in flight.
//
// Time is kept in integer femtoseconds (SystemC's resolution here) and turned
// into sc_time only at TLM calls; the first cache level of a space is called
// directly (as a DMI-style fast path) because the core talks to it on every
// access, while everything below it, and scratchpads, go through TLM sockets.
#include <exception>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/cache/level_report.h"
#include "models/core/core_clock.h"
#include "models/system/access_tags.h"
#include "models/system/target_base.h"
#include "sim/config/hw_config.h"
#include "sim/trace/event.h"

namespace ptosim {

class CacheModule;
class CacheLevel;

class CoreModule : public sc_core::sc_module, public EventSink, public LtInitiator {
 public:
  using Producer = std::function<void(EventSink&)>;
  SC_HAS_PROCESS(CoreModule);
  CoreModule(sc_core::sc_module_name name, const HwConfig& config, size_t ports);

  // Routes a space to port `port`; `first_level` (may be null) is the cache
  // the space enters through: accesses are split by its line, probed when the
  // window is full, and sent to it directly.
  void route(SpaceId space, const std::string& space_name, size_t port, CacheModule* first_level);
  tlm::tlm_initiator_socket<>& port(size_t i) { return *ports_[i]; }

  void set_producer(Producer p) { producer_ = std::move(p); }
  void set_finisher(std::function<void(const sc_core::sc_time& at)> f) { finisher_ = std::move(f); }

  void access(const Access& a) override;
  void accesses(const Access* a, size_t n) override;
  void compute(const Compute& c) override;
  void name_tensor(TagId id, const std::string& n) override { TagNames::put(names_.tensors, id, n); }
  void name_region(TagId id, const std::string& n) override { TagNames::put(names_.regions, id, n); }

  std::exception_ptr error() const { return error_; }
  const TagNames& names() const { return names_; }
  double cycles() const;
  void report(StatsNode& run) const;

 private:
  struct Route {
    tlm::tlm_initiator_socket<>* socket = nullptr;
    CacheLevel* cache = nullptr;  // the level inside the first CacheModule, called directly
    uint64_t split = 0;  // line size of `cache`; 0 = send whole (scratchpads take bulk transfers)
    std::string space;
  };
  void run();
  void issue_cached(const Route& r, uint64_t addr, uint64_t bytes, bool write, TagId tensor, TagId region);
  void issue_tlm(const Route& r, const Access& a);
  void sync(uint64_t t);

  const HwConfig& config_;
  std::vector<std::unique_ptr<tlm::tlm_initiator_socket<>>> ports_;
  std::vector<Route> routes_;
  Producer producer_;
  std::function<void(const sc_core::sc_time&)> finisher_;
  std::exception_ptr error_;
  TagNames names_;
  TaggedPayload payload_;

  double period_fs_;
  uint64_t quantum_fs_;
  uint64_t now_fs_ = 0;       // sc_time_stamp() in fs, refreshed after each wait
  CoreClock clock_;
  uint64_t flops_ = 0;
  uint64_t compute_fs_ = 0;
};

}  // namespace ptosim
