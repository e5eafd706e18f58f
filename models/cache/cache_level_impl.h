#pragma once
// CacheLevel for one replacement policy: the tag store and the 3C shadow are
// members, so the per-line path below compiles into one piece with no
// virtual calls. See cache_level.h for the contract and docs/CACHES.md for
// the semantics. `Data` adds the bytes of every line (a store beside the
// tags, by slot) for --check-data; every use of it is under
// `if constexpr (Data)`, so the normal instantiation has no data path.
// `Sub` is a level with sub-blocks (subblock_paths.h), likewise a separate
// instantiation: a level without them has no sub-block test on its path
// (every use is under `if constexpr (Sub)`). Data and Sub do not combine.
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "models/cache/cache_level.h"
#include "models/cache/coherence.h"
#include "models/cache/miss_classifier.h"
#include "models/cache/set_assoc.h"
#include "models/cache/subblock_classifier.h"

namespace ptosim {

// Policy::kShadowInFillOrder, false when a policy does not say.
template <class P, class = void>
struct ShadowInFillOrder : std::false_type {};
template <class P>
struct ShadowInFillOrder<P, std::void_t<decltype(P::kShadowInFillOrder)>> : std::bool_constant<P::kShadowInFillOrder> {};
// Policy::kVictimIsShadowOldest, false when a policy does not say.
template <class P, class = void>
struct VictimIsShadowOldest : std::false_type {};
template <class P>
struct VictimIsShadowOldest<P, std::void_t<decltype(P::kVictimIsShadowOldest)>>
    : std::bool_constant<P::kVictimIsShadowOldest> {};

// What a level keeps per slot besides the tag store's own state, in the
// same record (set_assoc.h: one host cache line per slot).
struct LevelSlot {
  uint64_t ready = 0;  // when the line's fill arrives (fs)
  uint32_t shadow;     // the 3C shadow's node of the slot's line (MissClassifier)
  bool is_zero() const { return ready == 0 && shadow == 0; }
};

template <class Policy, bool Data = false, bool Sub = false>
class CacheLevelImpl final : public CacheLevel {
  using Array = SetAssocArray<Policy, LevelSlot>;

 public:
  explicit CacheLevelImpl(const CacheConfig& config)
      : CacheLevel(config),
        classifier_(Sub ? 1 : config.lines(), ShadowInFillOrder<Policy>::value),
        array_(config.sets(), config.ways, config.seed, LevelSlot{0, classifier_.no_node()}) {
    static_assert(!(Data && Sub), "--check-data does not model sub-blocks");
    if constexpr (!Sub && VictimIsShadowOldest<Policy>::value)
      if (config.sets() == 1) classifier_.mirror();  // fully associative: the level is its own 3C shadow
    if constexpr (Sub) init_subblocks();
    if constexpr (Data) {
      data_ = ZeroedArray<uint8_t>(config.sets() * config.ways * config.line);
      victim_.assign(config.line, 0);
    }
  }

