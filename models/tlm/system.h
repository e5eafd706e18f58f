#pragma once
// Builds the SystemC model of a config (core, scratchpads, caches, DRAM),
// runs one event stream through it and returns the stats tree. One System
// per process: SystemC elaborates a single simulation.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/config/hw_config.h"
#include "sim/report/stats.h"
#include "sim/trace/event.h"

namespace ptosim {

class CoreModule;
class CacheModule;
class DramModule;
class MemoryModule;

struct RunOptions {
  bool flush = false;       // write back every dirty line at the end
  std::string source;       // what produced the events (trace file, program)
};

class System {
 public:
  explicit System(const HwConfig& config);
  ~System();
  // Runs `producer` on the core's thread (it pushes events into the sink).
  // Rethrows whatever the producer threw. Returns the stats tree.
  StatsNode run(const std::function<void(EventSink&)>& producer, const RunOptions& options);

 private:
  // True for a cache named by a memory's `backing:` and by no space.
  bool private_cache(const std::string& cache) const;

  HwConfig config_;
  std::unique_ptr<CoreModule> core_;
  std::vector<std::unique_ptr<MemoryModule>> memories_;
  std::vector<std::unique_ptr<CacheModule>> caches_;
  std::unique_ptr<DramModule> dram_;
};

}  // namespace ptosim
