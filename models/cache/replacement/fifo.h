#pragma once
// First in, first out: the order is set at fill time; hits do not reorder.
#include "models/cache/replacement/stamps.h"

namespace ptosim::replacement {

class Fifo {
 public:
  // A second touch of the most recently touched way changes nothing.
  static constexpr bool kKnowsMru = false;
  static constexpr bool kRepeatHitIsNoop = true;
  // The 3C shadow keeps fill order too, as Dinero IV's shadow uses the
  // level's own policy (other policies' shadows are LRU).
  static constexpr bool kShadowInFillOrder = true;
  // A full set's victim is the oldest in that order: a fully associative
  // level is its own 3C shadow (MissClassifier::mirror).
  static constexpr bool kVictimIsShadowOldest = true;
  Fifo(uint64_t sets, uint32_t ways, uint64_t /*seed*/) : order_(sets, ways) {}
  void on_hit(uint64_t, uint32_t) {}
  void on_fill(uint64_t set, uint32_t way) { order_.stamp(set, way); }
  uint32_t victim(uint64_t set) const { return order_.oldest(set); }
  // Calls f(way) for every way of the set, the first filled first.
  template <class F>
  void oldest_first(uint64_t set, F&& f) const { order_.oldest_first(set, f); }

 private:
  Stamps order_;
};

}  // namespace ptosim::replacement

#include "models/cache/replacement/policy.h"
namespace ptosim::replacement {
PTOSIM_REGISTER(ReplacementConcept, Fifo, "fifo", 1, "first in, first out: the oldest fill is the victim",
                &make_level_with<Fifo>);
}  // namespace ptosim::replacement
