#pragma once
// "The oldest way of a set" for the order LRU keeps by touching every use
// and FIFO by touching only fills: per set a circular doubly linked list of
// its ways, most recent first, so both a touch and the oldest way cost the
// same at 8 ways and at 16384 (a scan of per-way time stamps made a fully
// associative level's every miss cost its associativity).
// A way joins its set's list when it is first touched; the oldest is asked
// for only when every way of the set holds a line, so every way has been
// touched by then (a 1-way set's array never asks: it lists its one way
// itself). The links start as zero bytes (ZeroedArray: untouched pages), so
// a 2^24-way level costs the memory of the ways it fills, not 128 MiB of
// links written before the first access. (The list used to start with
// every way in index order; the ways never touched came after the touched
// ones in it, and nothing read them: the oldest is asked for only when
// every way was touched, and the order is listed only for valid lines.)
#include <cstdint>

#include "models/cache/zeroed_array.h"

namespace ptosim::replacement {

class Stamps {
 public:
  Stamps(uint64_t sets, uint32_t ways) : ways_(ways), link_(sets * ways), head_(sets) {}
  void stamp(uint64_t set, uint32_t way) {
    uint32_t& head = head_[set];  // way + 1, 0 = no way touched yet
    const uint32_t me = way + 1;
    if (head == me) return;
    Link* l = &link_[set * ways_];  // prev and next as way + 1; 0 = not in the list
    Link& w = l[way];
    if (w.next) {  // unlink
      l[w.prev - 1].next = w.next;
      l[w.next - 1].prev = w.prev;
    }
    if (!head) {
      w.prev = w.next = me;
    } else {
      // Before the head (the list is circular: the head's prev is the
      // oldest). Four 4-byte stores: GCC packed a Link in a vector register
      // first (two more dependent steps on every touch of a wide set).
      const uint32_t oldest = l[head - 1].prev;
      w.prev = oldest;
      w.next = head;
      l[oldest - 1].next = me;
      l[head - 1].prev = me;
    }
    head = me;
  }
  // Calls f(way) for every way of the set that was ever touched, the oldest
  // first (the list's prev links run from the oldest towards the most recent).
  template <class F>
  void oldest_first(uint64_t set, F&& f) const {
    const uint32_t head = head_[set];
    if (!head) return;
    const Link* l = &link_[set * ways_];
    uint32_t w = l[head - 1].prev;
    for (;;) {
      f(w - 1);
      if (w == head) return;
      w = l[w - 1].prev;
    }
  }
  uint32_t oldest(uint64_t set) const { return link_[set * ways_ + head_[set] - 1].prev - 1; }

 private:
  struct Link {
    uint32_t prev, next;
  };
  uint32_t ways_;
  ZeroedArray<Link> link_;
  ZeroedArray<uint32_t> head_;  // per set: the most recent way + 1
};

}  // namespace ptosim::replacement
