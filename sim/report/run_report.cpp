#include "sim/report/run_report.h"

#include <cmath>
#include <utility>

#include "sim/report/roofline.h"

namespace ptosim {

void add_level_metrics(StatsNode& levels, uint64_t core_accesses, uint64_t flops, uint64_t access_bytes) {
  // AMAT from the bottom up: a cache's is its hit latency plus its demand
  // miss ratio times the AMAT of what serves its misses (the next cache, or
  // DRAM's measured average latency).
  double below = 0;
  for (auto it = levels.children.rbegin(); it != levels.children.rend(); ++it) {
    StatsNode& l = *it;
    if (l.kind == NodeKind::Dram) {
      below = l.num("avg_latency_cycles");
      continue;
    }
    if (l.kind != NodeKind::Cache) continue;
    const double misses = double(l.u64("demand_misses"));
    if (core_accesses) l.set("misses_per_1k_accesses", misses * 1000.0 / double(core_accesses));
    if (flops) l.set("misses_per_kflop", misses * 1000.0 / double(flops));
    // Per byte the program consumed, not per request: a variant that issues
    // fewer, wider requests for the same bytes is not penalised (its hit rate
    // per request falls because each request has fewer neighbours to hit).
    if (access_bytes) {
      const double per_byte = double(l.u64("demand_miss_bytes")) / double(access_bytes);
      l.set("miss_bytes_per_access_byte", per_byte);
      l.set("byte_hit_rate", per_byte < 1 ? 1 - per_byte : 0.0);
    }
    below = l.num("hit_latency_cycles") + l.num("demand_miss_ratio") * below;
    l.set("amat_cycles", below);
  }
}

StatsNode make_run_report(const RunReportInputs& in, StatsNode core, StatsNode levels) {
  const double seconds = in.cycles / in.clock_hz;
  StatsNode root{"pto-sim", NodeKind::Run, {}, {}};
  root.set("config", in.config).set("source", in.source);
  root.set("clock_hz", in.clock_hz);
  // Whole cycles: the core's clock counts them; the fraction is the model's
  // sub-cycle bookkeeping, not a figure anyone should compare.
  root.set("cycles", uint64_t(std::llround(in.cycles))).set("seconds", seconds);
  if (in.interrupted) root.set("interrupted", true).set("events_done", in.events_done);
  RooflineInputs roof_in;
  roof_in.flops = core.u64("flops");
  roof_in.seconds = seconds;
  if (!levels.children.empty()) {
    const StatsNode& dram = levels.children.back();
    roof_in.dram_bytes = dram.u64("bytes_read") + dram.u64("bytes_written");
  }
  roof_in.peak_flops_per_s = in.peak_flops_per_s;
  roof_in.peak_dram_bandwidth = in.peak_dram_bandwidth;
  StatsNode roof = add_roofline(root, roof_in);
  const uint64_t access_bytes = core.u64("access_bytes");
  add_level_metrics(levels, core.u64("accesses"), core.u64("flops"), access_bytes);
  // The article's "bandwidth utilisation", per byte consumed (docs/REPORTS.md).
  root.set("dram_bytes_per_access_byte", access_bytes ? double(roof_in.dram_bytes) / double(access_bytes) : 0.0);
  root.set("access_bandwidth_fraction",
           seconds > 0 && in.peak_dram_bandwidth > 0 ? double(access_bytes) / seconds / in.peak_dram_bandwidth : 0.0);
  root.set("dirty_bytes_at_end", in.dirty_bytes_at_end);
  // The short run summary (core, roofline) reads before the levels in JSON.
  root.children.push_back(std::move(core));
  root.children.push_back(std::move(roof));
  root.children.push_back(std::move(levels));
  return root;
}

}  // namespace ptosim
