#pragma once
// Least recently used: recency is updated on every hit, read or write.
// Up to 16 ways the order is one 64-bit word per set, a list of way numbers
// in nibbles from the most recently used (nibble 0) to the least (nibble
// ways - 1); wider sets keep per-way time stamps. The victim is only asked
// for when every way of the set holds a line, so every way has been used and
// both forms name the same way.
#include <cstdint>
#include <vector>

#include "models/cache/replacement/stamps.h"

namespace ptosim::replacement {

class Lru {
 public:
  // A second touch of the most recently touched way changes nothing.
  static constexpr bool kRepeatHitIsNoop = true;
  // The most recently used way, ways or more when not known (wide sets).
  static constexpr bool kKnowsMru = true;
  // A full set's victim is the least recently used, as in the 3C shadow: a
  // fully associative level is its own shadow (MissClassifier::mirror).
  static constexpr bool kVictimIsShadowOldest = true;
  Lru(uint64_t sets, uint32_t ways, uint64_t /*seed*/)
      : ways_(ways), small_(ways <= 16), order_(small_ ? 0 : sets, small_ ? 0 : ways) {
    last_shift_ = 4 * (ways - 1);
    live_ = ways >= 16 ? ~0ull : (1ull << (4 * ways)) - 1;
    if (small_) {
      // Ways 0..ways-1 in order; unused nibbles hold 0xF, which no way of a
      // set with fewer than 16 ways equals.
      uint64_t init = ~0ull;
      for (uint32_t w = 0; w < ways; ++w) init = (init & ~(0xFull << (4 * w))) | (uint64_t(w) << (4 * w));
      perm_.assign(sets, init);
    }
  }
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void on_hit(uint64_t set, uint32_t way) { touch(set, way); }
#if defined(__GNUC__)
  __attribute__((always_inline))  // into the level's miss path: GCC called it
#endif
  void on_fill(uint64_t set, uint32_t way) {
    if (small_) {
      // A full set's fill lands in its victim, the last nibble: rotate it
      // to the front without searching for it.
      const uint64_t perm = perm_[set];
      if (((perm >> last_shift_) & 0xF) == way) {
        perm_[set] = (perm & ~live_) | ((perm << 4) & live_) | way;
        return;
      }
    }
    touch(set, way);
  }
  // Calls f(way) for every way of the set, the least recently used first.
  template <class F>
  void oldest_first(uint64_t set, F&& f) const {
    if (!small_) return order_.oldest_first(set, f);
    for (uint32_t i = ways_; i-- > 0;) f(uint32_t(perm_[set] >> (4 * i)) & 0xF);
  }
  uint32_t mru(uint64_t set) const { return small_ ? uint32_t(perm_[set] & 0xF) : ~0u; }
  uint32_t victim(uint64_t set) const {
    if (small_) return uint32_t(perm_[set] >> (4 * (ways_ - 1))) & 0xF;
    return order_.oldest(set);
  }

 private:
  // Inlined: a lower level's hit (a column walk's L2) called it, and the
  // call's spills cost a third of its work; the L1 loop takes few (its
  // hits are mostly repeats and most recent lines, which skip it).
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void touch(uint64_t set, uint32_t way) {
    if (!small_) {
      order_.stamp(set, way);
      return;
    }
    const uint64_t perm = perm_[set];
    if ((perm & 0xF) == way) return;  // already the most recent
    // The lowest nibble equal to `way` (exact for the lowest match).
    const uint64_t x = perm ^ (uint64_t(way) * 0x1111111111111111ull);
    const uint64_t z = (x - 0x1111111111111111ull) & ~x & 0x8888888888888888ull;
#if defined(__GNUC__)
    const uint32_t r4 = uint32_t(__builtin_ctzll(z)) & ~3u;
#else
    uint32_t r4 = 0;
    while (!((z >> r4) & 0x8)) r4 += 4;
#endif
    const uint64_t above = (~0ull << r4) << 4;  // two shifts: r4 + 4 may be 64
    perm_[set] = (perm & above) | ((perm & ~(~0ull << r4)) << 4) | way;
  }

  uint32_t ways_;
  bool small_;
  uint32_t last_shift_;  // of the least recent way's nibble
  uint64_t live_;        // the nibbles of ways 0..ways-1
  std::vector<uint64_t> perm_;
  Stamps order_;
};

}  // namespace ptosim::replacement

#include "models/cache/replacement/policy.h"
namespace ptosim::replacement {
PTOSIM_REGISTER(ReplacementConcept, Lru, "lru", 0, "least recently used: recency updated on every hit",
                &make_level_with<Lru>, traits::kStackDistance);
}  // namespace ptosim::replacement
