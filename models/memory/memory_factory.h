#pragma once
// Builds the module that serves one configured memory: a ConstantModule for
// constant memories and anything with a `backing:`, else a ScratchpadModule.
#include <memory>

#include "models/memory/scratchpad_module.h"
#include "sim/config/hw_config.h"

namespace ptosim {

// `data`: --check-data (a constant cache keeps its lines' bytes).
std::unique_ptr<ScratchpadModule> make_memory_module(const MemoryConfig& memory, const HwConfig& config,
                                                     bool data = false);

// What a constant-cache miss costs: the flat `dram.latency`, or with
// `timing: detailed` the unloaded row-miss latency tRCD + tCL + one burst.
double dram_miss_seconds(const DramConfig& dram);

}  // namespace ptosim
