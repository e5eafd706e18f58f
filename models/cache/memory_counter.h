#pragma once
// The bottom of a plain-C++ hierarchy: counts what reaches main memory and
// answers at once.
#include "sim/report/level_stats.h"
#include "models/cache/mem_port.h"

namespace ptosim {

class MemoryCounter : public MemPort {
 public:
  uint64_t access(const MemRequest& r, uint64_t at) override {
    stats_.count(r.write, true, r.bytes, r.tensor, r.region);
    return at;
  }
  const LevelStats& stats() const { return stats_; }

 private:
  LevelStats stats_;
};

}  // namespace ptosim
