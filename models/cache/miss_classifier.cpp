#include "models/cache/miss_classifier.h"

#include <algorithm>
#include <stdexcept>

namespace ptosim {

MissClassifier::MissClassifier(uint64_t lines, bool fifo)
    : capacity_(std::max<uint64_t>(lines, 1)), head_(uint32_t(capacity_)), nodes_(new Node[capacity_ + 1]()),
      fifo_(fifo) {
  // Stamps stay below the log's length (compact() renumbers them): 32 bits
  // hold them for any level the config accepts (at most 2^24 lines).
  if (capacity_ >= (1ull << 30)) throw std::invalid_argument("3C shadow: more than 2^30 lines");
  log_.resize(2 * capacity_ + 16);
  uint64_t n = 2;
  bucket_shift_ = 63;
  while (n < 2 * capacity_) n <<= 1, --bucket_shift_;
  buckets_.assign(n, head_);
  nodes_[head_] = Node{~0ull, 0, head_};
}

uint32_t MissClassifier::enter(uint64_t line, uint64_t b) {
  uint32_t n;
  if (!free_.empty()) {
    n = free_.back();
    free_.pop_back();
  } else if (used_ < capacity_) {
    n = used_++;
  } else {
    n = pop_oldest();  // the least recent leaves the shadow
    unchain(n);
  }
  nodes_[n].line = line;
  nodes_[n].chain = buckets_[b];
  buckets_[b] = n;
  stamp(n);
  return n;
}

void MissClassifier::compact() {
  size_t k = 0;
  uint32_t next = 0;
  for (size_t i = log_begin_; i < log_end_; ++i) {
    const Record r = log_[i];
    if (nodes_[r.node].stamp != r.stamp) continue;
    nodes_[r.node].stamp = ++next;
    log_[k++] = Record{next, r.node};
  }
  log_begin_ = 0;
  log_end_ = k;
  clock_ = next;
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
  nodes_[n].line = ~0ull;  // no slot's node any more
  nodes_[n].stamp = 0;     // its record in the log is stale
  free_.push_back(n);
}

void MissClassifier::invalidate_all() {
  std::fill(buckets_.begin(), buckets_.end(), head_);
  log_begin_ = log_end_ = 0;
  clock_ = 0;
  free_.clear();
  for (uint32_t n = 0; n < used_; ++n) {
    nodes_[n].line = ~0ull;
    nodes_[n].stamp = 0;
    free_.push_back(n);
  }
  seen_.clear();
}

}  // namespace ptosim