  uint64_t access(const MemRequest& r, uint64_t at) override {
    again_line_ = ~0ull;
    const uint64_t bytes = r.bytes ? r.bytes : 1;  // a zero-sized access still touches its line
    const uint64_t start = occupy_port(at, r.bytes, r.addr);
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

  uint64_t issue(const MemRequest& r, uint64_t* t, CompletionWindow& window, WindowStalls& stalls) override {
    return plain() ? issue_as<true, true>(r, t, window, stalls) : issue_as<false>(r, t, window, stalls);
  }

  size_t run(const Access* a, size_t n, SpaceId space, CoreClock& c) override {
    return plain() ? run_as<true>(a, n, space, c) : run_as<false>(a, n, space, c);
  }

  // MemPort::warm: access()'s effect on what the level holds, line by line,
  // in its order below (the fill, the write-through, the victim's
  // writeback). Sub-blocked and data-keeping levels are refused by run
  // --sample before a run starts (their state is more than tags).
  void warm(const MemRequest& r) override {
    again_line_ = ~0ull;
    if constexpr (Sub || Data) {
      (void)r;
      throw std::logic_error("functional warming of a sub-blocked or data-keeping level");
    } else {
      warm_request(r);
    }
  }

  size_t warm_run(const Access* a, size_t n, SpaceId space, uint64_t budget, uint64_t* lines) override {
    again_line_ = ~0ull;
    if constexpr (Sub || Data) {
      (void)a, (void)n, (void)space, (void)budget, (void)lines;
      throw std::logic_error("functional warming of a sub-blocked or data-keeping level");
    } else {
      uint64_t counted = 0;
      size_t i = 0;
      for (; i < n && counted < budget; ++i) {
        const Access& x = a[i];
        if (x.space != space || is_control(x.kind)) break;
        const bool write = (uint8_t(x.kind) & 1) != 0;  // Write or Fill
        counted += warm_request(MemRequest{x.addr, x.bytes, write, x.tensor, x.region});
      }
      *lines += counted;
      return i;
    }
  }

  void flush_at(uint64_t at) override {
    again_line_ = ~0ull;
    // One line at a time: a writeback below may back-invalidate a line that
    // is still waiting here, and then its data has already gone down.
    for (uint64_t line : array_.dirty_lines()) copy_back(line, at);
  }

  void control(AccessKind kind, uint64_t addr, uint64_t bytes, uint64_t at) override {
    again_line_ = ~0ull;
    if (kind == AccessKind::Copyback) {
      if (bytes == 0) flush_at(at);
      else copy_back(addr >> line_shift_, at);
    } else if (kind == AccessKind::Invalidate) {
      if (bytes == 0) {
        for (uint64_t line : array_.lines()) array_.invalidate(line, nullptr);
        if constexpr (Sub) sub_classifier_->invalidate_all();
        else classifier_.invalidate_all();
      } else {
        array_.invalidate(addr >> line_shift_, nullptr);
        if constexpr (Sub) sub_classifier_->invalidate(addr >> line_shift_);
        else classifier_.invalidate(addr >> line_shift_);
      }
    }
    below_->control(kind, addr, bytes, at);  // as Dinero IV: this level's writebacks first, then the record
  }

  bool contains(uint64_t addr) const override { return array_.contains(addr >> line_shift_); }
  std::vector<uint64_t> dirty_lines() const override { return array_.dirty_lines(); }
  uint64_t dirty_count() const override { return array_.dirty_count(); }
  std::vector<uint64_t> dirty_lines_unordered() const override { return array_.dirty_lines_unordered(); }

  bool coherence_invalidate(uint64_t line, bool* was_dirty) override {
    again_line_ = ~0ull;
    bool unused_prefetch = false;
    *was_dirty = false;
    if (!array_.invalidate(line, was_dirty, &unused_prefetch)) return false;
    prefetch_.useless += unused_prefetch;
    if constexpr (Sub) sub_classifier_->invalidate(line);
    else classifier_.invalidate(line);
    ++stats_.coherence_invalidations;
    coherence_lost_.insert(line);
    return true;
  }
  bool coherence_clean(uint64_t line) override {
    again_line_ = ~0ull;
    LineOwner owner;
    return array_.clean(line, &owner);
  }
  bool keeps_data() const override { return Data; }
  bool peek(uint64_t addr, uint8_t* out) const override {
    const int64_t slot = array_.find_slot(addr >> line_shift_);
    if (slot < 0) return false;
    if constexpr (Data) *out = data_[uint64_t(slot) * config_.line + (addr & (config_.line - 1))];
    return true;
  }

  void poke(uint64_t addr, uint64_t bytes, const uint8_t* in) override {
    overwrite(addr, bytes, in);
    below_->poke(addr, bytes, in);
  }
  void overwrite(uint64_t addr, uint64_t bytes, const uint8_t* in) override {
    again_line_ = ~0ull;
    if constexpr (Data) {
      for (uint64_t a = addr, end = addr + bytes; a < end;) {
        const uint64_t line = a >> line_shift_;
        const uint64_t next = std::min(end, (line + 1) << line_shift_);
        const int64_t slot = array_.find_slot(line);
        if (slot >= 0) std::memcpy(line_data(uint64_t(slot)) + (a - (line << line_shift_)), in + (a - addr), next - a);
        a = next;
      }
    } else {
      (void)addr, (void)bytes, (void)in;
    }
  }

 protected:
  bool invalidate_line(uint64_t line, bool* was_dirty, uint8_t* dirty_data) override {
    again_line_ = ~0ull;
    if constexpr (Sub) return invalidate_subblocked(line, was_dirty);
    if constexpr (VictimIsShadowOldest<Policy>::value)
      if (classifier_.mirrored()) [[unlikely]] unmirror_shadow();  // the shadow keeps the line: build it now
    int64_t slot = -1;
    if constexpr (Data) slot = array_.find_slot(line);
    bool unused_prefetch = false;
    if (!array_.invalidate(line, was_dirty, &unused_prefetch)) return false;
    prefetch_.useless += unused_prefetch;
    if constexpr (Data)
      if (*was_dirty && dirty_data) std::memcpy(dirty_data, line_data(uint64_t(slot)), config_.line);
    (void)slot, (void)dirty_data;
    return true;
  }

 private:
  // issue() and run(); `Plain`: plain() holds (one core), so the hit path
  // has no test for a calendar, slices or a directory. `Again`: issue()'s,
  // whose read hits note what issue_again() needs (run()'s core never asks).
  template <bool Plain, bool Again = false>
#if defined(__GNUC__)
  __attribute__((always_inline))  // into run(): the core's loop
#endif
  uint64_t issue_as(const MemRequest& r, uint64_t* t, CompletionWindow& window, WindowStalls& stalls) {
    again_line_ = ~0ull;
    if (!r.write || config_.write_back) {  // else the write goes below too
      const uint64_t line = r.addr >> line_shift_;
      const typename Array::Found f = array_.find(line);
      if (f.slot >= 0 && holds(f, line, r.addr, r.bytes ? r.bytes : 1)) {
        const uint64_t at = *t;
        const uint64_t done = served_hit<Plain>(f, line, r.addr, r.bytes ? r.bytes : 1, r,
                                                occupy_port<Plain>(at, r.bytes, r.addr) + latency_fs_);
        timing_.latency_sum_fs += done - at;
        ++timing_.requests;
        if constexpr (Again && Plain && !Data && !Sub && Policy::kRepeatHitIsNoop)
          if (!r.write && !r.writeback) note_again(uint64_t(f.slot), line);
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
    // The miss path gets a copy: `r` itself then never leaves the core's
    // loop, whose hit path keeps its fields in registers instead of
    // writing the whole request to memory for every access.
    const MemRequest m = r;
    const uint64_t done = r.write && !config_.write_back ? CacheLevelImpl::access(m, *t) : core_miss<Plain>(m, *t);
    if (done - *t > latency_fs_) window.push(done);
    return done;
  }

  // After a read hit on `line` in `slot`: issue_again() may take the next
  // read of the line if that read's hit would find it where find() last
  // did (no policy update), no prefetch left unused in it, the prefetcher
  // ignoring it and the 3C shadow holding it as its most recent.
  void note_again(uint64_t slot, uint64_t line) {
    if (!array_.remembers(line) || array_.prefetched(slot)) return;
    if (prefetcher_ && !prefetcher_->ignores(line)) return;
    const LevelSlot& s = array_.extra(slot);
    if (!classifier_.hit_is_noop(line, s.shadow)) return;
    again_line_ = line;
    again_ready_ = s.ready;
  }

  template <bool Plain>
  size_t run_as(const Access* a, size_t n, SpaceId space, CoreClock& c) {
    const uint64_t line_bytes = config_.line, offset_mask = line_bytes - 1;
    size_t i = 0;
    for (; i < n; ++i) {
      const Access& x = a[i];
      const uint64_t bytes = x.bytes ? x.bytes : 1;
      if (x.space != space || x.core != c.id || (x.addr & offset_mask) + bytes > line_bytes || is_control(x.kind))
        break;
      uint64_t t = c.issue_at;
      if (t > c.sync_at) break;
      const bool write = (uint8_t(x.kind) & 1) != 0;
      c.count(write, x.bytes);
      c.window.retire(t);
      const uint64_t done = issue_as<Plain>(
          MemRequest{x.addr, bytes, write, x.tensor, x.region, nullptr, false, false, x.site}, &t, c.window,
          c.stalls);
      c.issued(t, done);
    }
    return i;
  }

  // A request over several lines, line by line; kept out of access() so
  // that the common single-line path stays small. Every line trains the
  // prefetcher: Dinero IV queues the rest of a split reference as a
  // "multiblock" remainder, but d4_dopending clears that mark before the
  // remainder comes back to d4ref as a read.
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
  // just missed (find() remembers it: two compares, no scan). `Plain` as
  // issue_as(): the port's test for a calendar and slices compiled out.
  template <bool Plain>
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  uint64_t core_miss(const MemRequest& r, uint64_t at) {
    const uint64_t start = occupy_port<Plain>(at, r.bytes, r.addr);
    mshrs_.retire(start);
    const uint64_t line = r.addr >> line_shift_;
    const uint64_t done =
        served_miss(array_.find(line), line, r.addr, r.bytes ? r.bytes : 1, r, start + latency_fs_);
    timing_.latency_sum_fs += done - at;
    ++timing_.requests;
    return done;
  }

  // warm() of one request, line by line; returns its lines.
#if defined(__GNUC__)
  __attribute__((always_inline))  // into warm_run(): the loop between units
#endif
  uint64_t warm_request(const MemRequest& r) {
    const uint64_t bytes = r.bytes ? r.bytes : 1;
    const uint64_t first = r.addr >> line_shift_, last = (r.addr + bytes - 1) >> line_shift_;
    if (first == last) {  // the common case
      warm_line(first, r.addr, bytes, r);
      return 1;
    }
    for (uint64_t line = first; line <= last; ++line) {
      const uint64_t lo = std::max(r.addr, line << line_shift_);
      const uint64_t hi = std::min(r.addr + bytes, (line + 1) << line_shift_);
      warm_line(line, lo, hi - lo, r);
    }
    return last - first + 1;
  }

  // One line of warm(): served_hit / served_miss (and a read's prefetches)
  // without time or counters. The plain hit (no prefetcher, nothing
  // written through) is most of a warmed stream: it stays in the caller's
  // loop, with the request in registers; the rest takes a copy apart, as
  // issue_as() gives its miss path.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void warm_line(uint64_t line, uint64_t addr, uint64_t bytes, const MemRequest& r) {
    const typename Array::Found f = array_.find(line);
    if (f.slot >= 0 && !prefetcher_ && (!r.write || config_.write_back)) [[likely]] {
      // A read of the line found last is no change for such a policy: the
      // call (GCC keeps it outlined here) is skipped.
      if (!(Policy::kRepeatHitIsNoop && f.repeat) || r.write) array_.hit(f, r.write);
      classifier_.hit(line, array_.extra(uint64_t(f.slot)).shadow, [&] { return allocates(r.write, bytes); });
      return;
    }
    const MemRequest m = r;
    warm_found(f, line, addr, bytes, m);
  }

  // warm_line() past its lookup at `f`.
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  void warm_found(const typename Array::Found& f, uint64_t line, uint64_t addr, uint64_t bytes, const MemRequest& r) {
    const bool write = r.write;
    const MemRequest through{addr, bytes, true, r.tensor, r.region};
    if (f.slot >= 0) {
      array_.hit(f, write && config_.write_back);
      classifier_.hit(line, array_.extra(uint64_t(f.slot)).shadow, [&] { return allocates(write, bytes); });
      if (write && !config_.write_back) below_->warm(through);
      if (prefetcher_) [[unlikely]] {  // a write uses a prefetched line too (prefetch_after_hit)
        const bool first_use = array_.take_prefetched(uint64_t(f.slot));
        if (!write) warm_prefetches(DemandRead{line, false, first_use, line}, r);
      }
      return;
    }
    if (!allocates(write, bytes)) {  // the 3C shadow still sees the line, as served_miss shows it
      demand_compulsory_ += classifier_.miss(line, false, array_.extra(typename Array::Victim{}.slot).shadow) ==
                                MissClass::Compulsory && !r.writeback;
      below_->warm(through);
      return;
    }
    const bool whole = bytes == config_.line && (!config_.allocate_fetch_whole || r.writeback);
    warm_fill(f, line, r, !(write && whole), write && config_.write_back, false);
    if (write && !config_.write_back) below_->warm(through);
    if (prefetcher_ && !write) [[unlikely]] warm_prefetches(DemandRead{line, true, false, line}, r);
  }

  // A line that missed at `f` takes a way: the victim leaves (written back
  // below if dirty), the line is fetched from below if `fetch`, installed.
  void warm_fill(const typename Array::Found& f, uint64_t line, const MemRequest& r, bool fetch, bool dirty,
                 bool prefetched) {
    const typename Array::Victim v = array_.reserve(f);
    const MissClass mc = classifier_.miss(line, true, array_.extra(v.slot).shadow);
    demand_compulsory_ += !prefetched && !r.writeback && mc == MissClass::Compulsory;  // as served_miss counts them
    mirror_filling(line, v.slot);
    if (fetch) below_->warm(MemRequest{line << line_shift_, config_.line, false, r.tensor, r.region});
    array_.install(f, v.slot, line, dirty, LineOwner{r.tensor, r.region}, prefetched);
    mirror_filling(~0ull, 0);
    array_.extra(v.slot).ready = 0;
    if (!v.evicted) return;
    bool victim_dirty = v.dirty;
    if (config_.inclusive) victim_dirty |= invalidate_above(v.line);
    if (victim_dirty)
      below_->warm(MemRequest{v.line << line_shift_, config_.line, true, v.owner.tensor, v.owner.region, nullptr, true});
  }

  // prefetch_after / prefetch_line without time or counters: the
  // prefetcher trains, and what it proposes is looked up and filled.
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  void warm_prefetches(const DemandRead& d, const MemRequest& r) {
    uint64_t lines[kMaxPrefetchDegree];
    const uint32_t n = prefetcher_->on_read(d, lines);
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t line = lines[i];
      if (line > max_line_ || (line >> page_shift_) != (d.line >> page_shift_)) continue;
      const typename Array::Found f = array_.find(line);
      if (f.slot >= 0) {
        array_.hit(f, false);
        classifier_.hit(line, array_.extra(uint64_t(f.slot)).shadow, [] { return true; });
        continue;
      }
      MemRequest p = r;
      p.write = false;
      warm_fill(f, line, p, true, false, true);
    }
  }

  // A hit on the line found at `f`; returns when its data is there. A read
  // shows the prefetcher the hit.
  template <bool Plain = false>
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  uint64_t served_hit(const typename Array::Found& f, uint64_t line, uint64_t addr, uint64_t bytes,
                      const MemRequest& r, uint64_t issue) {
    if constexpr (Sub) return sub_hit(f, line, addr, bytes, r, issue);
    const uint64_t slot = uint64_t(f.slot);
    // Several cores: a dirty copy is modified (M), so this core holds the
    // line exclusive and a write needs no word with the directory (any other
    // core's read cleans every copy of the line's owner, its write removes
    // them): the directory's lookup is skipped for most write hits.
    const bool modified = !Plain && coherence_ && array_.dirty(slot);
    array_.hit(f, r.write && config_.write_back);
    if constexpr (Data) move_bytes(slot, line, addr, bytes, r);
    else (void)addr;
    stats_.count(r.write, true, bytes, r.tensor, r.region);
    stats_.writeback_requests += r.writeback;
    LevelSlot& s = array_.extra(slot);
    classifier_.hit(line, s.shadow, [&] { return allocates(r.write, bytes); });
    uint64_t done = issue;
    if (s.ready > issue) {  // its fill is still on its way: merge
      ++timing_.merges;
      done = Plain ? s.ready : merged(slot, issue, s.ready);  // Plain: no calendar, so merged() is s.ready
    }
    if (!Plain && coherence_) [[unlikely]]  // several cores: a write needs permission (S -> M)
      if (r.write && !r.writeback && !modified)
        done = std::max(done, coherence_->write(core_, addr, bytes, r.tensor, r.site, issue));
    // A line no prefetch brought in unused has no first use to count; then
    // a write tells the prefetcher nothing, nor a read it ignores (a repeat).
    if (prefetcher_ && (array_.prefetched(slot) || (!r.write && !prefetcher_->ignores(line)))) [[unlikely]] {
      const MemRequest p = r;  // a copy, as issue_as() gives its miss path
      prefetch_after_hit(slot, line, p, issue);
    }
    return done;
  }

  // One line of a request, `bytes` of it from `addr`; returns when its data is there.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  uint64_t access_line(uint64_t line, uint64_t addr, uint64_t bytes, const MemRequest& r, uint64_t issue) {
    const bool write = r.write;
    const typename Array::Found f = array_.find(line);
    if (f.slot >= 0 && holds(f, line, addr, bytes)) {
      const uint64_t done = served_hit(f, line, addr, bytes, r, issue);
      if (write && !config_.write_back) post_below(addr, bytes, r.tensor, r.region, issue, false, at_data(r, addr));
      return done;
    }
    return served_miss(f, line, addr, bytes, r, issue);
  }

