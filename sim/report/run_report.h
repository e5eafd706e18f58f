#pragma once
// The run-level report: the header figures (config, source, clock, cycles,
// seconds), the core's node, the roofline and the levels, in the order the
// renderers expect. Assembled here, not in the SystemC model, so that what a
// report holds is decided in one place and testable on hand-made nodes.
#include <string>

#include "sim/report/stats.h"

namespace ptosim {

struct RunReportInputs {
  bool interrupted = false;  // a stop request (SIGINT/SIGTERM) ended the run early
  uint64_t events_done = 0;  // reported when interrupted
  std::string config;     // the config's name
  std::string source;     // what produced the events (trace file, program)
  double clock_hz = 0;
  double cycles = 0;
  double peak_flops_per_s = 0;
  double peak_dram_bandwidth = 0;  // bytes / s
  // Bytes of the dirty lines left in the caches, each address once: what a
  // flush would still write back (0 after --flush).
  uint64_t dirty_bytes_at_end = 0;
};

// `core` carries `flops`; `levels` is the list of level nodes, DRAM last.
StatsNode make_run_report(const RunReportInputs& in, StatsNode core, StatsNode levels);

// Per cache level (nodes of kind "cache", in `levels` top first, DRAM last):
// misses_per_1k_accesses and misses_per_kflop (demand misses per 1000 of the
// core's accesses, per 1000 flops; absent without accesses / flops) and
// amat_cycles (hit_latency_cycles + demand_miss_ratio x the AMAT of the level
// below, DRAM's avg_latency_cycles at the bottom); with access_bytes (the
// bytes the core's accesses asked for), miss_bytes_per_access_byte
// (demand_miss_bytes / access_bytes) and byte_hit_rate (1 - that, at least 0).
void add_level_metrics(StatsNode& levels, uint64_t core_accesses, uint64_t flops, uint64_t access_bytes = 0);

}  // namespace ptosim
