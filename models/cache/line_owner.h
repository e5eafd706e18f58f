#pragma once
// Who a cached line belongs to (for per-tensor / per-region writeback rows).
#include <cstdint>

#include "sim/trace/event.h"

namespace ptosim {

struct LineOwner {
  TagId tensor = 0;
  TagId region = 0;
};

}  // namespace ptosim
