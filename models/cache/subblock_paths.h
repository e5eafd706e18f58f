#pragma once
// The paths of a cache level with sub-blocks (SubblockedLevel<Policy>, cache_level_impl.h),
// as Dinero IV's d4ref runs them with -lN-Tsbsize: a line has a valid, a
// dirty and a demand-referenced bit per sub-block; a request misses when
// any sub-block it touches is not valid (a sub-block miss; a block miss
// when the line is absent); a miss fetches exactly the sub-blocks the
// request touches (all of them, valid or not, as Dinero does), and a
// dirty line leaves as one write per run of dirty sub-blocks. Kept out of
// cache_level_impl.h so that the whole-line path there stays as it was:
// these functions exist only in the Sub instantiation. docs/CACHES.md,
// "Sub-blocks", says what goes below and in which order.
#include <cstdint>

#include "models/cache/cache_level_impl.h"

namespace ptosim {

template <class Policy, bool Data, bool Sub>
void CacheLevelImpl<Policy, Data, Sub>::init_subblocks() {
  sub_ = ZeroedArray<SubState>(config_.sets() * config_.ways);
  while ((1u << sub_shift_) < config_.subblock) ++sub_shift_;
  const uint32_t per_line = config_.line >> sub_shift_;
  sub_all_ = per_line >= 32 ? ~0u : (1u << per_line) - 1;
  stats_.subblocks = true;
  sub_classifier_ =
      std::make_unique<SubBlockClassifier>(config_.lines(), line_shift_ - sub_shift_, ShadowInFillOrder<Policy>::value);
}

// The sub-blocks [addr, addr + bytes) touches in `line` (the range is within it).
template <class Policy, bool Data, bool Sub>
uint32_t CacheLevelImpl<Policy, Data, Sub>::sub_mask(uint64_t line, uint64_t addr, uint64_t bytes) const {
  const uint64_t base = line << line_shift_;
  const uint32_t first = uint32_t((addr - base) >> sub_shift_);
  const uint32_t n = uint32_t((addr + bytes - 1 - base) >> sub_shift_) - first + 1;
  return (n >= 32 ? ~0u : (1u << n) - 1) << first;
}

// Dinero IV's walloc for a write of [addr, addr + bytes): write_allocate,
// and with `nofetch` only when the write covers its sub-blocks exactly.
template <class Policy, bool Data, bool Sub>
bool CacheLevelImpl<Policy, Data, Sub>::write_allocates(uint64_t addr, uint64_t bytes) const {
  if (!config_.write_allocate) return false;
  if (!config_.allocate_nofetch) return true;
  const uint64_t size = 1ull << sub_shift_;
  return (addr & (size - 1)) == 0 && (bytes & (size - 1)) == 0;
}

template <class Policy, bool Data, bool Sub>
void CacheLevelImpl<Policy, Data, Sub>::count_classes(const SubBlockClasses& c, bool block_miss) {
  switch (c.miss) {
    case MissClass::Compulsory: ++stats_.compulsory; break;
    case MissClass::Capacity: ++stats_.capacity; break;
    case MissClass::Conflict: ++stats_.conflict; break;
  }
  if (!block_miss) return;
  ++stats_.block_misses;
  switch (c.block) {
    case MissClass::Compulsory: ++stats_.compulsory_blocks; break;
    case MissClass::Capacity: ++stats_.capacity_blocks; break;
    case MissClass::Conflict: ++stats_.conflict_blocks; break;
  }
}

// Every sub-block the request touches is valid. A prefetched sub-block's
// first demand use is useful (late if its fill is still on its way), and
// a read whose sub-blocks were all unreferenced is a first use for `tagged`
// (Dinero IV: no touched sub-block has its referenced bit).
template <class Policy, bool Data, bool Sub>
uint64_t CacheLevelImpl<Policy, Data, Sub>::sub_hit(const typename Array::Found& f, uint64_t line, uint64_t addr,
                                                    uint64_t bytes, const MemRequest& r, uint64_t issue) {
  const uint64_t slot = uint64_t(f.slot);
  const bool write = r.write, dirty = write && config_.write_back;
  SubState& s = sub_[slot];
  const uint32_t sb = sub_mask(line, addr, bytes);
  const uint32_t unused = sb & ~s.referenced;
  array_.hit(f, dirty);
  s.referenced |= sb;
  if (dirty) s.dirty |= sb;
  stats_.count(write, true, bytes, r.tensor, r.region);
  stats_.writeback_requests += r.writeback;
  sub_classifier_->classify(line, sb, !write || write_allocates(addr, bytes), false, false);
  uint64_t done = issue;
  if (array_.extra(slot).ready > issue) {  // a fill is still on its way: merge
    ++timing_.merges;
    done = array_.extra(slot).ready;
  }
  if (prefetcher_) [[unlikely]] {
    const uint32_t first_uses = uint32_t(__builtin_popcount(unused));
    prefetch_.useful += first_uses;
    if (array_.extra(slot).ready > issue) prefetch_.late += first_uses;
    if (!write) prefetch_after(DemandRead{line, false, unused == sb, addr >> sub_shift_}, r, issue);
  }
  return done;
}

// A sub-block miss (f.slot >= 0: the line is here, a touched sub-block is
// not) or a block miss. Below, in Dinero IV's order: the fetch of the
// touched sub-blocks, the write-through, the victim's runs of dirty
// sub-blocks (the highest first), then the prefetch. A write that misses
// and does not allocate goes below alone; but a write to a line that is
// here updates it (valid, and dirty with write-back) without a fetch even
// without write-allocate, and a write covering its sub-blocks exactly
// fetches nothing.
template <class Policy, bool Data, bool Sub>
uint64_t CacheLevelImpl<Policy, Data, Sub>::sub_miss(const typename Array::Found& f, uint64_t line, uint64_t addr,
                                                     uint64_t bytes, const MemRequest& r, uint64_t issue) {
  const bool write = r.write;
  const bool block_miss = f.slot < 0;
  const uint32_t sb = sub_mask(line, addr, bytes);
  const uint64_t sb_bytes = 1ull << sub_shift_;
  const uint64_t from = addr & ~(sb_bytes - 1);
  const uint64_t span = uint64_t(__builtin_popcount(sb)) << sub_shift_;
  const bool walloc = write && write_allocates(addr, bytes);
  const bool update = !write || !block_miss || walloc;
  stats_.count(write, false, bytes, r.tensor, r.region);
  stats_.writeback_requests += r.writeback;
  stats_.writeback_misses += r.writeback;
  count_classes(sub_classifier_->classify(line, sb, !write || walloc, true, block_miss), block_miss);
  if (!update) {  // the write goes below in place of a fill
    post_below(addr, bytes, r.tensor, r.region, issue, false, nullptr);
    return issue;
  }
  const bool wback = write && config_.write_back;
  const bool fetch = !write || (walloc && (bytes != span || (config_.allocate_fetch_whole && !r.writeback)));
  typename Array::Victim v;
  SubState was;
  uint64_t slot;
  if (block_miss) {
    v = array_.reserve(f);
    slot = v.slot;
    was = sub_[slot];
  } else {  // the line stays: its state changes now, before anything below can back-invalidate it
    slot = uint64_t(f.slot);
    typename Array::Found g = f;
    g.repeat = false;  // found twice (the hit test, then here) without a policy update in between
    array_.hit(g, wback);
    SubState& s = sub_[slot];
    prefetch_.useful += uint32_t(__builtin_popcount(sb & s.valid & ~s.referenced));
    s.valid |= sb;
    s.referenced |= sb;
    if (wback) s.dirty |= sb;
  }
  const uint64_t filled = fetch ? fill_below(MemRequest{from, span, false, r.tensor, r.region}, issue) : issue;
  if (block_miss) {
    array_.install(f, slot, line, wback, LineOwner{r.tensor, r.region});
    sub_[slot] = SubState{sb, wback ? sb : 0, sb};
    array_.extra(slot).ready = filled;
  } else {
    array_.extra(slot).ready = std::max(array_.extra(slot).ready, filled);
  }
  if (write && !wback) post_below(addr, bytes, r.tensor, r.region, issue, false, nullptr);  // write-through
  if (v.evicted) evict_subblocked(v, was, issue);
  if (prefetcher_ && !write) [[unlikely]]
    prefetch_after(DemandRead{line, true, false, addr >> sub_shift_}, r, issue);
  return std::max(issue, filled);
}

// One prefetch: of sub-block `unit` when the prefetcher proposes sub-blocks
// (Dinero IV's policies), else of the whole line `unit`. A lookup like a
// read that is no demand: it marks no sub-block referenced; missing, it
// fetches what it touches.
template <class Policy, bool Data, bool Sub>
void CacheLevelImpl<Policy, Data, Sub>::prefetch_subblocked(uint64_t unit, bool subblocks, const MemRequest& r,
                                                            uint64_t at) {
  if (unit > (~0ull >> (subblocks ? sub_shift_ : line_shift_))) return;
  const uint64_t addr = subblocks ? unit << sub_shift_ : unit << line_shift_;
  const uint64_t size = subblocks ? 1ull << sub_shift_ : config_.line;
  const uint64_t line = addr >> line_shift_;
  const uint32_t sb = sub_mask(line, addr, size);
  ++prefetch_.requests;
  const typename Array::Found f = array_.find(line);
  const bool block_miss = f.slot < 0;
  const bool miss = block_miss || (sub_[uint64_t(f.slot)].valid & sb) != sb;
  sub_classifier_->classify(line, sb, true, miss, block_miss);  // not a demand miss: not counted
  typename Array::Victim v;
  SubState was;
  if (block_miss) {
    v = array_.reserve(f);
    was = sub_[v.slot];
  } else {
    array_.hit(f, false);
    sub_[uint64_t(f.slot)].valid |= sb;
  }
  if (!miss) return;
  const uint64_t from = addr & ~((1ull << sub_shift_) - 1), span = uint64_t(__builtin_popcount(sb)) << sub_shift_;
  const uint64_t filled = fill_below(MemRequest{from, span, false, r.tensor, r.region}, at);
  if (block_miss) {
    array_.install(f, v.slot, line, false, LineOwner{r.tensor, r.region});
    sub_[v.slot] = SubState{sb, 0, 0};
    array_.extra(v.slot).ready = filled;
    if (v.evicted) evict_subblocked(v, was, at);  // the fill first, as for a demand miss
  } else {
    array_.extra(uint64_t(f.slot)).ready = std::max(array_.extra(uint64_t(f.slot)).ready, filled);
  }
  ++prefetch_.issued;
  prefetch_.bytes += span;
}

// A line leaving for room (`was`: its sub-block state). With inclusion, a
// dirty copy above makes the whole line dirty.
template <class Policy, bool Data, bool Sub>
void CacheLevelImpl<Policy, Data, Sub>::evict_subblocked(const typename Array::Victim& v, const SubState& was,
                                                         uint64_t at) {
  ++stats_.evictions;
  prefetch_.useless += uint32_t(__builtin_popcount(was.valid & ~was.referenced));
  uint32_t dirty = was.valid & was.dirty;
  if (config_.inclusive && invalidate_above(v.line)) dirty = sub_all_;
  if (dirty) {
    ++stats_.writebacks;
    write_runs(v.line, dirty, v.owner, at);
  }
}

// Dinero IV's d4_wbblock: one write per run of consecutive dirty
// sub-blocks. It pushes them on its pending stack from the lowest address
// up, and pops them: so they go below from the highest run down.
template <class Policy, bool Data, bool Sub>
void CacheLevelImpl<Policy, Data, Sub>::write_runs(uint64_t line, uint32_t dirty, const LineOwner& owner, uint64_t at) {
  const uint64_t base = line << line_shift_;
  while (dirty) {
    const uint32_t hi = 31 - uint32_t(__builtin_clz(dirty));
    uint32_t lo = hi;
    while (lo > 0 && (dirty >> (lo - 1) & 1)) --lo;
    post_below(base + (uint64_t(lo) << sub_shift_), uint64_t(hi - lo + 1) << sub_shift_, owner.tensor, owner.region, at,
               true, nullptr);
    dirty &= ~(((hi - lo + 1 >= 32) ? ~0u : ((1u << (hi - lo + 1)) - 1)) << lo);
  }
}

template <class Policy, bool Data, bool Sub>
void CacheLevelImpl<Policy, Data, Sub>::copy_back_subblocks(uint64_t line, uint64_t at) {
  const int64_t slot = array_.find_slot(line);
  LineOwner owner;
  if (slot < 0 || !array_.clean(line, &owner)) return;
  SubState& s = sub_[uint64_t(slot)];
  const uint32_t dirty = s.valid & s.dirty;
  s.dirty = 0;
  if (!dirty) return;
  ++stats_.writebacks;
  write_runs(line, dirty, owner, at);
}

template <class Policy, bool Data, bool Sub>
bool CacheLevelImpl<Policy, Data, Sub>::invalidate_subblocked(uint64_t line, bool* was_dirty) {
  const int64_t slot = array_.find_slot(line);
  if (slot < 0) return false;
  const SubState& s = sub_[uint64_t(slot)];
  prefetch_.useless += uint32_t(__builtin_popcount(s.valid & ~s.referenced));
  return array_.invalidate(line, was_dirty);
}

}  // namespace ptosim
