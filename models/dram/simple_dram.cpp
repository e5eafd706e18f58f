// SimpleDram is header-only; this file registers it under `dram.timing: simple`.
#include "models/dram/simple_dram.h"

namespace ptosim {
namespace {
const bool registered = Registry<DramTimingFactory>::instance().add(
    concepts::kDramTiming, {"simple", "a flat latency plus a bandwidth-limited data bus", 0},
    [](const DramConfig& c) -> std::unique_ptr<DramTiming> { return std::make_unique<SimpleDram>(c); });
}  // namespace
}  // namespace ptosim
