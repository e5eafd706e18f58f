#pragma once
// What a tag store lookup answers (see set_assoc.h, the tag store itself).
#include <cstdint>

#include "sim/trace/event.h"

namespace ptosim {

struct LineOwner {
  TagId tensor = 0;
  TagId region = 0;
};

struct ArrayResult {
  bool hit = false;
  uint64_t slot = 0;         // hit: the line's slot; miss with allocate: the slot reserved for it
  bool evicted = false;      // a valid line was removed to make room
  bool victim_dirty = false;
  uint64_t victim = 0;       // line number (address / line size)
  LineOwner victim_owner;
};

}  // namespace ptosim
