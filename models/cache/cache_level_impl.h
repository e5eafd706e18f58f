#pragma once
// CacheLevel for one replacement policy: the tag store and the 3C shadow are
// members, so the per-line path below compiles into one piece with no
// virtual calls. See cache_level.h for the contract and docs/CACHES.md for
// the semantics. `Data` adds the bytes of every line (a store beside the
// tags, by slot) for --check-data; every use of it is under
// `if constexpr (Data)`, so the normal instantiation has no data path.
#include <algorithm>
#include <cstring>

#include "models/cache/cache_level.h"
#include "models/cache/miss_classifier.h"
#include "models/cache/set_assoc.h"

namespace ptosim {

template <class Policy, bool Data = false>
class CacheLevelImpl final : public CacheLevel {
  using Array = SetAssocArray<Policy>;

 public:
  explicit CacheLevelImpl(const CacheConfig& config)
      : CacheLevel(config),
        array_(config.sets(), config.ways, config.seed),
        classifier_(config.lines(), config.sets() * config.ways),
        ready_(config.sets() * config.ways, 0) {
    if constexpr (Data) {
      data_.assign(config.sets() * config.ways * config.line, 0);
      victim_.assign(config.line, 0);
    }
  }

  uint64_t access(const MemRequest& r, uint64_t at) override {
    const uint64_t bytes = r.bytes ? r.bytes : 1;  // a zero-sized access still touches its line
    const uint64_t start = occupy_port(at, r.bytes);
    const uint64_t issue = start + latency_fs_;
    mshrs_.retire(start);
    const uint64_t first = r.addr >> line_shift_;
    const uint64_t last = (r.addr + bytes - 1) >> line_shift_;
    const uint64_t done = first == last ? access_line(first, r.addr, bytes, r, issue)  // the common case
                                        : access_split(first, last, bytes, r, issue);
    timing_.latency_sum_fs += done - at;
    ++timing_.requests;
    return done;
  }

#if defined(__GNUC__)
  __attribute__((always_inline))  // into run(): the core's loop
#endif
  uint64_t issue(const MemRequest& r, uint64_t* t, CompletionWindow& window, WindowStalls& stalls) override {
    if (!r.write || config_.write_back) {  // else the write goes below too
      const uint64_t line = r.addr >> line_shift_;
      const typename Array::Found f = array_.find(line);
      if (f.slot >= 0) {
        const uint64_t at = *t;
        const uint64_t done =
            served_hit(f, line, r.addr, r.bytes ? r.bytes : 1, r, occupy_port(at, r.bytes) + latency_fs_);
        timing_.latency_sum_fs += done - at;
        ++timing_.requests;
        return done;
      }
    }
    if (window.full()) {
      stalls.fs += window.earliest() - *t;
      *t = window.earliest();
      window.pop();
      ++stalls.count;
    }
    // A missed lookup goes on from where it stands (the request is within
    // one line: no split, and find() remembers the miss: no second scan).
    const uint64_t done = r.write && !config_.write_back ? CacheLevelImpl::access(r, *t) : core_miss(r, *t);
    if (done - *t > latency_fs_) window.push(done);
    return done;
  }

  size_t run(const Access* a, size_t n, SpaceId space, CoreClock& c) override {
    const uint64_t line_bytes = config_.line, offset_mask = line_bytes - 1;
    size_t i = 0;
    for (; i < n; ++i) {
      const Access& x = a[i];
      const uint64_t bytes = x.bytes ? x.bytes : 1;
      if (x.space != space || x.core != c.id || (x.addr & offset_mask) + bytes > line_bytes) break;
      uint64_t t = c.issue_at;
      if (t > c.sync_at) break;
      const bool write = (uint8_t(x.kind) & 1) != 0;
      c.count(write);
      c.window.retire(t);
      const uint64_t done = CacheLevelImpl::issue(MemRequest{x.addr, bytes, write, x.tensor, x.region}, &t, c.window,
                                                  c.stalls);
      c.issued(t, done);
    }
    return i;
  }

