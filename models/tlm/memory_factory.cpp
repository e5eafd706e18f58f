#include "models/tlm/memory_factory.h"

#include "models/dram/dram_timing.h"
#include "models/tlm/constant_module.h"
#include "models/tlm/scratchpad_module.h"

namespace ptosim {

std::unique_ptr<MemoryModule> make_memory_module(const MemoryConfig& m, const HwConfig& config, bool data) {
  if (m.kind != MemoryKind::Constant && m.backing.empty())
    return std::make_unique<ScratchpadModule>(m.name.c_str(), m, config.clock_hz);
  return std::make_unique<ConstantModule>(m.name.c_str(), m, config.clock_hz, config.cache(m.backing),
                                          !m.backing.empty(), make_dram_timing(config.dram)->idle_miss(), data);
}

}  // namespace ptosim
