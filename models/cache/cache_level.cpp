#include "models/cache/cache_level.h"

namespace ptosim {

namespace {
uint32_t log2_exact(uint32_t v) {
  uint32_t s = 0;
  while ((1u << s) < v) ++s;
  return s;
}
}  // namespace

CacheLevel::CacheLevel(const CacheConfig& config)
    : config_(config),
      line_shift_(log2_exact(config.line)),
      prefetcher_(make_prefetcher(config.prefetch, config.pos)),
      max_line_(~0ull >> line_shift_),
      mshrs_(config.mshrs),
      sets_(config.sets() ? config.sets() : 1) {}

bool CacheLevel::invalidate_above(uint64_t line) {
  bool any_dirty = false;
  const uint64_t lo = line << line_shift_;
  const uint64_t hi = lo + config_.line - 1;
  for (CacheLevel* up : above_) {
    for (uint64_t ul = lo >> up->line_shift_; ul <= hi >> up->line_shift_; ++ul) {
      bool d = false;
      if (up->invalidate_line(ul, &d)) {
        ++up->stats_.back_invalidations;
        any_dirty |= d;
      }
    }
  }
  return any_dirty;
}

}  // namespace ptosim