  void flush_at(uint64_t at) override {
    // One line at a time: a writeback below may back-invalidate a line that
    // is still waiting here, and then its data has already gone down.
    for (uint64_t line : array_.dirty_lines()) {
      LineOwner owner;
      if (!array_.clean(line, &owner)) continue;
      ++stats_.writebacks;
      const uint8_t* bytes = nullptr;
      if constexpr (Data) bytes = written_back(line_data(uint64_t(array_.find_slot(line))));
      post_below(line << line_shift_, config_.line, owner.tensor, owner.region, at, bytes);
    }
  }

  bool contains(uint64_t addr) const override { return array_.contains(addr >> line_shift_); }
  bool keeps_data() const override { return Data; }

  void poke(uint64_t addr, uint64_t bytes, const uint8_t* in) override {
    if constexpr (Data) {
      for (uint64_t a = addr, end = addr + bytes; a < end;) {
        const uint64_t line = a >> line_shift_;
        const uint64_t next = std::min(end, (line + 1) << line_shift_);
        const int64_t slot = array_.find_slot(line);
        if (slot >= 0) std::memcpy(line_data(uint64_t(slot)) + (a - (line << line_shift_)), in + (a - addr), next - a);
        a = next;
      }
    }
    below_->poke(addr, bytes, in);
  }

 protected:
  bool invalidate_line(uint64_t line, bool* was_dirty, uint8_t* dirty_data) override {
    if constexpr (Data) {
      const int64_t slot = array_.find_slot(line);
      if (slot < 0) return false;
      array_.invalidate(line, was_dirty);
      if (*was_dirty && dirty_data) std::memcpy(dirty_data, line_data(uint64_t(slot)), config_.line);
      return true;
    }
    (void)dirty_data;
    return array_.invalidate(line, was_dirty);
  }

 private:
  // A request over several lines, line by line; kept out of access() so
  // that the common single-line path stays small.
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  uint64_t access_split(uint64_t first, uint64_t last, uint64_t bytes, const MemRequest& r, uint64_t issue) {
    uint64_t done = issue;
    for (uint64_t line = first; line <= last; ++line) {
      const uint64_t lo = std::max(r.addr, line << line_shift_);
      const uint64_t hi = std::min(r.addr + bytes, (line + 1) << line_shift_);
      done = std::max(done, access_line(line, lo, hi - lo, r, issue));
    }
    return done;
  }

  // issue()'s miss: access() for a request within one line whose lookup
  // just missed (find() remembers it: two compares, no scan).
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  uint64_t core_miss(const MemRequest& r, uint64_t at) {
    const uint64_t start = occupy_port(at, r.bytes);
    mshrs_.retire(start);
    const uint64_t line = r.addr >> line_shift_;
    const uint64_t done =
        served_miss(array_.find(line), line, r.addr, r.bytes ? r.bytes : 1, r, start + latency_fs_);
    timing_.latency_sum_fs += done - at;
    ++timing_.requests;
    return done;
  }

  // A hit on the line found at `f`; returns when its data is there.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  uint64_t served_hit(const typename Array::Found& f, uint64_t line, uint64_t addr, uint64_t bytes,
                      const MemRequest& r, uint64_t issue) {
    const uint64_t slot = uint64_t(f.slot);
    array_.hit(f, r.write && config_.write_back);
    if constexpr (Data) move_bytes(slot, line, addr, bytes, r);
    else (void)addr;
    stats_.count(r.write, true, bytes, r.tensor, r.region);
    classifier_.hit(line, slot);
    if (ready_[slot] > issue) {  // its fill is still on its way: merge
      ++timing_.merges;
      return ready_[slot];
    }
    return issue;
  }

