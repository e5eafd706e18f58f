#pragma once
// Static re-reference interval prediction (Jaleel et al., ISCA 2010), 2-bit
// RRPV, hit-priority: fill at RRPV 2 ("long"), a hit resets to 0, the victim
// is the lowest way at RRPV 3, ageing every way by one until there is one.
//
// No cliffs: up to kScanWays ways the set's RRPVs are scanned as written
// above. Wider sets keep, per set, one bitmap of ways per RRPV value and a
// count of each, in a ring of four: ageing every way by k (3 - the set's
// highest RRPV, what the scan's repeated +1 amounts to) turns the ring by k
// (the k values it wraps are empty), and the victim is the lowest bit of
// the RRPV-3 bitmap. The same choices as the scan, at O(1) per hit and fill
// and O(ways / 64) at worst per victim (a word scan, not a way scan).
#include <cstdint>

#include "models/cache/zeroed_array.h"

namespace ptosim::replacement {

class Srrip {
 public:
  // A hit right after the fill of the same way still changes the RRPV.
  static constexpr bool kKnowsMru = false;
  static constexpr bool kRepeatHitIsNoop = false;
  static constexpr uint8_t kMax = 3;
  static constexpr uint32_t kScanWays = 16;
  Srrip(uint64_t sets, uint32_t ways, uint64_t /*seed*/)
      : ways_(ways), words_((ways + 63) / 64), wide_(ways > kScanWays), rrpv_(sets * ways, wide_ ? 0 : kMax) {
    if (!wide_) return;
    // Every structure of a wide set starts as zero bytes (untouched pages):
    // a way joins the ring when it is first filled. The scan starts every
    // way at RRPV 3, but a victim is asked for only when every way of the
    // set holds a line, so every way has been filled (and placed) by then:
    // the ways never filled need no place, and a 2^24-way level writes
    // nothing before its first access.
    sets_ = ZeroedArray<Set>(sets);
    bits_ = ZeroedArray<uint64_t>(sets * 4 * words_);
  }
  void on_hit(uint64_t set, uint32_t way) {
    if (wide_) return move(set, way, 0);
    rrpv_[set * ways_ + way] = 0;
  }
  void on_fill(uint64_t set, uint32_t way) {
    if (wide_) return move(set, way, kMax - 1);
    rrpv_[set * ways_ + way] = kMax - 1;
  }
  uint32_t victim(uint64_t set) {
    if (wide_) return wide_victim(set);
    uint8_t* r = &rrpv_[set * ways_];
    for (;;) {
      for (uint32_t w = 0; w < ways_; ++w)
        if (r[w] == kMax) return w;
      for (uint32_t w = 0; w < ways_; ++w) ++r[w];
    }
  }
  // The RRPV of a way now (what the scan would hold); for tests.
  uint8_t rrpv(uint64_t set, uint32_t way) const {
    const uint8_t r = rrpv_[set * ways_ + way];
    if (!wide_) return r;
    return r ? uint8_t((r - 1 - sets_[set].base) & 3) : kMax;  // never filled: the scan's start
  }

 private:
  struct Set {
    uint8_t base;       // ring slot of RRPV 0
    uint32_t count[4];  // ways per ring slot
  };
  uint64_t* bitmap(uint64_t set, uint32_t slot) { return &bits_[(set * 4 + slot) * words_]; }
  // Wide sets: rrpv_ holds a way's ring slot + 1 (0: never filled, in no
  // bitmap); its RRPV is (slot - base) & 3.
  void move(uint64_t set, uint32_t way, uint8_t value) {
    Set& s = sets_[set];
    uint8_t& held = rrpv_[set * ways_ + way];
    const uint8_t to = uint8_t((s.base + value) & 3);
    if (held == to + 1) return;
    const uint64_t bit = 1ull << (way & 63);
    if (held) {
      bitmap(set, held - 1u)[way >> 6] &= ~bit;
      --s.count[held - 1];
    }
    bitmap(set, to)[way >> 6] |= bit;
    ++s.count[to];
    held = uint8_t(to + 1);
  }
  uint32_t wide_victim(uint64_t set) {
    Set& s = sets_[set];
    uint32_t top = kMax;
    while (top > 0 && s.count[(s.base + top) & 3] == 0) --top;
    s.base = uint8_t((s.base - (kMax - top)) & 3);  // age every way by kMax - top: the highest is now kMax
    const uint64_t* b = bitmap(set, uint32_t((s.base + kMax) & 3));
    for (uint32_t i = 0;; ++i)
      if (b[i]) return i * 64 + uint32_t(__builtin_ctzll(b[i]));
  }

  uint32_t ways_;
  uint32_t words_;
  bool wide_;
  ZeroedArray<uint8_t> rrpv_;   // per way: the RRPV (scanned sets) or its ring slot + 1 (wide sets)
  ZeroedArray<Set> sets_;       // wide sets
  ZeroedArray<uint64_t> bits_;  // wide sets: per set, 4 bitmaps of words_ words
};

}  // namespace ptosim::replacement

#include "models/cache/replacement/policy.h"
namespace ptosim::replacement {
PTOSIM_REGISTER(ReplacementConcept, Srrip, "srrip", 4, "static re-reference interval prediction (2-bit RRPV)",
                &make_level_with<Srrip>);
}  // namespace ptosim::replacement
