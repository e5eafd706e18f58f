#pragma once
// Where `pto-sim curves` plugs into the existing exact cache logic: the
// port that stands in for the level being measured. The levels above it
// (fixed, simulated exactly by CacheLevel) send it their fills, writebacks
// and write-throughs as they would send them to that level, and the core's
// accesses of the spaces it serves come straight here; it splits each
// request into this level's lines, as CacheLevelImpl::access does, and
// hands them to a LineCounter (all the geometries at once).
#include <cstdint>
#include <stdexcept>

#include "models/cache/mem_port.h"

namespace ptosim::curves {

class LineCounter {
 public:
  virtual ~LineCounter() = default;
  virtual void line(uint64_t line, bool write) = 0;
  virtual void invalidate_all() = 0;
};

// A record the one-pass model cannot count exactly (a one-line invalidate:
// see docs/CACHES.md, "Miss curves").
class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CurvePort final : public MemPort {
 public:
  CurvePort(uint32_t line_bytes, LineCounter& counter);
  uint64_t access(const MemRequest& r, uint64_t at) override;
  void control(AccessKind kind, uint64_t addr, uint64_t bytes, uint64_t at) override;

 private:
  unsigned shift_;
  LineCounter& counter_;
};

}  // namespace ptosim::curves
