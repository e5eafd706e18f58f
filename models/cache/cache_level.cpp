#include "models/cache/cache_level.h"

#include <algorithm>
#include <cstring>

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
      // No page bound: every line number shifted this far is 0.
      page_shift_(config.prefetch.page > config.line ? log2_exact(uint32_t(config.prefetch.page >> line_shift_))
                  : config.prefetch.page             ? 0u
                                                     : 63u),
      mshrs_(config.mshrs),
      sets_(config.sets() ? config.sets() : 1) {
  if (config.slices > 1) slice_busy_.assign(config.slices, 0);
}

uint64_t CacheLevel::occupy_calendar(uint64_t arrive, uint64_t addr) {
  return calendars_[slice_busy_.empty() ? 0 : slice_of(addr >> line_shift_)].reserve(arrive, busy_fs_);
}

namespace {
// Copies the bytes of [from_addr, from_addr + from_n) that fall inside
// [to_addr, to_addr + to_n) to their place in `to`.
void copy_overlap(const uint8_t* from, uint64_t from_addr, uint64_t from_n, uint8_t* to, uint64_t to_addr,
                  uint64_t to_n) {
  const uint64_t lo = std::max(from_addr, to_addr), hi = std::min(from_addr + from_n, to_addr + to_n);
  if (lo < hi) std::memcpy(to + (lo - to_addr), from + (lo - from_addr), hi - lo);
}
}  // namespace

bool CacheLevel::invalidate_above(uint64_t line, uint8_t* victim) {
  bool any_dirty = false;
  const uint64_t lo = line << line_shift_;
  const uint64_t hi = lo + config_.line - 1;
  // Nearest level first: a dirty copy further up is newer and is copied later.
  for (CacheLevel* up : above_) {
    const bool larger = up->config_.line > config_.line;
    if (victim && larger) up_line_.resize(up->config_.line);
    // A dirty victim waiting above (its level's fill brought us here) is
    // a copy too, newer than ours, older than the levels above it.
    if (victim && up->pending_.bytes)
      copy_overlap(up->pending_.bytes, up->pending_.addr, up->config_.line, victim, lo, config_.line);
    for (uint64_t ul = lo >> up->line_shift_; ul <= hi >> up->line_shift_; ++ul) {
      bool d = false;
      const uint64_t ulo = ul << up->line_shift_;
      uint8_t* into = !victim ? nullptr : larger ? up_line_.data() : victim + (ulo - lo);
      if (up->invalidate_line(ul, &d, into)) {
        ++up->stats_.back_invalidations;
        any_dirty |= d;
        // A larger line above: only the part inside this line is this victim's
        // (the rest of its dirty bytes is lost, as its count says: see docs/CACHES.md).
        if (d && victim && larger) std::memcpy(victim, up_line_.data() + (lo - ulo), config_.line);
      }
    }
  }
  // The lines on their way above get the newest bytes: a waiting victim's
  // writeback comes after ours and must not put older bytes over them, and
  // a fill in flight (this level served it before it evicted) must not
  // install older bytes than the dirty copies just taken away.
  if (victim)
    for (CacheLevel* up : above_)
      for (const InFlight* f : {&up->pending_, &up->filling_})
        if (f->bytes) copy_overlap(victim, lo, config_.line, f->bytes, f->addr, up->config_.line);
  return any_dirty;
}

}  // namespace ptosim