  // One line of a request, `bytes` of it from `addr`; returns when its data is there.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  uint64_t access_line(uint64_t line, uint64_t addr, uint64_t bytes, const MemRequest& r, uint64_t issue) {
    const bool write = r.write;
    const typename Array::Found f = array_.find(line);
    if (f.slot >= 0) {
      const uint64_t done = served_hit(f, line, addr, bytes, r, issue);
      if (write && !config_.write_back) post_below(addr, bytes, r.tensor, r.region, issue, at_data(r, addr));  // write-through
      return done;
    }
    return served_miss(f, line, addr, bytes, r, issue);
  }

  // A miss of the line looked up at `f`; returns when its data is there.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  uint64_t served_miss(const typename Array::Found& f, uint64_t line, uint64_t addr, uint64_t bytes,
                       const MemRequest& r, uint64_t issue) {
    const bool write = r.write;
    stats_.count(write, false, bytes, r.tensor, r.region);
    const bool allocate = !write || config_.write_allocate;
    typename Array::Victim v;
    if (allocate) v = array_.reserve(f);
    switch (classifier_.miss(line, allocate, v.slot)) {
      case MissClass::Compulsory: ++stats_.compulsory; break;
      case MissClass::Capacity: ++stats_.capacity; break;
      case MissClass::Conflict: ++stats_.conflict; break;
    }
    if (!allocate) {  // the write goes below in place of a fill
      post_below(addr, bytes, r.tensor, r.region, issue, at_data(r, addr));
      return issue;
    }
    // The victim's bytes leave the way before the fill overwrites it.
    if constexpr (Data)
      if (v.evicted) std::memcpy(victim_.data(), line_data(v.slot), config_.line);
    if (v.evicted) evict(v, issue);
    const uint64_t filled = fill_below(MemRequest{line << line_shift_, config_.line, false, r.tensor, r.region,
                                                  fill_data(v.slot)},
                                       issue);
    const bool dirty = write && config_.write_back;
    array_.install(f, v.slot, line, dirty, LineOwner{r.tensor, r.region});
    ready_[v.slot] = filled;
    if constexpr (Data) move_bytes(v.slot, line, addr, bytes, r);
    if (write && !config_.write_back) post_below(addr, bytes, r.tensor, r.region, issue, at_data(r, addr));  // write-through
    return std::max(issue, filled);
  }

  void evict(const typename Array::Victim& v, uint64_t at) {
    ++stats_.evictions;
    bool dirty = v.dirty;
    uint8_t* bytes = nullptr;
    if constexpr (Data) bytes = victim_.data();
    if (config_.inclusive) dirty |= invalidate_above(v.line, bytes);
    if (dirty) {
      ++stats_.writebacks;
      post_below(v.line << line_shift_, config_.line, v.owner.tensor, v.owner.region, at,
                 Data ? written_back(bytes) : nullptr);
    }
  }

  // ---- the data path (Data only) ----
  uint8_t* line_data(uint64_t slot) { return data_.data() + slot * config_.line; }
  // Where a fill of `slot` puts the bytes it fetches (every fill, demand or
  // not, must pass this as its request's data); null without data.
  uint8_t* fill_data(uint64_t slot) {
    if constexpr (Data) return fault_ == Fault::StaleFill ? nullptr : line_data(slot);
    (void)slot;
    return nullptr;
  }
  const uint8_t* written_back(const uint8_t* bytes) const { return fault_ == Fault::DropWriteback ? nullptr : bytes; }
  // The request's bytes at `addr`; null (at compile time) without data.
  static uint8_t* at_data(const MemRequest& r, uint64_t addr) {
    if constexpr (Data) {
      return r.data ? r.data + (addr - r.addr) : nullptr;
    } else {
      (void)r, (void)addr;
      return nullptr;
    }
  }
  // The request's `bytes` at `addr` into (write) or out of (read) the line in `slot`.
  void move_bytes(uint64_t slot, uint64_t line, uint64_t addr, uint64_t bytes, const MemRequest& r) {
    if (!r.data) return;
    uint8_t* in_line = line_data(slot) + (addr - (line << line_shift_));
    if (r.write) std::memcpy(in_line, at_data(r, addr), bytes);
    else std::memcpy(at_data(r, addr), in_line, bytes);
  }

  Array array_;
  MissClassifier classifier_;
  std::vector<uint64_t> ready_;  // per slot: when the line's fill arrives (fs)
  std::vector<uint8_t> data_;    // Data: per slot, the line's bytes
  std::vector<uint8_t> victim_;  // Data: the bytes of the line being evicted
};

}  // namespace ptosim
