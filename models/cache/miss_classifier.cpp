#include "models/cache/miss_classifier.h"

namespace ptosim {

MissClassifier::MissClassifier(uint64_t lines, uint64_t slots, bool fifo)
    : shadow_(lines ? lines : 1), slot_node_(slots, nullptr), capacity_(lines ? lines : 1), fifo_(fifo) {
  nodes_.reserve(capacity_);
  head_.prev = head_.next = &head_;
  head_.line = ~0ull;
}

MissClassifier::Node* MissClassifier::enter(uint64_t line) {
  Node* n;
  if (!free_.empty()) {
    n = free_.back();
    free_.pop_back();
    n->line = line;
  } else if (nodes_.size() < capacity_) {
    nodes_.push_back(Node{nullptr, nullptr, line});
    n = &nodes_.back();
  } else {
    n = head_.prev;  // the least recent leaves the shadow
    shadow_.erase(n->line);
    n->prev->next = &head_;
    head_.prev = n->prev;
    n->line = line;
  }
  shadow_.insert(line, uint32_t(n - nodes_.data()));
  link_front(n);
  return n;
}

MissClassifier::Node* MissClassifier::take_back(uint64_t line) {
  if (const uint32_t* node = shadow_.find(line)) {
    Node* n = &nodes_[*node];
    touch(n);
    return n;
  }
  return enter(line);
}

void MissClassifier::invalidate(uint64_t line) {
  const uint32_t* node = shadow_.find(line);
  if (!node) return;
  Node* n = &nodes_[*node];
  shadow_.erase(line);
  n->prev->next = n->next;
  n->next->prev = n->prev;
  n->line = ~0ull;  // no slot's node any more
  free_.push_back(n);
}

void MissClassifier::invalidate_all() {
  for (Node& n : nodes_)
    if (n.line != ~0ull) shadow_.erase(n.line);
  head_.prev = head_.next = &head_;
  free_.clear();
  for (Node& n : nodes_) {
    n.line = ~0ull;
    free_.push_back(&n);
  }
  seen_.clear();
}

}  // namespace ptosim
