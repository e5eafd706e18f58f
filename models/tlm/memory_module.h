#pragma once
// What every explicitly managed memory shares (register file, shared
// scratchpad, constant memory, NPU buffers): a TLM target with a port of
// `bandwidth` bytes per cycle over `banks` banks, a fixed latency, counters
// and the common report rows. ScratchpadModule and ConstantModule are its
// siblings; each decides what a request costs beyond the port (b_transport).
// Time is kept in Fs (sim/common/time.h) and meets sc_time only at the call.
// With a data pointer (--check-data) a transfer reads or writes the memory's
// bytes (a strided one, its elements in order); transport_dbg writes them (a
// host write).
#include <systemc>
#include <tlm>

#include "models/cache/byte_store.h"
#include "models/memory/bank_model.h"
#include "models/memory/busy_port.h"
#include "models/tlm/access_tags.h"
#include "models/tlm/target_base.h"
#include "sim/common/time.h"
#include "sim/config/hw_config.h"
#include "sim/report/level_report.h"

namespace ptosim {

class MemoryModule : public sc_core::sc_module, public LtTarget {
 public:
  TargetSocket up;
  MemoryModule(sc_core::sc_module_name name, const MemoryConfig& config, double clock_hz);
  virtual void report(StatsNode& parent, const TagNames& names, double seconds) const = 0;
  const MemoryConfig& config() const { return config_; }
  const LevelStats& stats() const { return stats_; }
  uint64_t conflict_cycles() const { return conflict_cycles_; }
  uint64_t bank_conflicts() const { return bank_conflicts_; }
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;
  const ByteStore& store() const { return store_; }

 protected:
  // Checks the command (false = refused, response already set), counts it and
  // returns when the port has moved its data (absolute fs, latency not included).
  bool admit(tlm::tlm_generic_payload& trans, Fs arrive, bool hit, Fs* port_done);
  // Completes a request whose data is there at `done`.
  void complete(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay, Fs now, Fs arrive, Fs done);
  StatsNode& report_common(StatsNode& parent, const TagNames& names, double seconds) const;
  // The transfer's bytes from or into store_, when it carries any.
  void move_data(tlm::tlm_generic_payload& trans);

  MemoryConfig config_;
  Fs period_;
  Fs latency_;
  BusyPort port_;
  BankModel banks_;
  LevelStats stats_;
  Fs latency_sum_ = 0;
  uint64_t conflict_cycles_ = 0, bank_conflicts_ = 0;
  uint64_t fills_ = 0, fill_bytes_ = 0;
  double clock_hz_;
  ByteStore store_;
};

}  // namespace ptosim
