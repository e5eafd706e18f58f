#pragma once
// 3C classification of a level's misses (Hill's definitions, as Dinero IV):
// compulsory = first reference to the line at this level; capacity = would
// also miss in a fully associative LRU cache of the same number of lines;
// conflict = the rest. The shadow sees every request the level sees and
// allocates exactly when the level would, so the three always sum to misses.
//
// Memory is bounded by the level's size, whatever the trace: the shadow's
// map holds only the lines the shadow holds (ResidentMap), and "seen before"
// is one bit per line (SeenLines).
//
// Speed: each slot of the real cache remembers the shadow node of the line it
// holds, so a hit (the common case) moves that node to the front of the LRU
// list without touching the map. Nodes never leave the list (the shadow
// reuses its tail for a new line), so a slot's node is current exactly when
// it still names the slot's line.
#include <cstdint>
#include <vector>

#include "models/cache/resident_map.h"
#include "models/cache/seen_lines.h"

namespace ptosim {

enum class MissClass : uint8_t { Compulsory, Capacity, Conflict };

class MissClassifier {
 public:
  MissClassifier(uint64_t lines, uint64_t slots);
  MissClassifier(const MissClassifier&) = delete;  // nodes point into themselves
  MissClassifier& operator=(const MissClassifier&) = delete;

  // A hit of the real cache on `line`, held in `slot`.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void
  hit(uint64_t line, uint64_t slot) {
    Node* n = slot_node_[slot];
    if (n && n->line == line) return to_front(n);
    // The real cache kept a line that the shadow has evicted (set mapping
    // can beat full associativity): the shadow takes it back.
    slot_node_[slot] = take_back(line);
  }
  // A miss of the real cache; returns its class. With `allocate` the line will
  // be installed in `slot` (and the shadow allocates it too).
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  MissClass
  miss(uint64_t line, bool allocate, uint64_t slot) {
    if (const uint32_t* node = shadow_.find(line)) {  // still in the shadow: a conflict miss
      Node* n = &nodes_[*node];
      to_front(n);
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
  uint64_t capacity_;
  Node head_;  // sentinel of the circular LRU list: next = most recent, prev = least
};

}  // namespace ptosim
