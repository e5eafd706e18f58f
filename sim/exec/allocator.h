#pragma once
// Address ranges of one memory space: first-fit free list, aligned blocks,
// optional capacity, peak footprint.
//
// Inside pto.parallel on several cores each core keeps what its
// iterations free (a pool per core) and reuses it first, as a kernel's
// threads each reuse their own stack and buffers: without it the cores'
// iterations, run one after another by the executor, would get the same
// addresses for their results and staging tiles, and their private caches
// would pass those lines around (docs/EXEC.md, "Buffers per core"). The
// pools go back to the free list when the outermost parallel loop ends.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/trace/event.h"

namespace ptosim::exec {

class SpaceAllocator {
 public:
  // capacity 0 = unbounded.
  SpaceAllocator(std::string space, SpaceId id, uint64_t base, uint64_t capacity, uint64_t alignment);

  // Returns the base address; throws OpError when a bounded space is full:
  // "cannot allocate 'A' (65536 bytes) in space 'shared': 4096 bytes free of 65536".
  uint64_t allocate(uint64_t bytes, const std::string& tensor_name);
  void release(uint64_t addr);
  // pto.auto_reuse: give the range back now, but keep counting its bytes in
  // the "without buffer sharing" footprint until drop_shadow().
  void release_early(uint64_t addr);
  void drop_shadow(uint64_t bytes);
  // Peaks since the last reset (one auto_reuse block).
  void reset_window() { window_peak_ = in_use_; window_shadow_peak_ = shadow_; }
  uint64_t window_peak() const { return window_peak_; }
  uint64_t window_shadow_peak() const { return window_shadow_peak_; }

  const std::string& space() const { return space_; }
  SpaceId id() const { return id_; }
  uint64_t capacity() const { return capacity_; }
  uint64_t in_use() const { return in_use_; }
  uint64_t peak() const { return peak_; }
  uint64_t free_bytes() const { return capacity_ ? capacity_ - in_use_ : UINT64_MAX; }
  uint64_t alignment() const { return alignment_; }
  uint64_t rounded(uint64_t bytes) const;
  // Every change of in_use() goes to sink->footprint (null = nobody listens).
  void set_sink(EventSink* sink) { sink_ = sink; }
  // pto.parallel on `cores` > 1 cores: a freed range goes to the pool of
  // the core that allocated it (set_core at its allocation; a tensor a loop
  // variable holds is freed when the next iteration, another core's,
  // rebinds it) until the matching end_core_pools(); nestable.
  void begin_core_pools(uint32_t cores);
  void end_core_pools();
  void set_core(CoreId c) { core_ = c; }
  // pto.fuse: what an unbounded space allocates while holding is the fused
  // pass's registers, not memory, so it counts in no footprint (nor peak)
  // until count_held(), at the block's end, counts what is still allocated
  // (the results live after it); what was freed by then never counted. A
  // bounded space counts at once: its capacity is what refuses a buffer.
  void hold(bool on) { holding_ = on; }
  void count_held();

 private:
  // Gives [off, off + size) back to the free list (coalescing) or lowers top_.
  void give_back(uint64_t off, uint64_t size);
  // First fit in `list`; UINT64_MAX if nothing holds `size`.
  static uint64_t take(std::map<uint64_t, uint64_t>& list, uint64_t size);
  void flush_pools();

  std::string space_;
  SpaceId id_;
  uint64_t base_, capacity_, alignment_;
  uint64_t in_use_ = 0, peak_ = 0;
  uint64_t shadow_ = 0;  // in_use_ + early-released bytes still referenced
  uint64_t window_peak_ = 0, window_shadow_peak_ = 0;
  EventSink* sink_ = nullptr;
  uint64_t top_ = 0;                      // offset above every block ever used
  struct Used {
    uint64_t size;
    CoreId core;  // the core whose iteration allocated it: its pool takes it back
    bool held;    // allocated while holding, not yet counted in in_use_
  };
  std::map<uint64_t, Used> used_;         // offset -> block
  std::map<uint64_t, uint64_t> free_;     // offset -> size, below top_, coalesced
  std::vector<std::map<uint64_t, uint64_t>> pools_;  // per core: offset -> size freed in pto.parallel
  uint32_t pool_depth_ = 0;               // nested parallel loops using the pools
  CoreId core_ = 0;
  bool holding_ = false;
};

}  // namespace ptosim::exec
