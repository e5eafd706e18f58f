#pragma once
// 3C classification of a level's misses (Hill's definitions, as Dinero IV):
// compulsory = first reference to the line at this level; capacity = would
// also miss in a fully associative cache of the same number of lines (LRU;
// for a FIFO level FIFO, as Dinero IV's shadow follows the level's policy);
// conflict = the rest. The shadow sees every request the level sees and
// allocates exactly when the level would, so the three always sum to misses.
//
// Memory is bounded by the level's size, whatever the trace: the shadow's
// map holds only the lines the shadow holds (ResidentMap), and "seen before"
// is one bit per line (SeenLines).
//
// Speed: each slot of the real cache remembers the shadow node of the line it
// holds, so a hit (the common case) moves that node to the front of the LRU
// list without touching the map. Nodes leave the list only when an
// invalidate record drops their line (they are reused first); otherwise the
// shadow reuses its tail for a new line. So a slot's node is current exactly
// when it still names the slot's line.
#include <cstdint>
#include <vector>

#include "models/cache/resident_map.h"
#include "models/cache/seen_lines.h"

namespace ptosim {

enum class MissClass : uint8_t { Compulsory, Capacity, Conflict };

class MissClassifier {
 public:
  // `fifo`: the shadow keeps fill order (hits do not reorder it), as Dinero
  // IV's shadow of a FIFO level does (it uses the level's own policy);
  // otherwise LRU.
  MissClassifier(uint64_t lines, uint64_t slots, bool fifo = false);
  MissClassifier(const MissClassifier&) = delete;  // nodes point into themselves
  MissClassifier& operator=(const MissClassifier&) = delete;

  // A hit of the real cache on `line`, held in `slot`; `allocates()`:
  // whether the level would allocate the line on a miss of this request
  // (false for a write that does not allocate), asked only when it matters.
  template <class Allocates>
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void
  hit(uint64_t line, uint64_t slot, Allocates&& allocates) {
    Node* n = slot_node_[slot];
    if (n && n->line == line) return touch(n);
    // The real cache kept a line that the shadow has evicted (set mapping
    // can beat full associativity): the shadow takes it back, as it would
    // on its own miss, so not for a write that does not allocate (Dinero IV's
    // shadow updates on "not a write, or a hit, or write-allocate").
    if (allocates()) slot_node_[slot] = take_back(line);
  }
  // Dinero IV's invalidate record: the line leaves the shadow (its first
  // reference stays recorded, as in Dinero IV, whose d4_invinfcache clears
  // no bit for a block without sub-blocks); invalidate_all() empties the
  // shadow and forgets every first reference, as d4_invinfcache does for a
  // whole-cache invalidate.
  void invalidate(uint64_t line);
  void invalidate_all();
  // A miss of the real cache; returns its class. With `allocate` the line will
  // be installed in `slot` (and the shadow allocates it too).
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  MissClass
  miss(uint64_t line, bool allocate, uint64_t slot) {
    if (const uint32_t* node = shadow_.find(line)) {  // still in the shadow: a conflict miss
      Node* n = &nodes_[*node];
      touch(n);
      if (allocate) slot_node_[slot] = n;
      return MissClass::Conflict;
    }
    const bool first = seen_.insert(line);
    if (allocate) slot_node_[slot] = enter(line);
    return first ? MissClass::Compulsory : MissClass::Capacity;
  }

 private:
  struct Node {
    Node *prev, *next;
    uint64_t line;
  };
  // Brings `line`, absent from the shadow, in as the most recent (taking the
  // least recent's node when full).
  Node* enter(uint64_t line);
  // A hit on a line the shadow does not hold as the slot's node: finds or
  // enters it, makes it the most recent.
  Node* take_back(uint64_t line);
  // A hit in the shadow.
  void touch(Node* n) {
    if (!fifo_) to_front(n);
  }
  void to_front(Node* n) {
    if (head_.next == n) return;
    n->prev->next = n->next;
    n->next->prev = n->prev;
    link_front(n);
  }
  void link_front(Node* n) {
    n->prev = &head_;
    n->next = head_.next;
    head_.next->prev = n;
    head_.next = n;
  }

  ResidentMap shadow_;            // line -> node index, for the lines in the shadow
  SeenLines seen_;                // every line referenced at this level
  std::vector<Node> nodes_;       // reserved up front: nodes do not move
  std::vector<Node*> slot_node_;  // real-cache slot -> shadow node last bound to it
  std::vector<Node*> free_;       // nodes of invalidated lines, out of the list, reused first
  uint64_t capacity_;
  bool fifo_;
  Node head_;  // sentinel of the circular LRU list: next = most recent, prev = least
};

}  // namespace ptosim
