#include "models/cache/miss_classifier.h"

namespace ptosim {

MissClassifier::MissClassifier(uint64_t lines, uint64_t slots, bool fifo)
    : slot_node_(slots, nullptr), capacity_(lines ? lines : 1), fifo_(fifo) {
  nodes_.reserve(capacity_);
  head_.prev = head_.next = &head_;
  head_.line = ~0ull;
  head_.where = 0;
}

MissClassifier::Node* MissClassifier::enter(uint64_t line, size_t w) {
  Node* n;
  if (!free_.empty()) {
    n = free_.back();
    free_.pop_back();
    n->line = line;
    n->where = w;
  } else if (nodes_.size() < capacity_) {
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
  touch(n);
  return n;
}

void MissClassifier::invalidate(uint64_t line) {
  int32_t* v = where_.lookup(line);
  if (!v || *v < 0) return;
  Node* n = &nodes_[size_t(*v)];
  *v = kAbsent;
  n->prev->next = n->next;
  n->next->prev = n->prev;
  n->line = ~0ull;  // no slot's node any more
  free_.push_back(n);
}

void MissClassifier::invalidate_all() {
  where_.clear();
  head_.prev = head_.next = &head_;
  free_.clear();
  for (Node& n : nodes_) {
    n.line = ~0ull;
    free_.push_back(&n);
  }
}

}  // namespace ptosim