  // A miss of the line looked up at `f`; returns when its data is there.
  // What goes below, in Dinero IV's order (d4ref pushes the victim's
  // writeback, the write-through and the fill on a stack, then pops them):
  // the fill first, then the write-through, then the victim's writeback, as
  // a real cache sends the missing line's request first and drains the
  // victim from a writeback buffer. A write that allocates and covers the
  // whole line fetches nothing, unless the level fetches for ownership
  // (write_allocate: fetch) and it is no writeback.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  uint64_t served_miss(const typename Array::Found& f, uint64_t line, uint64_t addr, uint64_t bytes,
                       const MemRequest& r, uint64_t issue) {
    if constexpr (Sub) return sub_miss(f, line, addr, bytes, r, issue);
    const bool write = r.write;
    stats_.count(write, false, bytes, r.tensor, r.region);
    stats_.writeback_requests += r.writeback;
    stats_.writeback_misses += r.writeback;
    // Within one line: covers it exactly, and need not be read first.
    const bool whole = bytes == config_.line && (!config_.allocate_fetch_whole || r.writeback);
    const bool allocate = allocates(write, bytes);
    typename Array::Victim v;
    if (allocate) v = array_.reserve(f);
    const MissClass mc = classifier_.miss(line, allocate, array_.extra(v.slot).shadow);
    if (coherence_ && coherence_lost_.erase(line)) [[unlikely]] {
      ++stats_.coherence;  // another core's write took it: the fourth C
    } else {
      switch (mc) {
        case MissClass::Compulsory: ++stats_.compulsory, demand_compulsory_ += !r.writeback; break;
        case MissClass::Capacity: ++stats_.capacity; break;
        case MissClass::Conflict: ++stats_.conflict; break;
      }
    }
    if (!allocate) {  // the write goes below in place of a fill
      post_below(addr, bytes, r.tensor, r.region, issue, false, at_data(r, addr));
      return issue;
    }
    if (v.evicted) leave(v);
    // Removed from the array now, written back last: nothing that happens
    // below in between (a back-invalidation) can touch the new line before
    // it is installed, and the victim's data waits in the writeback buffer.
    mirror_filling(line, v.slot);
    uint64_t filled = write && whole ? issue : fill(v.slot, line, r, issue, demand_touch(r, addr, bytes));
    const bool dirty = write && config_.write_back;
    array_.install(f, v.slot, line, dirty, LineOwner{r.tensor, r.region});
    mirror_filling(~0ull, 0);
    if (coherence_ && write && !r.writeback) [[unlikely]]  // several cores: write permission
      filled = std::max(filled, coherence_->write(core_, addr, bytes, r.tensor, r.site, issue));
    // A dirty line of the level above allocated here: the core still holds
    // it (its directory entry may have gone when this level's own victim
    // left while that line waited in the writeback buffer above).
    if (coherence_ && r.writeback && whole) [[unlikely]] coherence_->kept(core_, addr);
    array_.extra(v.slot).ready = filled;
    fill_asked(v.slot, issue);
    if constexpr (Data) move_bytes(v.slot, line, addr, bytes, r);
    if (write && !config_.write_back) post_below(addr, bytes, r.tensor, r.region, issue, false, at_data(r, addr));
    if (v.evicted) evict(v, issue);  // then, as Dinero IV, the prefetch
    if (prefetcher_ && !write) [[unlikely]] prefetch_after(DemandRead{line, true, false, line}, r, issue);
    return std::max(issue, filled);
  }

