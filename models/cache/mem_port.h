#pragma once
// Where a level sends what it cannot serve: the next cache level, a DRAM
// model, or a SystemC socket adapter. One request = one contiguous range.
#include <cstdint>

#include "sim/trace/event.h"

namespace ptosim {

struct MemRequest {
  uint64_t addr = 0;
  uint64_t bytes = 0;
  bool write = false;
  TagId tensor = 0;
  TagId region = 0;
};

class MemPort {
 public:
  virtual ~MemPort() = default;
  virtual void request(const MemRequest& r) = 0;
};

}  // namespace ptosim
