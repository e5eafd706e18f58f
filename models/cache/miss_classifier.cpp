#include "models/cache/miss_classifier.h"

namespace ptosim {

MissClassifier::MissClassifier(uint64_t lines, uint64_t slots)
    : slot_node_(slots, nullptr), capacity_(lines ? lines : 1) {
  nodes_.reserve(capacity_);
  head_.prev = head_.next = &head_;
  head_.line = ~0ull;
  head_.where = 0;
}

MissClassifier::Node* MissClassifier::enter(uint64_t line, size_t w) {
  Node* n;
  if (nodes_.size() < capacity_) {
    nodes_.push_back(Node{nullptr, nullptr, line, w});
    n = &nodes_.back();
  } else {
    n = head_.prev;  // the least recent leaves the shadow
    where_.value(n->where) = kAbsent;
    n->prev->next = &head_;
    head_.prev = n->prev;
    n->line = line;
    n->where = w;
  }
  where_.value(w) = int32_t(n - nodes_.data());
  link_front(n);
  return n;
}

MissClassifier::Node* MissClassifier::take_back(uint64_t line) {
  bool first = false;
  const size_t w = where_.at(line, kAbsent, &first, Rebind{this});
  const int32_t node = where_.value(w);
  if (node < 0) return enter(line, w);
  Node* n = &nodes_[size_t(node)];
  to_front(n);
  return n;
}

}  // namespace ptosim
