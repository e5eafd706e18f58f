#pragma once
// One `cpu` core's pipeline (models/core/cpu_pipeline.h) for the core tests'
// hand-made event sequences: a 1 GHz core, four dispatched a cycle, no loop
// instructions; a test sets `core` further, then start()s the pipeline.
#include <memory>

#include "models/core/cpu_pipeline.h"

namespace ptosim::test {

inline constexpr uint64_t kCycle = 1'000'000;  // fs at 1 GHz

struct CpuTestCore {
  CoreConfig core;
  std::unique_ptr<CpuPipeline> p;
  CoreClock k{16, 0};

  CpuTestCore() {
    core.model = "cpu";
    core.issue_width = 4;
    core.loop_uops = 0;
    k.interval_fs = kCycle / 4;
  }
  void start() { p = std::make_unique<CpuPipeline>(core, double(kCycle)); }
  // A value ready at `cycles`: an add of that latency with nothing before it.
  void value(uint32_t seq, double cycles) {
    core.op_timing.at(OpClass::Add, 0).latency = cycles;
    Compute c;
    c.flops = 1;
    c.scalar = 1;
    c.op_class = uint8_t(OpClass::Add);
    p->compute(k, seq, c);
  }
};

}  // namespace ptosim::test
