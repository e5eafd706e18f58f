#pragma once
// Builds the module that serves one configured memory: a ConstantModule for
// constant memories and anything with a `backing:`, else a ScratchpadModule.
#include <memory>

#include "models/tlm/memory_module.h"
#include "sim/config/hw_config.h"

namespace ptosim {

// `data`: --check-data (a constant cache keeps its lines' bytes).
std::unique_ptr<MemoryModule> make_memory_module(const MemoryConfig& memory, const HwConfig& config,
                                                 bool data = false);

}  // namespace ptosim
