#pragma once
// First in, first out: the order is set at fill time; hits do not reorder.
#include <cstdint>
#include <vector>

namespace ptosim::replacement {

class Fifo {
 public:
  Fifo(uint64_t sets, uint32_t ways, uint64_t /*seed*/) : ways_(ways), stamp_(sets * ways, 0) {}
  void on_hit(uint64_t, uint32_t) {}
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
