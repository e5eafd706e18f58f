#include "models/cache/miss_classifier.h"

namespace ptosim {

MissClassifier::MissClassifier(uint64_t lines) : capacity_(lines) { nodes_.reserve(lines); }

void MissClassifier::unlink(int32_t n) {
  Node& x = nodes_[n];
  if (x.prev >= 0) nodes_[x.prev].next = x.next; else head_ = x.next;
  if (x.next >= 0) nodes_[x.next].prev = x.prev; else tail_ = x.prev;
}

void MissClassifier::push_front(int32_t n) {
  Node& x = nodes_[n];
  x.prev = -1;
  x.next = head_;
  if (head_ >= 0) nodes_[head_].prev = n;
  head_ = n;
  if (tail_ < 0) tail_ = n;
}

MissClass MissClassifier::observe(uint64_t line, bool level_hit, bool allocate_on_miss) {
  bool first_touch = false;
  int32_t& slot = where_.at(line, kAbsent, &first_touch);
  if (slot >= 0) {  // shadow hit: most recently used now
    if (slot != head_) {
      unlink(slot);
      push_front(slot);
    }
    return MissClass::Conflict;  // only meaningful if the level missed
  }
  MissClass cls = first_touch ? MissClass::Compulsory : MissClass::Capacity;
  // The level may hit where the shadow misses (after a back-invalidation or
  // thanks to set mapping); the shadow still allocates as the level did.
  if (!(allocate_on_miss || level_hit)) return cls;
  int32_t n;
  if (nodes_.size() < capacity_) {
    n = int32_t(nodes_.size());
    nodes_.push_back({line, -1, -1});
  } else {
    n = tail_;
    unlink(n);
    *where_.get(nodes_[n].line) = kAbsent;
    nodes_[n].line = line;
  }
  // `slot` may dangle if the map grew while inserting; look it up again.
  *where_.get(line) = n;
  push_front(n);
  return cls;
}

}  // namespace ptosim
