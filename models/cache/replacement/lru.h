#pragma once
// Least recently used: recency is updated on every hit, read or write.
#include <cstdint>
#include <vector>

namespace ptosim::replacement {

class Lru {
 public:
  Lru(uint64_t sets, uint32_t ways, uint64_t /*seed*/) : ways_(ways), stamp_(sets * ways, 0) {}
  void on_hit(uint64_t set, uint32_t way) { stamp_[set * ways_ + way] = ++clock_; }
  void on_fill(uint64_t set, uint32_t way) { stamp_[set * ways_ + way] = ++clock_; }
  uint32_t victim(uint64_t set) const {
    const uint64_t* s = &stamp_[set * ways_];
    uint32_t best = 0;
    for (uint32_t w = 1; w < ways_; ++w)
      if (s[w] < s[best]) best = w;
    return best;
  }

 private:
  uint32_t ways_;
  uint64_t clock_ = 0;
  std::vector<uint64_t> stamp_;
};

}  // namespace ptosim::replacement
