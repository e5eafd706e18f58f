#pragma once
// "The oldest way of a set" for the order LRU keeps by touching every use
// and FIFO by touching only fills: per set a circular doubly linked list of
// its ways, most recent first, so both a touch and the oldest way cost the
// same at 8 ways and at 16384 (a scan of per-way time stamps made a fully
// associative level's every miss cost its associativity).
// Ways start in index order; the oldest is asked for only when every way of
// the set holds a line, so every way has been touched and the initial order
// never decides.
#include <cstdint>
#include <vector>

namespace ptosim::replacement {

class Stamps {
 public:
  Stamps(uint64_t sets, uint32_t ways) : ways_(ways), link_(sets * ways), head_(sets, 0) {
    for (uint64_t s = 0; s < sets; ++s)
      for (uint32_t w = 0; w < ways; ++w) link_[s * ways + w] = Link{w ? w - 1 : ways - 1, w + 1 < ways ? w + 1 : 0};
  }
  void stamp(uint64_t set, uint32_t way) {
    uint32_t& head = head_[set];
    if (head == way) return;
    Link* l = &link_[set * ways_];
    // Unlink `way`, then put it before the head (the list is circular: the
    // head's prev is the oldest).
    l[l[way].prev].next = l[way].next;
    l[l[way].next].prev = l[way].prev;
    const uint32_t oldest = l[head].prev;
    // Two 4-byte stores: GCC packed Link{oldest, head} in a vector register
    // first (two more dependent steps on every touch of a wide set).
    l[way].prev = oldest;
    l[way].next = head;
    l[oldest].next = way;
    l[head].prev = way;
    head = way;
  }
  // Calls f(way) for every way of the set, the oldest first (the list's
  // prev links run from the oldest towards the most recent).
  template <class F>
  void oldest_first(uint64_t set, F&& f) const {
    const Link* l = &link_[set * ways_];
    uint32_t w = l[head_[set]].prev;
    for (uint32_t i = 0; i < ways_; ++i, w = l[w].prev) f(w);
  }
  uint32_t oldest(uint64_t set) const { return link_[set * ways_ + head_[set]].prev; }

 private:
  struct Link {
    uint32_t prev, next;
  };
  uint32_t ways_;
  std::vector<Link> link_;
  std::vector<uint32_t> head_;  // per set: the most recent way
};

}  // namespace ptosim::replacement
