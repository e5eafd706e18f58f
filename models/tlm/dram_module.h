#pragma once
// DRAM as a TLM target: counts every request and asks its timing model when
// the data is there. A request with a data pointer (--check-data) reads or
// writes the backing store; transport_dbg writes it (a host write).
#include <systemc>
#include <tlm>

#include "models/cache/byte_store.h"
#include "sim/report/level_report.h"
#include "models/timing/dram_timing.h"
#include "models/tlm/access_tags.h"
#include "models/tlm/target_base.h"

namespace ptosim {

class DramModule : public sc_core::sc_module, public LtTarget {
 public:
  TargetSocket up;
  DramModule(sc_core::sc_module_name name, const DramConfig& config, double clock_hz);
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;
  const ByteStore& store() const { return store_; }
  void report(StatsNode& parent, const TagNames& names, double seconds) const;
  const LevelStats& stats() const { return stats_; }
  double peak_bandwidth() const { return timing_->peak_bandwidth(); }
  DramTiming::RowCounts row_counts() const { return timing_->row_counts(); }

 private:
  std::unique_ptr<DramTiming> timing_;
  ByteStore store_;
  LevelStats stats_;
  Fs latency_sum_ = 0;
  double clock_hz_;
};

}  // namespace ptosim
