#pragma once
// The bottom of a plain-C++ hierarchy: counts what reaches main memory.
#include "models/cache/level_stats.h"
#include "models/cache/mem_port.h"

namespace ptosim {

class MemoryCounter : public MemPort {
 public:
  void request(const MemRequest& r) override { stats_.count(r.write, true, r.bytes, r.tensor, r.region); }
  const LevelStats& stats() const { return stats_; }

 private:
  LevelStats stats_;
};

}  // namespace ptosim
