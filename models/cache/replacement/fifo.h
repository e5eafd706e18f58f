#pragma once
// First in, first out: the order is set at fill time; hits do not reorder.
#include "models/cache/replacement/stamps.h"

namespace ptosim::replacement {

class Fifo {
 public:
  // A second touch of the most recently touched way changes nothing.
  static constexpr bool kKnowsMru = false;
  static constexpr bool kRepeatHitIsNoop = true;
  Fifo(uint64_t sets, uint32_t ways, uint64_t /*seed*/) : order_(sets, ways) {}
  void on_hit(uint64_t, uint32_t) {}
  void on_fill(uint64_t set, uint32_t way) { order_.stamp(set, way); }
  uint32_t victim(uint64_t set) const { return order_.oldest(set); }

 private:
  Stamps order_;
};

}  // namespace ptosim::replacement

#include "models/cache/replacement/register.h"
PTOSIM_REPLACEMENT_POLICY(Fifo, "fifo", 1, "first in, first out: the oldest fill is the victim")