  // Prefetching, kept out of line: a level without a prefetcher pays one
  // test per request. A demand hit is a prefetched line's first use (useful,
  // and late if its fill is still on its way); a read then trains.
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  void prefetch_after_hit(uint64_t slot, uint64_t line, const MemRequest& r, uint64_t issue) {
    const bool first_use = array_.take_prefetched(slot);
    if (first_use) {
      ++prefetch_.useful;
      prefetch_.late += array_.extra(slot).ready > issue;
    }
    if (!r.write) prefetch_after(DemandRead{line, false, first_use, line}, r, issue);
  }

  // Asks the prefetcher after demand read `d` and fetches what it proposes,
  // in order, at `at` (Dinero IV: after the demand's own fill and writeback).
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  void prefetch_after(const DemandRead& d, const MemRequest& r, uint64_t at) {
    uint64_t lines[kMaxPrefetchDegree];
    const uint32_t n = prefetcher_->on_read(d, lines);
    for (uint32_t i = 0; i < n; ++i) {
      if constexpr (Sub) prefetch_subblocked(lines[i], prefetcher_->proposes_subblocks(), r, at);
      else if (lines[i] <= max_line_ && (lines[i] >> page_shift_) == (d.line >> page_shift_)) prefetch_line(lines[i], r, at);
    }
  }

