#pragma once
// The completion times of the misses in flight, at most `capacity` of them,
// kept sorted in a ring. Misses mostly complete in issue order, so an insert
// is O(1) in the common case. The ring is a power of two long (indices wrap
// with a mask, no compare per step); `capacity` is enforced by the count.
#include <cstdint>
#include <vector>

namespace ptosim {

// What waiting for a full window cost.
struct WindowStalls {
  uint64_t count = 0;
  uint64_t fs = 0;
};

class CompletionWindow {
 public:
  explicit CompletionWindow(uint32_t capacity) : cap_(capacity ? capacity : 1) {
    uint32_t n = 1;
    while (n < cap_) n <<= 1;
    ring_.assign(n, 0);
    mask_ = n - 1;
  }
  uint32_t size() const { return count_; }
  bool full() const { return count_ == cap_; }
  uint64_t earliest() const { return ring_[head_]; }
  // Forgets misses that completed by time t.
  void retire(uint64_t t) {
    while (count_ && ring_[head_] <= t) pop();
  }
  void pop() {
    head_ = (head_ + 1) & mask_;
    --count_;
  }
  void push(uint64_t done) {
    if (full()) pop();  // a hit that waited on a fill in flight: it holds no slot of its own
    uint32_t i = (head_ + count_) & mask_;
    ++count_;
    // Shift later completions up one place (insertion sort from the back).
    for (uint32_t k = count_ - 1; k > 0; --k) {
      const uint32_t prev = (i - 1) & mask_;
      if (ring_[prev] <= done) break;
      ring_[i] = ring_[prev];
      i = prev;
    }
    ring_[i] = done;
  }

 private:
  std::vector<uint64_t> ring_;
  uint32_t cap_, mask_;
  uint32_t head_ = 0, count_ = 0;
};

}  // namespace ptosim
