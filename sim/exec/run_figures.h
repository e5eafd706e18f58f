#pragma once
// What a program may read of its own simulation while it runs: the article's
// pto.MemoryProfiler asks for the figures of a block between two points, and
// pto.CacheSimulator for those of a side model of another geometry. Plain
// counts, so that the frontend needs neither the report tree nor a model;
// the command line fills them (sim/cli/run_figures.cpp).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/config/hw_config.h"
#include "sim/trace/event.h"

namespace ptosim::exec {

struct LevelFigures {
  std::string name, kind;  // kind: cache, scratchpad, register, constant, dram
  // A level the core sends requests to: a memory, or the first level of the
  // cache chain (the profiler's total_accesses and cache_hits are theirs).
  bool first = false;
  // Demand requests as the level counts them (a cache: one per line touched).
  uint64_t accesses = 0, hits = 0, misses = 0;
  uint64_t bytes = 0;  // read + written at this level
  // Per tensor (per tile with hot-spot tagging: "A[0:32, 0:32]"): accesses, misses.
  std::map<std::string, std::pair<uint64_t, uint64_t>> tensors;
};

struct RunFigures {
  double cycles = 0, seconds = 0;
  uint64_t core_accesses = 0;       // requests the core issued
  uint64_t dram_bytes = 0;          // read from and written to DRAM
  double peak_dram_bandwidth = 0;   // bytes/s
  std::vector<LevelFigures> levels;  // in report order: memories, caches L1.., DRAM
};

// b - a, level by level and tensor by tensor (b taken after a in one run).
RunFigures figures_between(const RunFigures& a, const RunFigures& b);

// A model of cache levels alone (no time) fed with a program's accesses
// while a pto.CacheSimulator runs a function.
class CacheSideModel : public EventSink {
 public:
  virtual RunFigures figures() const = 0;
};
// Builds one for `levels` (L1 first); `cached[space]`: whether the space's
// accesses go through caches (scratchpad and register accesses are counted
// apart, as `uncached_accesses`). Supplied by the command line, which links
// the cache models; null where none is (the frontend's own tests).
using CacheModelFactory =
    std::function<std::unique_ptr<CacheSideModel>(const std::vector<CacheConfig>& levels, std::vector<bool> cached)>;

}  // namespace ptosim::exec
