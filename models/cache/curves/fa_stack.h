#pragma once
// Mattson's LRU stack for `pto-sim curves`, cut at the cache sizes asked
// for: one pass tells, for every reference, the smallest of those fully
// associative LRU caches that would hit it. Only the bucket of a stack
// distance is needed (the 3C split and the fully associative curve compare
// it with sizes in lines), so the stack keeps a marker at each size
// boundary and a reference costs O(1) plus one step per boundary its line
// crosses, instead of a search or a Fenwick query per reference; lines
// beyond the largest size are dropped, so memory is bounded by it.
#include <cstdint>
#include <vector>

namespace ptosim::curves {

class FaStack {
 public:
  // `bounds`: the cache sizes in lines, strictly increasing, at least 1.
  explicit FaStack(std::vector<uint64_t> bounds);

  // References `line`; returns the smallest i with stack distance <=
  // bounds[i], or bounds.size() when it exceeds them all or the line is
  // not in the stack (first reference, or dropped). The line becomes the
  // most recent.
  uint32_t touch(uint64_t line);
  void clear();
  uint32_t beyond() const { return uint32_t(bounds_.size()); }

 private:
  struct Node {
    uint32_t prev, next, chain;  // list (0 = the sentinel), hash chain (0 = none)
    uint32_t bucket;             // the boundary segment the line is in
    uint64_t line;
  };
  uint32_t find(uint64_t line) const;
  uint64_t hash(uint64_t line) const { return (line * 0x9E3779B97F4A7C15ull) >> shift_; }
  void unchain(uint32_t n);
  void unlink(uint32_t n);
  void link_front(uint32_t n);
  uint32_t new_node(uint64_t line);
  void drop(uint32_t n);
  // Moves the boundaries below segment `b` one place down the stack (a
  // line at a bound crosses into the next segment, or out of the stack).
  void shift_bounds(uint32_t b);

  std::vector<uint64_t> bounds_;
  std::vector<uint32_t> tail_;  // per bound: the node at that depth (valid while size_ >= bound)
  std::vector<Node> nodes_;     // [0] is the list's sentinel
  std::vector<uint32_t> free_;
  std::vector<uint32_t> heads_;  // hash buckets
  unsigned shift_ = 0;
  uint64_t size_ = 0;
};

}  // namespace ptosim::curves