  // One prefetch, as Dinero IV runs it: a lookup like a read that counts as
  // no demand. Found, it updates the replacement order and the 3C shadow
  // like a hit; missing, it takes a way (the victim leaves as on a demand
  // miss), the shadow allocates it, and the line is fetched from below
  // (an MSHR, the port below) and installed marked as prefetched.
  void prefetch_line(uint64_t line, const MemRequest& r, uint64_t at) {
    ++prefetch_.requests;
    const typename Array::Found f = array_.find(line);
    if (f.slot >= 0) {
      array_.hit(f, false);
      classifier_.hit(line, array_.extra(uint64_t(f.slot)).shadow, [] { return true; });
      return;
    }
    const typename Array::Victim v = array_.reserve(f);
    classifier_.miss(line, true, array_.extra(v.slot).shadow);  // not a demand miss: not classified
    if (coherence_) [[unlikely]] coherence_lost_.erase(line);
    if (v.evicted) leave(v);
    mirror_filling(line, v.slot);
    MemRequest p = r;
    p.write = false;  // a prefetch reads, and touches no byte of the line for the directory
    const uint64_t filled = fill(v.slot, line, p, at, 0);
    array_.install(f, v.slot, line, false, LineOwner{r.tensor, r.region}, true);
    mirror_filling(~0ull, 0);
    array_.extra(v.slot).ready = filled;
    fill_asked(v.slot, at);
    if (v.evicted) evict(v, at);  // the fill first, as for a demand miss
    ++prefetch_.issued;
    prefetch_.bytes += config_.line;
  }

