#pragma once
// The cache levels of a config wired together in plain C++ (no time): what the
// SystemC modules do minus the clock. Used by tests and by any caller that
// wants exact counts only.
#include <memory>
#include <vector>

#include "models/cache/cache_level.h"
#include "models/cache/memory_counter.h"

namespace ptosim {

class CacheHierarchy {
 public:
  // `data`: levels that keep their lines' bytes (requests may carry data;
  // memory() then keeps the bytes that reach it).
  explicit CacheHierarchy(const std::vector<CacheConfig>& levels, bool data = false);
  void access(const MemRequest& r) { top()->request(r); }
  // A Copyback or Invalidate record (see AccessKind), level by level from L1.
  void control(AccessKind kind, uint64_t addr, uint64_t bytes) { top()->control(kind, addr, bytes, 0); }
  // Writes back all dirty lines level by level (L1 into L2, then L2, ...).
  void flush();
  MemPort* top() { return levels_.empty() ? static_cast<MemPort*>(&memory_) : levels_.front().get(); }
  const std::vector<std::unique_ptr<CacheLevel>>& levels() const { return levels_; }
  const MemoryCounter& memory() const { return memory_; }

 private:
  std::vector<std::unique_ptr<CacheLevel>> levels_;
  MemoryCounter memory_;
};

// Tells each level which levels are above it (for inclusive back-invalidation).
void link_levels_above(const std::vector<CacheLevel*>& levels);

}  // namespace ptosim
