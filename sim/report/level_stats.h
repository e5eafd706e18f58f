#pragma once
// Counters of one level, in Dinero IV's conventions: `reads`/`writes` are the
// requests the level receives (one per line touched), whoever sends them.
#include <cstdint>
#include <vector>

#include "sim/common/ids.h"

namespace ptosim {

struct TagCounters {
  uint64_t accesses = 0;
  uint64_t misses = 0;
  uint64_t bytes = 0;
  // The one place the fields are summed (merging levels' tables, a region tree's subtotals).
  TagCounters& operator+=(const TagCounters& o) {
    accesses += o.accesses, misses += o.misses, bytes += o.bytes;
    return *this;
  }
};

// Per tensor / per region break-down; ids are small and dense, so a row is
// an array index (the first rows are preallocated: no check per access).
class TagTable {
 public:
  static constexpr size_t kPreallocated = 64;
  TagTable() : rows_(kPreallocated) {}
  TagCounters& operator[](TagId id) { return id < rows_.size() ? rows_[id] : grow(id); }
  // Ids below kPreallocated need no check: the common case, inlined.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void add(TagId id, bool hit, uint64_t bytes) { bump(id < kPreallocated ? rows_.data()[id] : grow(id), hit, bytes); }
  // The same for an id known to be below kPreallocated.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void add_preallocated(TagId id, bool hit, uint64_t bytes) { bump(rows_.data()[id], hit, bytes); }
  const std::vector<TagCounters>& rows() const { return rows_; }

 private:
  static void bump(TagCounters& r, bool hit, uint64_t bytes) {
    ++r.accesses;
    r.misses += !hit;
    r.bytes += bytes;
  }
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  TagCounters& grow(TagId id) {
    if (id >= rows_.size()) rows_.resize(size_t(id) + 1);
    return rows_[id];
  }
  std::vector<TagCounters> rows_;
};

struct LevelStats {
  uint64_t reads = 0, writes = 0;
  uint64_t read_hits = 0, write_hits = 0;
  uint64_t read_misses = 0, write_misses = 0;
  uint64_t evictions = 0, writebacks = 0;
  uint64_t bytes_read = 0, bytes_written = 0;
  uint64_t compulsory = 0, capacity = 0, conflict = 0;
  uint64_t back_invalidations = 0;  // lines removed because an inclusive level below evicted them
  // A core's private level with several cores: misses to lines another
  // core's write invalidated here (the fourth C, not in the other three),
  // and those invalidations.
  uint64_t coherence = 0, coherence_invalidations = 0;
  // Of the requests above: those that were writebacks of the level above
  // (not demands), and their misses. Demand = the rest (there are no
  // prefetches).
  uint64_t writeback_requests = 0, writeback_misses = 0;
  // A level with sub-blocks (Dinero IV's -lN-Tsbsize): the misses are
  // sub-block misses (a request missing any sub-block it touches); of them,
  // those whose line was absent, and their 3C classes.
  bool subblocks = false;
  uint64_t block_misses = 0, compulsory_blocks = 0, capacity_blocks = 0, conflict_blocks = 0;

  uint64_t accesses() const { return reads + writes; }
  uint64_t misses() const { return read_misses + write_misses; }
  double miss_rate() const { return accesses() ? double(misses()) / double(accesses()) : 0.0; }

#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void count(bool write, bool hit, uint64_t bytes, TagId tensor, TagId region) {
    if (write) { ++writes; bytes_written += bytes; (hit ? write_hits : write_misses)++; }
    else { ++reads; bytes_read += bytes; (hit ? read_hits : read_misses)++; }
    // Untagged traffic (id 0, all of a replayed din trace) is not counted
    // per row: row 0 is whatever the tagged rows leave of the totals (so
    // what lands in it meanwhile does not matter).
    if (tensor | region) {
      if ((tensor | region) < TagTable::kPreallocated) {
        by_tensor_.add_preallocated(tensor, hit, bytes);
        by_region_.add_preallocated(region, hit, bytes);
      } else {
        count_tags(hit, bytes, tensor, region);
      }
    }
  }

  // Adds another instance's counters (a private level's cores, reported as one level).
  void add(const LevelStats& o) {
    reads += o.reads, writes += o.writes, read_hits += o.read_hits, write_hits += o.write_hits;
    read_misses += o.read_misses, write_misses += o.write_misses, evictions += o.evictions;
    writebacks += o.writebacks, bytes_read += o.bytes_read, bytes_written += o.bytes_written;
    compulsory += o.compulsory, capacity += o.capacity, conflict += o.conflict;
    back_invalidations += o.back_invalidations, coherence += o.coherence;
    coherence_invalidations += o.coherence_invalidations;
    writeback_requests += o.writeback_requests, writeback_misses += o.writeback_misses;
    subblocks = subblocks || o.subblocks;
    block_misses += o.block_misses, compulsory_blocks += o.compulsory_blocks;
    capacity_blocks += o.capacity_blocks, conflict_blocks += o.conflict_blocks;
    for (auto [mine, theirs] : {std::pair{&by_tensor_, &o.by_tensor_}, std::pair{&by_region_, &o.by_region_}})
      for (size_t id = 1; id < theirs->rows().size(); ++id) (*mine)[TagId(id)] += theirs->rows()[id];
  }

  const TagTable& by_tensor() const { return settled(by_tensor_); }
  const TagTable& by_region() const { return settled(by_region_); }

 private:
  // Kept out of the inlined count() above: a din replay never gets here.
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  void count_tags(bool hit, uint64_t bytes, TagId tensor, TagId region) {
    if (tensor) by_tensor_.add(tensor, hit, bytes);
    if (region) by_region_.add(region, hit, bytes);
  }
  const TagTable& settled(TagTable& t) const {
    TagCounters rest{accesses(), misses(), bytes_read + bytes_written};
    for (size_t id = 1; id < t.rows().size(); ++id) {
      rest.accesses -= t.rows()[id].accesses;
      rest.misses -= t.rows()[id].misses;
      rest.bytes -= t.rows()[id].bytes;
    }
    t[0] = rest;
    return t;
  }
  mutable TagTable by_tensor_, by_region_;
};

}  // namespace ptosim