  // Fetches `line` from below into `slot` (a demand's or a prefetch's fill).
  // --check-data: while it is on its way (until the line is installed), a
  // lower level that back-invalidates a dirty copy above of any of its
  // bytes gives it those newer bytes too (see invalidate_above).
  // `touch`: the demand's bytes of the line, for the directory below (several cores).
  uint64_t fill(uint64_t slot, uint64_t line, const MemRequest& r, uint64_t at, uint64_t touch) {
    if constexpr (Data) filling_ = InFlight{fill_data(slot), line << line_shift_};
    if (!read_fills_.empty() && !r.write) [[unlikely]] ++read_fills_[line % sets_];
    MemRequest f{line << line_shift_, config_.line, false, r.tensor, r.region, fill_data(slot)};
    if (coherence_) [[unlikely]] {
      f.rfo = r.write || r.rfo;
      f.site = r.site;
      f.touch = touch;
    }
    const uint64_t done = fill_below(f, at);
    if constexpr (Data) filling_ = InFlight{};
    return done;
  }

  // --check-data: the victim `v` leaves its way when it is reserved, before
  // the fill overwrites it; its bytes wait in the writeback buffer
  // (victim_) until evict(). A dirty one is visible to the levels below
  // meanwhile (pending_): one that evicts during the fill takes its bytes
  // and gives it back the newer bytes of the copies above it (see
  // invalidate_above), so that its later writeback is not stale.
  void leave(const typename Array::Victim& v) {
    if constexpr (Data) {
      std::memcpy(victim_.data(), line_data(v.slot), config_.line);
      if (v.dirty) pending_ = InFlight{victim_.data(), v.line << line_shift_};
    } else {
      (void)v;
    }
  }

