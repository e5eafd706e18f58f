#include "sim/exec/allocator.h"

#include <algorithm>
#include <iterator>

#include "sim/exec/dtype.h"

namespace ptosim::exec {

SpaceAllocator::SpaceAllocator(std::string space, SpaceId id, uint64_t base, uint64_t capacity,
                               uint64_t alignment)
    : space_(std::move(space)), id_(id), base_(base), capacity_(capacity), alignment_(alignment ? alignment : 1) {}

uint64_t SpaceAllocator::rounded(uint64_t bytes) const {
  if (bytes == 0) bytes = 1;  // distinct addresses even for empty tensors
  return (bytes + alignment_ - 1) / alignment_ * alignment_;
}

uint64_t SpaceAllocator::allocate(uint64_t bytes, const std::string& tensor_name) {
  uint64_t size = rounded(bytes);
  // What would fit, said with the refusal: free bytes alone do not say it
  // when other tensors split them (the largest block, aligned, does).
  auto fail = [&] {
    uint64_t largest = capacity_ > top_ ? capacity_ - top_ : 0;
    for (const auto& [off, sz] : free_) largest = std::max(largest, sz);
    for (const auto& pool : pools_)
      for (const auto& [off, sz] : pool) largest = std::max(largest, sz);
    throw OpError("cannot allocate '" + tensor_name + "' (" + std::to_string(bytes) + " bytes) in space '" +
                  space_ + "': " + std::to_string(capacity_ - in_use_) + " bytes free of " +
                  std::to_string(capacity_) + ", the largest free block " + std::to_string(largest) + " bytes");
  };
  if (capacity_ && size > capacity_ - in_use_) fail();
  uint64_t off = pools_.empty() ? UINT64_MAX : take(pools_[core_], size);
  if (off == UINT64_MAX) off = take(free_, size);
  if (off == UINT64_MAX && capacity_ && top_ + size > capacity_ && !pools_.empty()) {
    flush_pools();  // a bounded space full but for other cores' pools: they share it
    off = take(free_, size);
  }
  if (off == UINT64_MAX) {
    // Fragmentation can make a bounded space refuse a fitting total.
    if (capacity_ && top_ + size > capacity_) fail();
    off = top_;
    top_ += size;
  }
  const bool held = holding_ && !capacity_;
  used_[off] = Used{size, core_, held};
  if (held) return base_ + off;
  in_use_ += size;
  shadow_ += size;
  if (in_use_ > peak_) peak_ = in_use_;
  if (in_use_ > window_peak_) window_peak_ = in_use_;
  if (shadow_ > window_shadow_peak_) window_shadow_peak_ = shadow_;
  if (sink_) sink_->footprint(id_, in_use_);
  return base_ + off;
}

void SpaceAllocator::release(uint64_t addr) {
  auto it = used_.find(addr - base_);
  if (it == used_.end()) return;
  if (!it->second.held) shadow_ -= it->second.size;
  release_early(addr);
}

void SpaceAllocator::drop_shadow(uint64_t bytes) { shadow_ -= std::min(shadow_, rounded(bytes)); }

void SpaceAllocator::release_early(uint64_t addr) {
  auto it = used_.find(addr - base_);
  if (it == used_.end()) return;
  const uint64_t off = it->first, size = it->second.size;
  const CoreId owner = it->second.core;
  const bool held = it->second.held;
  used_.erase(it);
  if (!held) {
    in_use_ -= size;
    if (sink_) sink_->footprint(id_, in_use_);
  }
  if (!pools_.empty()) {  // back to the core whose iteration allocated it (freed maybe in the next core's)
    pools_[owner < pools_.size() ? owner : 0][off] = size;
    return;
  }
  give_back(off, size);
}

void SpaceAllocator::count_held() {
  bool any = false;
  for (auto& [off, u] : used_)
    if (u.held) {
      u.held = false;
      in_use_ += u.size;
      shadow_ += u.size;
      any = true;
    }
  if (!any) return;
  peak_ = std::max(peak_, in_use_);
  window_peak_ = std::max(window_peak_, in_use_);
  window_shadow_peak_ = std::max(window_shadow_peak_, shadow_);
  if (sink_) sink_->footprint(id_, in_use_);
}

uint64_t SpaceAllocator::take(std::map<uint64_t, uint64_t>& list, uint64_t size) {
  for (auto it = list.begin(); it != list.end(); ++it) {
    if (it->second >= size) {
      const uint64_t off = it->first, rest = it->second - size;
      list.erase(it);
      if (rest) list[off + size] = rest;
      return off;
    }
  }
  return UINT64_MAX;
}

void SpaceAllocator::begin_core_pools(uint32_t cores) {
  if (cores <= 1) return;
  if (pool_depth_++ == 0) pools_.assign(cores, {});
}

void SpaceAllocator::end_core_pools() {
  if (pool_depth_ == 0 || --pool_depth_ > 0) return;
  flush_pools();
  pools_.clear();
}

void SpaceAllocator::flush_pools() {
  for (auto& pool : pools_) {
    for (auto [off, size] : pool) give_back(off, size);
    pool.clear();
  }
}

void SpaceAllocator::give_back(uint64_t off, uint64_t size) {
  // Coalesce with neighbours; a block ending at top_ lowers top_.
  auto next = free_.lower_bound(off);
  if (next != free_.end() && off + size == next->first) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == off) {
      off = prev->first;
      size += prev->second;
      free_.erase(prev);
    }
  }
  if (off + size == top_) top_ = off;
  else free_[off] = size;
}

}  // namespace ptosim::exec
