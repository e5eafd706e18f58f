#include "models/cache/miss_classifier.h"

#include <algorithm>

namespace ptosim {

MissClassifier::MissClassifier(uint64_t lines, bool fifo)
    : capacity_(std::max<uint64_t>(lines, 1)), nodes_(new Node[capacity_ + 1]),
      fifo_(fifo) {
  uint64_t n = 2;
  bucket_shift_ = 63;
  while (n < 2 * capacity_) n <<= 1, --bucket_shift_;
  buckets_ = ZeroedArray<uint32_t>(n, head_);
  nodes_[head_] = Node{head_, head_, head_, ~0ull};
}

uint32_t MissClassifier::enter(uint64_t line, uint64_t b) {
  uint32_t n;
  if (!free_.empty()) {
    n = free_.back();
    free_.pop_back();
  } else if (used_ < capacity_) {
    n = ++used_;
  } else {
    n = nodes_[head_].prev;  // the least recent leaves the shadow
    unchain(n);
    nodes_[nodes_[n].prev].next = head_;
    nodes_[head_].prev = nodes_[n].prev;
  }
  nodes_[n].line = line;
  nodes_[n].chain = buckets_[b];
  buckets_[b] = n;
  link_front(n);
  return n;
}

uint32_t MissClassifier::take_back(uint64_t line) {
  const uint64_t b = bucket(line);
  const uint32_t n = find(line, b);
  if (n == head_) return enter(line, b);
  touch(n);
  return n;
}

void MissClassifier::invalidate(uint64_t line) {
  if (mirror_) return;  // the real cache drops it too
  const uint32_t n = find(line, bucket(line));
  if (n == head_) return;
  unchain(n);
  nodes_[nodes_[n].prev].next = nodes_[n].next;
  nodes_[nodes_[n].next].prev = nodes_[n].prev;
  nodes_[n].line = ~0ull;  // no slot's node any more
  free_.push_back(n);
}

void MissClassifier::invalidate_all() {
  std::fill(buckets_.begin(), buckets_.end(), head_);
  nodes_[head_].prev = nodes_[head_].next = head_;
  free_.clear();
  for (uint32_t n = 1; n <= used_; ++n) {
    nodes_[n].line = ~0ull;
    free_.push_back(n);
  }
  seen_.clear();
}

}  // namespace ptosim