  // A victim leaves. Inlined: most are clean, with nothing above to
  // invalidate and no directory (a column walk's every miss), and then
  // there is nothing more to do; the rest goes on in evict_below().
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void evict(const typename Array::Victim& v, uint64_t at) {
    pending_ = InFlight{};
    ++stats_.evictions;
    prefetch_.useless += v.prefetched;
    if (v.dirty || config_.inclusive || coherence_) [[unlikely]] evict_below(v, at);
  }
  // evict() of a dirty victim, or of a level with levels above to clean or a directory to tell.
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  void evict_below(const typename Array::Victim& v, uint64_t at) {
    bool dirty = v.dirty;
    uint8_t* bytes = nullptr;
    if constexpr (Data) bytes = victim_.data();
    if (config_.inclusive) dirty |= invalidate_above(v.line, bytes);
    if (dirty) {
      ++stats_.writebacks;
      post_below(v.line << line_shift_, config_.line, v.owner.tensor, v.owner.region, at, true,
                 Data ? written_back(bytes) : nullptr);
      if (!set_filled_.empty()) [[unlikely]] writeback_leaves_set(v.line, at);
    }
    if (coherence_) [[unlikely]] coherence_->left(core_, v.line << line_shift_);  // after the writeback went below
  }

  // The bytes of its line a demand touched, for the directory (0 without one).
  uint64_t demand_touch(const MemRequest& r, uint64_t addr, uint64_t bytes) const {
    if (!coherence_) return 0;
    return r.touch ? r.touch : coherence_->touch_of(addr, bytes);
  }

  // Gives the 3C shadow of a mirrored level (fully associative: one set)
  // the lines it would hold, in its order: the level's lines, and the
  // newest, the line being filled (reserved, not yet installed: a
  // back-invalidation comes during a fill, and the shadow took that line
  // at the miss).
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  void unmirror_shadow() {
    classifier_.unmirror([this](auto&& enter) {
      array_.lines_oldest_first(0, [&](uint64_t slot, uint64_t line) { enter(line, array_.extra(slot).shadow); });
      if (mirror_fill_line_ != ~0ull) enter(mirror_fill_line_, array_.extra(mirror_fill_slot_).shadow);
    });
  }
  // A mirrored level's fill of `line` into `slot` begins (~0: it ended).
  void mirror_filling(uint64_t line, uint64_t slot) {
    if constexpr (VictimIsShadowOldest<Policy>::value)
      if (classifier_.mirrored()) mirror_fill_line_ = line, mirror_fill_slot_ = slot;
    (void)line, (void)slot;
  }

