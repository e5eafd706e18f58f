#include "models/memory/memory_factory.h"

#include "models/memory/constant_module.h"

namespace ptosim {

double dram_miss_seconds(const DramConfig& d) {
  if (d.timing == "detailed") return (d.tRCD + d.tCL) * 1e-9 + double(d.burst_length) / d.data_rate;
  return d.latency_ns * 1e-9;
}

std::unique_ptr<ScratchpadModule> make_memory_module(const MemoryConfig& m, const HwConfig& config, bool data) {
  if (m.kind != "constant" && m.backing.empty())
    return std::make_unique<ScratchpadModule>(m.name.c_str(), m, config.clock_hz);
  return std::make_unique<ConstantModule>(m.name.c_str(), m, config.clock_hz, config.cache(m.backing),
                                          !m.backing.empty(), dram_miss_seconds(config.dram), data);
}

}  // namespace ptosim
