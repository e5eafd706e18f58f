// SimpleDram is header-only; this file registers it under `dram.timing:
// simple` and declares the two keys it reads (sim/config/params.h).
#include "models/dram/simple_dram.h"

#include <cmath>

#include "sim/config/params.h"

namespace ptosim {
PTOSIM_REGISTER(DramModelConcept, Simple, "simple", 0, "a flat latency plus a bandwidth-limited data bus",
                make_dram<SimpleDram>);

namespace {

// GB/s or B/cycle of the core clock; kept in bytes a second.
void parse_bandwidth(DramConfig& d, const std::string& s, const ParamContext& ctx) {
  const units::Bandwidth bw = units::parse_bandwidth(s);
  const double v = bw.per_cycle ? bw.value * ctx.clock_hz : bw.value;
  if (!(v > 0) || !std::isfinite(v)) throw std::invalid_argument("bandwidth '" + s + "' must be positive and finite");
  time_limits::check_step(1e15 / v, "at '" + s + "' one byte");
  d.bandwidth = v;
}

// Written before `timing:` (negative ranks), where config show always had them.
PTOSIM_PARAMS(DramConfig, SimpleDram,
  param::time("latency", &DramConfig::latency_ns)
      .about(concepts::kDramTiming, "simple", "the flat latency of every request", "60 ns", -20),
  param::custom<DramConfig>("bandwidth", "bandwidth", "GB/s", "", parse_bandwidth,
                            [](const DramConfig& d) { return units::format_number(d.bandwidth / 1e9) + " GB/s"; })
      .about(concepts::kDramTiming, "simple", "the data bus's peak (GB/s, or B/cycle of the core clock)",
             "51.2 GB/s", -10));

}  // namespace
}  // namespace ptosim
