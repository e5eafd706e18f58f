#pragma once
// Static re-reference interval prediction (Jaleel et al., ISCA 2010), 2-bit
// RRPV, hit-priority: fill at RRPV 2 ("long"), a hit resets to 0, the victim
// is the lowest way at RRPV 3, ageing every way by one until there is one.
#include <cstdint>
#include <vector>

namespace ptosim::replacement {

class Srrip {
 public:
  // A hit right after the fill of the same way still changes the RRPV.
  static constexpr bool kKnowsMru = false;
  static constexpr bool kRepeatHitIsNoop = false;
  static constexpr uint8_t kMax = 3;
  Srrip(uint64_t sets, uint32_t ways, uint64_t /*seed*/) : ways_(ways), rrpv_(sets * ways, kMax) {}
  void on_hit(uint64_t set, uint32_t way) { rrpv_[set * ways_ + way] = 0; }
  void on_fill(uint64_t set, uint32_t way) { rrpv_[set * ways_ + way] = kMax - 1; }
  uint32_t victim(uint64_t set) {
    uint8_t* r = &rrpv_[set * ways_];
    for (;;) {
      for (uint32_t w = 0; w < ways_; ++w)
        if (r[w] == kMax) return w;
      for (uint32_t w = 0; w < ways_; ++w) ++r[w];
    }
  }

 private:
  uint32_t ways_;
  std::vector<uint8_t> rrpv_;
};

}  // namespace ptosim::replacement

#include "models/cache/replacement/register.h"
PTOSIM_REPLACEMENT_POLICY(Srrip, "srrip", 4, "static re-reference interval prediction (2-bit RRPV)")
