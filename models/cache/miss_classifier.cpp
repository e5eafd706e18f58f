#include "models/cache/miss_classifier.h"

namespace ptosim {

MissClassifier::MissClassifier(uint64_t lines, uint64_t slots) : slot_node_(slots, -1), capacity_(lines) {
  nodes_.reserve(lines);
}

// Links slot <-> node, undoing any link either side had (a node may still be
// linked to a slot its line was back-invalidated from).
void MissClassifier::bind(int32_t n, uint64_t slot) {
  const int32_t old = slot_node_[slot];
  if (old >= 0 && old != n && nodes_[old].slot == int64_t(slot)) nodes_[old].slot = -1;
  const int64_t prev = nodes_[n].slot;
  if (prev >= 0 && prev != int64_t(slot) && slot_node_[prev] == n) slot_node_[prev] = -1;
  slot_node_[slot] = n;
  nodes_[n].slot = int64_t(slot);
}

int32_t MissClassifier::touch(uint64_t line, bool allocate, bool* was_present, bool* first) {
  int32_t& where = where_.at(line, kAbsent, first);
  int32_t n = where;
  *was_present = n >= 0;
  if (n >= 0) {
    if (n != head_) {
      unlink(n);
      push_front(n);
    }
    return n;
  }
  if (!allocate) return -1;
  if (nodes_.size() < capacity_) {
    n = int32_t(nodes_.size());
    nodes_.push_back({line, -1, -1, -1});
    where = n;
  } else {
    n = tail_;
    unlink(n);
    Node& old = nodes_[n];
    *where_.get(old.line) = kAbsent;  // no insertion: `where` stays valid
    if (old.slot >= 0 && slot_node_[old.slot] == n) slot_node_[old.slot] = -1;
    old.line = line;
    old.slot = -1;
    where = n;
  }
  push_front(n);
  return n;
}

// The real cache kept a line that the shadow has evicted (set mapping can
// beat full associativity); the shadow takes it back.
void MissClassifier::rebind(uint64_t line, uint64_t slot) {
  bool present = false, first = false;
  bind(touch(line, true, &present, &first), slot);
}

MissClass MissClassifier::miss(uint64_t line, bool allocate, uint64_t slot) {
  bool present = false, first = false;
  const int32_t n = touch(line, allocate, &present, &first);
  if (allocate) bind(n, slot);
  if (first) return MissClass::Compulsory;
  return present ? MissClass::Conflict : MissClass::Capacity;
}

}  // namespace ptosim
