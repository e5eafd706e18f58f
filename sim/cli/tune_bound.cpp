// The bounds of tune_bound.h, from a config and a finished report.
#include "sim/cli/tune_bound.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ptosim::cli {
namespace {

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

}  // namespace

double fast_memory_bytes(const HwConfig& config) {
  double bytes = 0;
  for (const MemoryConfig& m : config.memories) bytes += double(m.size);
  for (const CacheConfig& c : config.caches) bytes += double(c.size);
  return bytes * std::max<uint32_t>(1, config.core.count);
}

double matmul_traffic_bound(const MatmulShape& mm, double fast_bytes) {
  const double s = fast_bytes / mm.element_bytes;  // S, in elements
  if (s <= 0 || mm.m <= 0 || mm.n <= 0 || mm.k <= 0) return 0;
  const double elements = 2 * mm.m * mm.n * mm.k / std::sqrt(s) - 3 * s;
  return std::max(0.0, elements * mm.element_bytes);
}

LowerBound lower_bound(const HwConfig& config, const nlohmann::json& finished, const MatmulShape& mm,
                       TuneObjective objective) {
  LowerBound b;
  const double fast = fast_memory_bytes(config);
  const double traffic = matmul_traffic_bound(mm, fast);
  std::string traffic_why;
  if (mm.m > 0)
    traffic_why = "a " + fmt(mm.m) + "x" + fmt(mm.n) + "x" + fmt(mm.k) + " matmul reads at least 2MNK/sqrt(S) - 3S = " +
                  (traffic > 0 ? fmt(traffic) + " B" : "nothing (it fits)") + " from DRAM with S = " + fmt(fast) +
                  " B of registers, scratchpads and caches";
  if (objective == TuneObjective::DramBytes) {
    b.value = traffic;
    b.why = mm.m > 0 ? traffic_why : "none known (name the program's matmul with --bound-matmul M,N,K)";
    return b;
  }
  // Seconds: the work at the peak rate, and the traffic at DRAM's peak.
  // The peak of the fastest dtype the config lists, so that a program in
  // another dtype than float32 cannot beat it; on an NPU config (its spaces
  // have cube roles) the vector engine's runs beside the cube's.
  const double flops = finished.value("flops", 0.0);
  double peak = finished.value("peak_flops_per_s", 0.0);
  double widest = config.core.flops_per_cycle;
  for (const auto& [dtype, f] : config.core.flops_per_cycle_by_dtype) widest = std::max(widest, f);
  if (!config.core.npu.space_roles.empty()) widest += config.core.npu.vector_flops_per_cycle;
  if (config.core.flops_per_cycle > 0) peak *= widest / config.core.flops_per_cycle;
  const double compute = peak > 0 ? flops / peak : 0;
  const double bw = finished.value("peak_dram_bandwidth_bytes_per_s", 0.0);
  const double memory = bw > 0 ? traffic / bw : 0;
  b.value = std::max(compute, memory);
  if (compute > 0)
    b.why = "compute: " + fmt(flops) + " flops at " + fmt(peak) + " flop/s = " + fmt(compute) + " s";
  if (!traffic_why.empty())
    b.why += (b.why.empty() ? "" : "; ") + traffic_why + (memory > 0 ? ", at " + fmt(bw) + " B/s = " + fmt(memory) + " s" : "");
  if (b.why.empty()) b.why = "none known";
  return b;
}

}  // namespace ptosim::cli
