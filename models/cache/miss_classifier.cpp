#include "models/cache/miss_classifier.h"

namespace ptosim {

MissClassifier::MissClassifier(uint64_t lines, uint64_t slots)
    : slot_node_(slots, nullptr), capacity_(lines ? lines : 1) {
  nodes_.reserve(capacity_);
  head_.prev = head_.next = &head_;
  head_.line = ~0ull;
}

MissClassifier::Node* MissClassifier::touch(uint64_t line, bool allocate, bool* was_present, bool* first) {
  bool inserted = false;
  int32_t& where = where_.at(line, kAbsent, &inserted);
  if (first) *first = inserted;
  if (where >= 0) {
    if (was_present) *was_present = true;
    Node* n = &nodes_[size_t(where)];
    to_front(n);
    return n;
  }
  if (was_present) *was_present = false;
  if (!allocate) return nullptr;
  Node* n;
  if (nodes_.size() < capacity_) {
    nodes_.push_back(Node{nullptr, nullptr, line});
    n = &nodes_.back();
  } else {
    n = head_.prev;  // the least recent leaves the shadow
    *where_.get(n->line) = kAbsent;  // no insertion: `where` stays valid
    n->prev->next = &head_;
    head_.prev = n->prev;
    n->line = line;
  }
  where = int32_t(n - nodes_.data());
  link_front(n);
  return n;
}

}  // namespace ptosim
