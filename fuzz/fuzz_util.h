#pragma once
// What the fuzz targets share: a sink that takes every event and checks the
// one promise the readers make about accesses (they fit the 64-bit address
// space and are never empty; a copyback or invalidate record of size 0 means
// the whole cache), and the rule that an input may fail only with
// an InputError. Anything else escaping, a crash or a sanitizer report is a
// finding.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "sim/trace/event.h"

namespace ptosim::fuzz {

class CheckingSink : public EventSink {
 public:
  void access(const Access& a) override {
    if ((a.bytes == 0 && !is_control(a.kind)) || !access_in_range(a.addr, a.bytes)) std::abort();
    ++accesses;
  }
  void compute(const Compute&) override { ++computes; }
  uint64_t accesses = 0, computes = 0;
};

}  // namespace ptosim::fuzz
