#pragma once
// Run-level figures of merit derived from the stats tree (docs/TIMING.md,
// "Roofline"). Header-only and free of SystemC so that it is unit-testable on
// a hand-built tree; System::run calls it once the levels are reported.
#include <algorithm>

#include "sim/report/stats.h"

namespace ptosim {

struct RooflineInputs {
  uint64_t flops = 0;
  double seconds = 0;
  uint64_t dram_bytes = 0;
  double peak_flops_per_s = 0;
  double peak_dram_bandwidth = 0;  // bytes / s
};

// Sets flops, gflops_per_s, dram_bytes, arithmetic_intensity, peak_flops_per_s
// and peak_dram_bandwidth_bytes_per_s on `run`, and returns the `roofline`
// node's values (the caller decides where the child goes in the tree).
inline StatsNode add_roofline(StatsNode& run, const RooflineInputs& in) {
  const double flops = double(in.flops);
  const double achieved = in.seconds > 0 ? flops / in.seconds : 0.0;
  // No DRAM traffic: the intensity is unbounded, reported as 0 so that JSON
  // never holds inf; the bound is then the compute peak.
  const double ai = in.dram_bytes ? flops / double(in.dram_bytes) : 0.0;
  const double memory_roof = in.dram_bytes ? ai * in.peak_dram_bandwidth : in.peak_flops_per_s;
  const double bound = std::min(in.peak_flops_per_s, memory_roof);
  run.set("flops", in.flops);
  run.set("gflops_per_s", achieved / 1e9);
  run.set("dram_bytes", in.dram_bytes);
  run.set("arithmetic_intensity", ai);
  run.set("peak_flops_per_s", in.peak_flops_per_s);
  run.set("peak_dram_bandwidth_bytes_per_s", in.peak_dram_bandwidth);
  StatsNode roof{"roofline", NodeKind::Roofline, {}, {}};
  roof.set("bound_flops_per_s", bound);
  // Ties go to compute: at the ridge point both roofs are the same number.
  roof.set("bound", std::string(memory_roof < in.peak_flops_per_s ? "memory" : "compute"));
  roof.set("achieved_fraction", in.flops && bound > 0 ? achieved / bound : 0.0);
  return roof;
}

}  // namespace ptosim
