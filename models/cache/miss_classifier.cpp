#include "models/cache/miss_classifier.h"

namespace ptosim {

MissClassifier::MissClassifier(uint64_t lines, uint64_t slots)
    : shadow_(lines ? lines : 1), slot_node_(slots, nullptr), capacity_(lines ? lines : 1) {
  nodes_.reserve(capacity_);
  head_.prev = head_.next = &head_;
  head_.line = ~0ull;
}

MissClassifier::Node* MissClassifier::enter(uint64_t line) {
  Node* n;
  if (nodes_.size() < capacity_) {
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
    to_front(n);
    return n;
  }
  return enter(line);
}

}  // namespace ptosim
