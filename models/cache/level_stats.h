#pragma once
// Counters of one level, in Dinero IV's conventions: `reads`/`writes` are the
// requests the level receives (one per line touched), whoever sends them.
#include <cstdint>
#include <vector>

#include "sim/trace/event.h"

namespace ptosim {

struct TagCounters {
  uint64_t accesses = 0;
  uint64_t misses = 0;
  uint64_t bytes = 0;
};

// Per tensor / per region break-down; ids are small and dense.
class TagTable {
 public:
  TagCounters& operator[](TagId id) {
    if (id >= rows_.size()) rows_.resize(size_t(id) + 1);
    return rows_[id];
  }
  const std::vector<TagCounters>& rows() const { return rows_; }

 private:
  std::vector<TagCounters> rows_;
};

// Per-tag rows are kept lazily: the counters run untagged, and whenever the
// tags of the traffic change, the difference since the last change is added
// to the rows of the tags that were current. A long run of one tensor's
// traffic (or an untagged trace) therefore costs no per-access row updates.
struct LevelStats {
  uint64_t reads = 0, writes = 0;
  uint64_t read_hits = 0, write_hits = 0;
  uint64_t read_misses = 0, write_misses = 0;
  uint64_t evictions = 0, writebacks = 0;
  uint64_t bytes_read = 0, bytes_written = 0;
  uint64_t compulsory = 0, capacity = 0, conflict = 0;
  uint64_t back_invalidations = 0;  // lines removed because an inclusive level below evicted them

  uint64_t accesses() const { return reads + writes; }
  uint64_t misses() const { return read_misses + write_misses; }
  double miss_rate() const { return accesses() ? double(misses()) / double(accesses()) : 0.0; }

  void count(bool write, bool hit, uint64_t bytes, TagId tensor, TagId region) {
    if (tensor != tensor_ || region != region_) retag(tensor, region);
    if (write) { ++writes; bytes_written += bytes; (hit ? write_hits : write_misses)++; }
    else { ++reads; bytes_read += bytes; (hit ? read_hits : read_misses)++; }
  }

  const TagTable& by_tensor() const { settle(); return by_tensor_; }
  const TagTable& by_region() const { settle(); return by_region_; }

 private:
  void retag(TagId tensor, TagId region) {
    settle();
    tensor_ = tensor;
    region_ = region;
  }
  void settle() const {
    const TagCounters now{accesses(), misses(), bytes_read + bytes_written};
    const TagCounters d{now.accesses - mark_.accesses, now.misses - mark_.misses, now.bytes - mark_.bytes};
    if (d.accesses == 0) return;
    for (TagCounters* row : {&by_tensor_[tensor_], &by_region_[region_]}) {
      row->accesses += d.accesses;
      row->misses += d.misses;
      row->bytes += d.bytes;
    }
    mark_ = now;
  }

  TagId tensor_ = 0, region_ = 0;
  mutable TagCounters mark_;
  mutable TagTable by_tensor_, by_region_;
};

}  // namespace ptosim
