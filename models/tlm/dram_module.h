#pragma once
// DRAM as a TLM target: counts every request and asks its timing model when
// the data is there. A request with a data pointer (--check-data) reads or
// writes the backing store; transport_dbg writes it (a host write).
// The last cache level calls it directly through its MemPort face (port()),
// as cache levels call each other: the same counting, timing and data
// without a payload, an extension lookup and two sc_time conversions per
// line (docs/PERFORMANCE.md); b_transport serves every other initiator the
// same way.
#include <systemc>
#include <tlm>

#include "models/cache/byte_store.h"
#include "models/cache/mem_port.h"
#include "sim/report/level_report.h"
#include "models/dram/dram_timing.h"
#include "models/tlm/access_tags.h"
#include "models/tlm/target_base.h"

namespace ptosim {

class DramModule : public sc_core::sc_module, public LtTarget, private MemPort {
 public:
  TargetSocket up;
  DramModule(sc_core::sc_module_name name, const DramConfig& config, double clock_hz);
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;
  // The way in for a cache level that holds this module directly.
  MemPort& port() { return *this; }
  const ByteStore& store() const { return store_; }
  void report(StatsNode& parent, const TagNames& names, double seconds) const;
  const LevelStats& stats() const { return stats_; }
  double peak_bandwidth() const { return timing_->peak_bandwidth(); }
  DramTiming::RowCounts row_counts() const { return timing_->row_counts(); }
  // Several cores: banks and buses serve late requests at their own time (DramTiming::serve_in_time_order).
  void serve_in_time_order() { timing_->serve_in_time_order(); }

 private:
  uint64_t access(const MemRequest& r, uint64_t at) override;  // a request arriving at `at` (fs)
  void poke(uint64_t addr, uint64_t bytes, const uint8_t* data) override;  // a host write

  std::unique_ptr<DramTiming> timing_;
  ByteStore store_;
  LevelStats stats_;
  Fs latency_sum_ = 0;
  double clock_hz_;
};

}  // namespace ptosim
