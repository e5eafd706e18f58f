#pragma once
// 3C classification of a level's misses (Hill's definitions, as Dinero IV):
// compulsory = first reference to the line at this level; capacity = would
// also miss in a fully associative LRU cache of the same number of lines;
// conflict = the rest. The shadow sees every request the level sees and
// allocates exactly when the level would, so the three always sum to misses.
//
// Speed: a hit in the real cache names its slot, and each slot remembers the
// shadow node of the line it holds, so the common case (a hit) moves a node
// to the front of the LRU list without touching the hash map.
#include <cstdint>
#include <vector>

#include "models/cache/line_map.h"

namespace ptosim {

enum class MissClass : uint8_t { Compulsory, Capacity, Conflict };

class MissClassifier {
 public:
  MissClassifier(uint64_t lines, uint64_t slots);

  // A hit of the real cache on `line`, held in `slot`.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void hit(uint64_t line, uint64_t slot) {
    const int32_t n = slot_node_[slot];
    if (n < 0) return rebind(line, slot);
    // The line is in the shadow too: just make it most recent.
    if (n != head_) {
      unlink(n);
      push_front(n);
    }
  }
  // A miss of the real cache; returns its class. With `allocate` the line will
  // be installed in `slot` (and the shadow allocates it too).
  MissClass miss(uint64_t line, bool allocate, uint64_t slot);

 private:
  static constexpr int32_t kAbsent = -1;  // seen before, not in the shadow
  struct Node {
    uint64_t line;
    int32_t prev, next;
    int64_t slot;  // real-cache slot holding this line, or -1
  };
  // Moves `line` to the front of the shadow; returns whether it was there
  // and whether this is its first reference.
  int32_t touch(uint64_t line, bool allocate, bool* was_present, bool* first);
  void rebind(uint64_t line, uint64_t slot);
  void unlink(int32_t n) {
    Node& x = nodes_[n];
    if (x.prev >= 0) nodes_[x.prev].next = x.next; else head_ = x.next;
    if (x.next >= 0) nodes_[x.next].prev = x.prev; else tail_ = x.prev;
  }
  void push_front(int32_t n) {
    Node& x = nodes_[n];
    x.prev = -1;
    x.next = head_;
    if (head_ >= 0) nodes_[head_].prev = n;
    head_ = n;
    if (tail_ < 0) tail_ = n;
  }
  void bind(int32_t n, uint64_t slot);

  LineMap where_;  // line -> node index, or kAbsent once evicted from the shadow
  std::vector<Node> nodes_;
  std::vector<int32_t> slot_node_;  // real-cache slot -> shadow node of its line, or -1
  uint64_t capacity_;
  int32_t head_ = -1, tail_ = -1;
};

}  // namespace ptosim
