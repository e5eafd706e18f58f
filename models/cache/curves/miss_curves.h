#pragma once
// Every LRU cache geometry of one line size in one pass over a level's line
// references (`pto-sim curves`, docs/CACHES.md "Miss curves"): Mattson's
// stack (FaStack) gives the fully associative sizes and every point's 3C
// shadow, Hill & Smith's per-set stacks (SetStacks, one per set count) the
// set-associative ones. The counts are those of CacheLevelImpl<Lru> with
// write-allocate (write-back or write-through: the same lines, the same
// order) fed the same line requests, 3C included: compulsory = first
// reference, capacity = also a miss of a fully associative LRU cache with
// as many lines, conflict = the rest.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/cache/curves/fa_stack.h"
#include "models/cache/curves/set_stacks.h"
#include "models/cache/seen_lines.h"

namespace ptosim::curves {

// A cache of `sets` x `ways` lines; sets == 1 is fully associative.
struct Geometry {
  uint64_t sets = 1;
  uint32_t ways = 1;
  uint64_t lines() const { return sets * ways; }
};

struct Counts {
  uint64_t reads = 0, writes = 0, read_misses = 0, write_misses = 0;
  uint64_t compulsory = 0, capacity = 0, conflict = 0;
  uint64_t accesses() const { return reads + writes; }
  uint64_t misses() const { return read_misses + write_misses; }
};

class MissCurves {
 public:
  explicit MissCurves(const std::vector<Geometry>& points);

  // One line request (a read, or a write that allocates).
  void access(uint64_t line, bool write) {
    if (line == last_) {  // distance 1 everywhere: no stack changes
      ++repeats_[write];
      return;
    }
    last_ = line;
    step(line, write);
  }
  // A whole-cache invalidate record: every line leaves, and every first
  // reference is forgotten (Dinero IV's d4_invinfcache, as the levels do).
  void invalidate_all();
  // Per point, in the constructor's order.
  std::vector<Counts> counts() const;

 private:
  struct Group {  // the points with one set count (> 1)
    SetStacks stacks;
    std::array<std::vector<uint64_t>, 2> hist;  // [kind][(depth - 1) * buckets + fa bucket]
  };
  void step(uint64_t line, bool write);
  Counts fully_associative(uint32_t bucket) const;
  Counts set_associative(const Group& g, uint32_t ways, uint32_t bucket) const;
  void base_counts(Counts& c) const;

  std::vector<Geometry> points_;
  std::vector<uint64_t> bounds_;        // distinct sizes in lines, increasing
  std::vector<uint32_t> point_bucket_;  // per point: its size's index in bounds_
  std::vector<int32_t> point_group_;    // per point: its group, -1 = fully associative
  FaStack fa_;
  std::vector<Group> groups_;
  uint32_t buckets_;                    // bounds_.size() + 1
  std::array<std::vector<uint64_t>, 2> fa_hist_;  // [kind][fa bucket], first references apart
  std::array<uint64_t, 2> compulsory_{}, repeats_{};
  std::unique_ptr<SeenLines> seen_;
  uint64_t last_ = ~0ull;
};

}  // namespace ptosim::curves
