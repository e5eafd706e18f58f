#pragma once
// Least recently used: recency is updated on every hit, read or write.
#include "models/cache/replacement/stamps.h"

namespace ptosim::replacement {

class Lru {
 public:
  Lru(uint64_t sets, uint32_t ways, uint64_t /*seed*/) : order_(sets, ways) {}
  void on_hit(uint64_t set, uint32_t way) { order_.stamp(set, way); }
  void on_fill(uint64_t set, uint32_t way) { order_.stamp(set, way); }
  uint32_t victim(uint64_t set) const { return order_.oldest(set); }

 private:
  Stamps order_;
};

}  // namespace ptosim::replacement
