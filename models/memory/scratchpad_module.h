#pragma once
// An explicitly managed memory (register file, shared scratchpad, NPU
// buffers): no tags, no misses; latency plus a port of `bandwidth` bytes per
// cycle over `banks` banks. A contiguous transfer occupies the port for
// bytes / bandwidth cycles; a strided one (StrideExtension) adds the cycles
// its bank conflicts serialise. A read-only memory refuses writes except host
// fills (FillExtension). With a data pointer (--check-data) a transfer reads
// or writes the memory's bytes (a strided one, its elements in order);
// transport_dbg writes them (a host write).
#include <systemc>
#include <tlm>

#include "models/cache/level_report.h"
#include "models/memory/bank_model.h"
#include "models/memory/byte_store.h"
#include "models/system/access_tags.h"
#include "models/system/busy_port.h"
#include "models/system/target_base.h"
#include "sim/config/hw_config.h"

namespace ptosim {

class ScratchpadModule : public sc_core::sc_module, public LtTarget {
 public:
  TargetSocket up;
  ScratchpadModule(sc_core::sc_module_name name, const MemoryConfig& config, double clock_hz);
  // A write to a read-only memory answers TLM_COMMAND_ERROR_RESPONSE unless it is a fill.
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;
  const ByteStore& store() const { return store_; }
  virtual void report(StatsNode& parent, const TagNames& names, double seconds) const;
  const MemoryConfig& config() const { return config_; }
  uint64_t conflict_cycles() const { return conflict_cycles_; }
  uint64_t bank_conflicts() const { return bank_conflicts_; }

 protected:
  // Checks the command (false = refused, response already set), counts it and
  // returns when the port has moved its data (absolute time, latency not included).
  bool admit(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrive, bool hit,
             sc_core::sc_time* port_done);
  StatsNode& report_common(StatsNode& parent, const TagNames& names, double seconds) const;
  // The transfer's bytes from or into store_, when it carries any.
  void move_data(tlm::tlm_generic_payload& trans);

  MemoryConfig config_;
  sc_core::sc_time period_;
  sc_core::sc_time latency_;
  BusyPort port_;
  BankModel banks_;
  LevelStats stats_;
  sc_core::sc_time latency_sum_ = sc_core::SC_ZERO_TIME;
  uint64_t conflict_cycles_ = 0, bank_conflicts_ = 0;
  uint64_t fills_ = 0, fill_bytes_ = 0;
  double clock_hz_;
  ByteStore store_;
};

}  // namespace ptosim
