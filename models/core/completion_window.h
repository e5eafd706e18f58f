#pragma once
// The completion times of the misses in flight, at most `capacity` of them,
// kept sorted in a ring. Misses mostly complete in issue order, so an insert
// is O(1) in the common case.
#include <cstdint>
#include <vector>

namespace ptosim {

class CompletionWindow {
 public:
  explicit CompletionWindow(uint32_t capacity) : ring_(capacity ? capacity : 1), cap_(uint32_t(ring_.size())) {}
  uint32_t capacity() const { return cap_; }
  uint32_t size() const { return count_; }
  bool full() const { return count_ == cap_; }
  uint64_t earliest() const { return ring_[head_]; }
  // Forgets misses that completed by time t.
  void retire(uint64_t t) {
    while (count_ && ring_[head_] <= t) pop();
  }
  void pop() {
    head_ = next(head_);
    --count_;
  }
  void push(uint64_t done) {
    if (full()) pop();  // a hit that waited on a fill in flight: it holds no slot of its own
    uint32_t i = idx(count_);
    ++count_;
    // Shift later completions up one place (insertion sort from the back).
    for (uint32_t k = count_ - 1; k > 0; --k) {
      const uint32_t prev = idx(k - 1);
      if (ring_[prev] <= done) break;
      ring_[i] = ring_[prev];
      i = prev;
    }
    ring_[i] = done;
  }

 private:
  uint32_t next(uint32_t i) const { return i + 1 == cap_ ? 0 : i + 1; }
  uint32_t idx(uint32_t k) const {
    const uint32_t i = head_ + k;
    return i >= cap_ ? i - cap_ : i;
  }
  std::vector<uint64_t> ring_;
  uint32_t cap_;  // ring_.size(), kept so that the hot path need not derive it
  uint32_t head_ = 0, count_ = 0;
};

}  // namespace ptosim