  // Whether a miss of this request (within one line) would allocate.
  bool allocates(bool write, uint64_t bytes) const {
    return !write || (config_.write_allocate && (!config_.allocate_nofetch || bytes == config_.line));
  }

  // Writes `line` below if it is here and dirty (it stays, clean).
  void copy_back(uint64_t line, uint64_t at) {
    if constexpr (Sub) return copy_back_subblocks(line, at);
    LineOwner owner;
    if (!array_.clean(line, &owner)) return;
    ++stats_.writebacks;
    const uint8_t* bytes = nullptr;
    if constexpr (Data) bytes = written_back(line_data(uint64_t(array_.find_slot(line))));
    post_below(line << line_shift_, config_.line, owner.tensor, owner.region, at, true, bytes);
  }

  // ---- the data path (Data only) ----
  uint8_t* line_data(uint64_t slot) { return data_.begin() + slot * config_.line; }
  // Where a fill of `slot` puts the bytes it fetches (every fill, demand or
  // prefetch, passes this as its request's data); null without data.
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

  // Whether the line found at `f` holds the bytes [addr, addr + bytes):
  // always without sub-blocks (at compile time), else every sub-block they touch.
  bool holds(const typename Array::Found& f, uint64_t line, uint64_t addr, uint64_t bytes) const {
    if constexpr (Sub) {
      const uint32_t sb = sub_mask(line, addr, bytes);
      return (sub_[uint64_t(f.slot)].valid & sb) == sb;
    } else {
      (void)f, (void)line, (void)addr, (void)bytes;
      return true;
    }
  }

  // ---- sub-blocks (Sub only; defined in subblock_paths.h) ----
  struct SubState {
    uint32_t valid = 0, dirty = 0, referenced = 0;  // per sub-block bits (referenced: by demand)
  };
  void init_subblocks();
  uint32_t sub_mask(uint64_t line, uint64_t addr, uint64_t bytes) const;
  bool write_allocates(uint64_t addr, uint64_t bytes) const;
  uint64_t sub_hit(const typename Array::Found& f, uint64_t line, uint64_t addr, uint64_t bytes, const MemRequest& r,
                   uint64_t issue);
  uint64_t sub_miss(const typename Array::Found& f, uint64_t line, uint64_t addr, uint64_t bytes,
                    const MemRequest& r, uint64_t issue);
  void prefetch_subblocked(uint64_t unit, bool subblocks, const MemRequest& r, uint64_t at);
  void evict_subblocked(const typename Array::Victim& v, const SubState& was, uint64_t at);
  void write_runs(uint64_t line, uint32_t dirty, const LineOwner& owner, uint64_t at);
  void copy_back_subblocks(uint64_t line, uint64_t at);
  bool invalidate_subblocked(uint64_t line, bool* was_dirty);
  void count_classes(const SubBlockClasses& c, bool block_miss);

  MissClassifier classifier_;    // (Sub: unused, one line); before array_, which starts its slots' nodes
  uint64_t mirror_fill_line_ = ~0ull;  // a mirrored level's line being filled, ~0 = none
  uint64_t mirror_fill_slot_ = 0;
  Array array_;
  ZeroedArray<uint8_t> data_;    // Data: per slot, the line's bytes (untouched pages until filled)
  std::vector<uint8_t> victim_;  // Data: the bytes of the line being evicted
  ZeroedArray<SubState> sub_;    // Sub: per slot (untouched pages until filled)
  std::unique_ptr<SubBlockClassifier> sub_classifier_;  // Sub: the 3C shadow
  uint32_t sub_shift_ = 0;       // Sub: log2 of the sub-block size
  uint32_t sub_all_ = 1;         // Sub: the mask of every sub-block of a line
};

// The two other instantiations by name (make_level_with picks one).
template <class Policy>
using SubblockedLevel = CacheLevelImpl<Policy, /*Data=*/false, /*Sub=*/true>;
template <class Policy>
using DataKeepingLevel = CacheLevelImpl<Policy, /*Data=*/true, /*Sub=*/false>;

}  // namespace ptosim

#include "models/cache/subblock_paths.h"
