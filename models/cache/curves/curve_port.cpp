// The measured level's stand-in (see curve_port.h).
#include "models/cache/curves/curve_port.h"

namespace ptosim::curves {

CurvePort::CurvePort(uint32_t line_bytes, LineCounter& counter) : shift_(0), counter_(counter) {
  while ((1u << shift_) < line_bytes) ++shift_;
}

uint64_t CurvePort::access(const MemRequest& r, uint64_t at) {
  const uint64_t bytes = r.bytes ? r.bytes : 1;  // a zero-sized access still touches its line
  const uint64_t last = (r.addr + bytes - 1) >> shift_;
  for (uint64_t line = r.addr >> shift_; line <= last; ++line) counter_.line(line, r.write);
  return at;
}

// A copyback changes no line's place or count at this level (the level
// only writes its dirty copy below); an invalidate of the whole cache
// empties every geometry alike. One line's invalidate leaves a hole that
// stacks cannot express.
void CurvePort::control(AccessKind kind, uint64_t addr, uint64_t bytes, uint64_t at) {
  (void)addr, (void)at;
  if (kind != AccessKind::Invalidate) return;
  if (bytes == 0) return counter_.invalidate_all();
  throw Unsupported("an invalidate record of one line: a one-pass LRU stack cannot represent the hole it leaves "
                    "(only whole-cache invalidates, size 0, are supported)");
}

}  // namespace ptosim::curves
