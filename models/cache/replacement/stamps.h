#pragma once
// Per-way time stamps and "the oldest way of a set": the order LRU keeps by
// stamping every use and FIFO by stamping only fills.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace ptosim::replacement {

class Stamps {
 public:
  Stamps(uint64_t sets, uint32_t ways) : ways_(ways), stamp_(sets * ways, 0) {}
  void stamp(uint64_t set, uint32_t way) { stamp_[set * ways_ + way] = ++clock_; }
  // Calls f(way) for every way of the set, the oldest stamp first.
  template <class F>
  void oldest_first(uint64_t set, F&& f) const {
    const uint64_t* s = &stamp_[set * ways_];
    std::vector<uint32_t> ways(ways_);
    for (uint32_t w = 0; w < ways_; ++w) ways[w] = w;
    std::sort(ways.begin(), ways.end(), [&](uint32_t a, uint32_t b) { return s[a] < s[b]; });
    for (uint32_t w : ways) f(w);
  }
  uint32_t oldest(uint64_t set) const {
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
