#pragma once
// 3C classification for a level with sub-blocks, as Dinero IV does it (d4ref's
// fully associative "extra set" and d4infcache): the shadow holds lines with
// a valid bit per sub-block, "seen before" is one bit per sub-block, and a
// miss is classified twice, as a sub-block miss (the request missed a
// sub-block it touches) and, when the line was absent, as a block miss.
//
// Kept apart from MissClassifier, whose binding of real-cache slots to
// shadow nodes makes the whole-line case cheap: this one looks the line up
// on every request (one ResidentMap probe), which only levels with sub-blocks
// pay. Memory is bounded as there: the map holds the shadow's lines only.
#include <cstdint>
#include <vector>

#include "models/cache/miss_classifier.h"
#include "models/cache/resident_map.h"
#include "models/cache/seen_lines.h"

namespace ptosim {

struct SubBlockClasses {
  MissClass miss;   // of the sub-block miss
  MissClass block;  // of the block miss (meaningful only when the line was absent)
};

class SubBlockClassifier {
 public:
  // `lines`: the level's lines; `per_line_log2`: log2 of its sub-blocks per
  // line; `fifo`: the shadow keeps fill order (a FIFO level), else LRU.
  SubBlockClassifier(uint64_t lines, uint32_t per_line_log2, bool fifo);

  // A request touching sub-blocks `sb` (mask) of `line`, which the real
  // level saw as `miss` / `block_miss`. `allocates`: whether a miss of it
  // would allocate (false for a write that does not): as Dinero IV, the
  // shadow then takes an absent line only if this is true. Every request
  // goes through here, hits included (they move the shadow's LRU order).
  SubBlockClasses classify(uint64_t line, uint32_t sb, bool allocates, bool miss, bool block_miss);

  // Dinero IV's invalidate record of one line: the line leaves the shadow,
  // and d4_invinfcache forgets the first log2(sub-blocks per line) of its
  // sub-blocks (sic: it counts down from lg2blocksize - lg2subblocksize, so
  // that is what Dinero IV's later compulsory counts follow).
  void invalidate(uint64_t line);
  // A whole-cache invalidate: the shadow empties, every first reference is forgotten.
  void invalidate_all();

 private:
  struct Node {
    uint32_t prev, next;  // in the list from node 0 (the sentinel): next = most recent
    uint32_t valid;       // sub-blocks held
    uint64_t line;
  };
  // Dinero IV's d4infcache: 0 if every touched sub-block was seen before, 1
  // if no sub-block of the line was, -1 otherwise; marks the touched ones.
  int infinite_cache(uint64_t line, uint32_t sb);
  uint32_t enter(uint64_t line);  // a new most recent node for `line` (taking the least recent when full)
  void unlink(uint32_t n) {
    nodes_[nodes_[n].prev].next = nodes_[n].next;
    nodes_[nodes_[n].next].prev = nodes_[n].prev;
  }
  void link_front(uint32_t n) {
    nodes_[n].prev = 0;
    nodes_[n].next = nodes_[0].next;
    nodes_[nodes_[0].next].prev = n;
    nodes_[0].next = n;
  }

  ResidentMap where_;           // line -> node, for the shadow's lines
  SeenLines seen_;              // sub-blocks ever referenced (by sub-block number)
  std::vector<Node> nodes_;     // [0] is the sentinel
  std::vector<uint32_t> free_;  // nodes of invalidated lines, reused first
  uint64_t capacity_;
  uint32_t shift_;  // log2 of the sub-blocks per line
  uint32_t all_;    // the mask of a whole line
  bool fifo_;
};

}  // namespace ptosim
