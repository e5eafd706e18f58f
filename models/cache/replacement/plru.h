#pragma once
// Tree pseudo-LRU. Each internal node of a binary tree over the ways holds
// one bit pointing to the half to evict from; an access points every node on
// its path away from the accessed way. Works for any number of ways (a node
// over [lo, hi) splits at lo + (hi - lo) / 2), so 11-way caches are fine.
// Nodes are numbered in preorder: the left child of node k over [lo, hi) is
// k + 1, the right child is k + (mid - lo).
// The bits start as zero bytes (ZeroedArray): a 2^24-way level does not
// write 16 MiB of them before its first access.
#include <cstdint>

#include "models/cache/zeroed_array.h"

namespace ptosim::replacement {

class Plru {
 public:
  // A second touch of the most recently touched way changes nothing.
  static constexpr bool kKnowsMru = false;
  static constexpr bool kRepeatHitIsNoop = true;
  Plru(uint64_t sets, uint32_t ways, uint64_t /*seed*/)
      : ways_(ways), nodes_(ways > 1 ? ways - 1 : 1), bits_(sets * nodes_) {}
  void on_hit(uint64_t set, uint32_t way) { touch(set, way); }
  void on_fill(uint64_t set, uint32_t way) { touch(set, way); }
  uint32_t victim(uint64_t set) const {
    const uint8_t* b = &bits_[set * nodes_];
    uint32_t lo = 0, hi = ways_, k = 0;
    while (hi - lo > 1) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (b[k]) { k += mid - lo; lo = mid; }  // bit 1: evict from the right half
      else { k += 1; hi = mid; }
    }
    return lo;
  }

 private:
  void touch(uint64_t set, uint32_t way) {
    uint8_t* b = &bits_[set * nodes_];
    uint32_t lo = 0, hi = ways_, k = 0;
    while (hi - lo > 1) {
      uint32_t mid = lo + (hi - lo) / 2;
      if (way < mid) { b[k] = 1; k += 1; hi = mid; }
      else { b[k] = 0; k += mid - lo; lo = mid; }
    }
  }

  uint32_t ways_;
  uint32_t nodes_;
  ZeroedArray<uint8_t> bits_;
};

}  // namespace ptosim::replacement

#include "models/cache/replacement/policy.h"
namespace ptosim::replacement {
PTOSIM_REGISTER(ReplacementConcept, Plru, "plru", 3, "tree pseudo-LRU: one bit per node of a binary tree over the ways",
                &make_level_with<Plru>);
}  // namespace ptosim::replacement
