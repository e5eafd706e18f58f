#include "models/cache/cache_level.h"

#include <stdexcept>

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
      array_(make_cache_array(config.replacement, config.sets(), config.ways, config.seed)),
      classifier_(config.lines(), array_->slots()) {}

void CacheLevel::request(const MemRequest& r) {
  const uint64_t bytes = r.bytes ? r.bytes : 1;  // a zero-sized access still touches its line
  const uint64_t first = r.addr >> line_shift_;
  const uint64_t last = (r.addr + bytes - 1) >> line_shift_;
  last_.lines = last_.misses = last_.recorded = 0;
  if (first == last) {  // the common case: no split
    access_line(first, bytes, r);
    return;
  }
  for (uint64_t line = first; line <= last; ++line) {
    const uint64_t lo = std::max(r.addr, line << line_shift_);
    const uint64_t hi = std::min(r.addr + bytes, (line + 1) << line_shift_);
    access_line(line, hi - lo, r);
  }
}

void CacheLevel::access_line(uint64_t line, uint64_t bytes, const MemRequest& r) {
  const bool write = r.write;
  const bool allocate = !write || config_.write_allocate;
  const bool dirty = write && config_.write_back;
  const ArrayResult res = array_->access(line, dirty, allocate);
  stats_.count(write, res.hit, bytes, r.tensor, r.region);
  ++last_.lines;
  if (last_.recorded < kMaxRecorded) {
    last_.slot[last_.recorded] = res.hit || allocate ? res.slot : kNoSlot;
    last_.hit[last_.recorded++] = res.hit;
  }
  if (res.hit) {
    classifier_.hit(line, res.slot);
  } else {
    ++last_.misses;
    switch (classifier_.miss(line, allocate, res.slot)) {
      case MissClass::Compulsory: ++stats_.compulsory; break;
      case MissClass::Capacity: ++stats_.capacity; break;
      case MissClass::Conflict: ++stats_.conflict; break;
    }
    if (allocate) {
      evict(res);
      send_below(line << line_shift_, config_.line, false, r.tensor, r.region);
      array_->install(res.slot, line, dirty, LineOwner{r.tensor, r.region});
    }
  }
  // Write-through sends every write on; write-back without allocation sends
  // the write on in place of a fill.
  if (write && (!config_.write_back || (!res.hit && !allocate))) {
    const uint64_t addr = std::max(r.addr, line << line_shift_);
    send_below(addr, bytes, true, r.tensor, r.region);
  }
}

void CacheLevel::evict(const ArrayResult& res) {
  if (!res.evicted) return;
  ++stats_.evictions;
  bool dirty = res.victim_dirty;
  if (config_.inclusive) dirty |= invalidate_above(res.victim);
  if (dirty) {
    ++stats_.writebacks;
    send_below(res.victim << line_shift_, config_.line, true, res.victim_owner.tensor, res.victim_owner.region);
  }
}

bool CacheLevel::invalidate_above(uint64_t line) {
  bool any_dirty = false;
  const uint64_t lo = line << line_shift_;
  const uint64_t hi = lo + config_.line - 1;
  for (CacheLevel* up : above_) {
    for (uint64_t ul = lo >> up->line_shift_; ul <= hi >> up->line_shift_; ++ul) {
      bool d = false;
      if (up->array_->invalidate(ul, &d)) {
        ++up->stats_.back_invalidations;
        any_dirty |= d;
      }
    }
  }
  return any_dirty;
}

void CacheLevel::send_below(uint64_t addr, uint64_t bytes, bool write, TagId tensor, TagId region) {
  if (!below_) throw std::logic_error("cache level " + config_.name + " has nothing below it");
  below_->request(MemRequest{addr, bytes, write, tensor, region});
}

void CacheLevel::flush() {
  // One line at a time: a writeback below may back-invalidate a line that is
  // still waiting here, and then its data has already gone down with the victim.
  for (uint64_t line : array_->dirty_lines()) {
    LineOwner owner;
    if (!array_->clean(line, &owner)) continue;
    ++stats_.writebacks;
    send_below(line << line_shift_, config_.line, true, owner.tensor, owner.region);
  }
}

}  // namespace ptosim
