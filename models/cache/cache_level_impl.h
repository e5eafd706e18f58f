#pragma once
// CacheLevel for one replacement policy: the tag store and the 3C shadow are
// members, so the per-line path below compiles into one piece with no
// virtual calls. See cache_level.h for the contract and docs/CACHES.md for
// the semantics.
#include <algorithm>

#include "models/cache/cache_level.h"
#include "models/cache/miss_classifier.h"
#include "models/cache/set_assoc.h"

namespace ptosim {

template <class Policy>
class CacheLevelImpl final : public CacheLevel {
 public:
  explicit CacheLevelImpl(const CacheConfig& config)
      : CacheLevel(config),
        array_(config.sets(), config.ways, config.seed),
        classifier_(config.lines(), config.sets() * config.ways) {}

  void request(const MemRequest& r) override {
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

  void flush() override {
    // One line at a time: a writeback below may back-invalidate a line that
    // is still waiting here, and then its data has already gone down.
    for (uint64_t line : array_.dirty_lines()) {
      LineOwner owner;
      if (!array_.clean(line, &owner)) continue;
      ++stats_.writebacks;
      send_below(line << line_shift_, config_.line, true, owner.tensor, owner.region);
    }
  }

  bool contains(uint64_t addr) const override { return array_.contains(addr >> line_shift_); }

  bool try_hit(const MemRequest& r, uint64_t* slot) override {
    const uint64_t bytes = r.bytes ? r.bytes : 1;
    const uint64_t line = r.addr >> line_shift_;
    if (((r.addr + bytes - 1) >> line_shift_) != line) return false;
    if (r.write && !config_.write_back) return false;  // the write goes below too
    const int64_t s = array_.hit(line, r.write);
    if (s < 0) return false;
    stats_.count(r.write, true, bytes, r.tensor, r.region);
    classifier_.hit(line, uint64_t(s));
    *slot = uint64_t(s);
    return true;
  }

 protected:
  bool invalidate_line(uint64_t line, bool* was_dirty) override { return array_.invalidate(line, was_dirty); }

 private:
  void access_line(uint64_t line, uint64_t bytes, const MemRequest& r) {
    const bool write = r.write;
    const bool allocate = !write || config_.write_allocate;
    const bool dirty = write && config_.write_back;
    const ArrayResult res = array_.access(line, dirty, allocate);
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
        array_.install(res.slot, line, dirty, LineOwner{r.tensor, r.region});
      }
    }
    // Write-through sends every write on; write-back without allocation
    // sends the write on in place of a fill.
    if (write && (!config_.write_back || (!res.hit && !allocate))) {
      const uint64_t addr = std::max(r.addr, line << line_shift_);
      send_below(addr, bytes, true, r.tensor, r.region);
    }
  }

  void evict(const ArrayResult& res) {
    if (!res.evicted) return;
    ++stats_.evictions;
    bool dirty = res.victim_dirty;
    if (config_.inclusive) dirty |= invalidate_above(res.victim);
    if (dirty) {
      ++stats_.writebacks;
      send_below(res.victim << line_shift_, config_.line, true, res.victim_owner.tensor, res.victim_owner.region);
    }
  }

  SetAssocArray<Policy> array_;
  MissClassifier classifier_;
};

}  // namespace ptosim
