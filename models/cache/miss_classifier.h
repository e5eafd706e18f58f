#pragma once
// 3C classification of a level's misses (Hill's definitions, as Dinero IV):
// compulsory = first reference to the line at this level; capacity = would
// also miss in a fully associative cache of the same number of lines (LRU;
// for a FIFO level FIFO, as Dinero IV's shadow follows the level's policy);
// conflict = the rest. The shadow sees every request the level sees and
// allocates exactly when the level would, so the three always sum to misses.
//
// Memory is bounded by the level's size, whatever the trace: the shadow
// holds only its own lines, and "seen before" is one bit per line
// (SeenLines).
//
// Speed: each slot of the real cache remembers the shadow node of the line it
// holds (kept by the caller in the slot's own record, passed by reference:
// one host cache line per slot), so a hit (the common case) moves that node
// to the front of the LRU list without a lookup. A miss that misses the shadow too (every access of
// a random trace) costs a lookup, the eviction of the least recent line and
// an insertion: the nodes carry their own hash chains (a bucket array of
// node numbers, 2 buckets per line), so each is a few loads and stores, with
// no probing and no shifting of a table (a linear-probing map cost ~100
// instructions per eviction here). Nodes leave the list only when an
// invalidate record drops their line (they are reused first); otherwise the
// shadow reuses its tail for a new line. So a slot's node is current exactly
// when it still names the slot's line.
//
// A fully associative level whose victim is the shadow's (LRU, or FIFO with
// its shadow in fill order) holds exactly the shadow's lines in the
// shadow's order, so its misses are never conflicts and the shadow need not
// be kept: mirror() says so, and the classifier then only records first
// references. Only a back-invalidation (an inclusive level below) makes the
// level drop a line the shadow keeps; the level calls unmirror() first, with
// its lines in its order, and the shadow is built as it would stand.
#include <cstdint>
#include <memory>
#include <vector>

#include "models/cache/seen_lines.h"
#include "models/cache/zeroed_array.h"

namespace ptosim {

enum class MissClass : uint8_t { Compulsory, Capacity, Conflict };

class MissClassifier {
 public:
  // `fifo`: the shadow keeps fill order (hits do not reorder it), as Dinero
  // IV's shadow of a FIFO level does (it uses the level's own policy);
  // otherwise LRU.
  MissClassifier(uint64_t lines, bool fifo = false);
  MissClassifier(const MissClassifier&) = delete;
  MissClassifier& operator=(const MissClassifier&) = delete;

  // What a slot's node starts as: no node (no line's).
  uint32_t no_node() const { return head_; }

  // The real cache is this shadow (see above); from construction on.
  void mirror() { mirror_ = true; }
  bool mirrored() const { return mirror_; }
  // Builds the shadow from the real cache: each(f) calls f(line, node) for
  // its lines from the oldest to the newest, `node` the line's slot's.
  template <class Each>
  void unmirror(Each&& each) {
    mirror_ = false;
    each([this](uint64_t line, uint32_t& node) { node = enter(line, bucket(line)); });
  }

  // A hit of the real cache on `line`, held in the slot whose shadow node
  // is `node`; `allocates()`:
  // whether the level would allocate the line on a miss of this request
  // (false for a write that does not allocate), asked only when it matters.
  template <class Allocates>
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void
  hit(uint64_t line, uint32_t& node, Allocates&& allocates) {
    if (mirror_) return;
    const uint32_t n = node;
    if (nodes_[n].line == line) return touch(n);  // the head's line is no line's
    // The real cache kept a line that the shadow has evicted (set mapping
    // can beat full associativity): the shadow takes it back, as it would
    // on its own miss, so not for a write that does not allocate (Dinero IV's
    // shadow updates on "not a write, or a hit, or write-allocate").
    if (allocates()) node = take_back(line);
  }
  // Whether hit(line, node, ...) would change nothing now: the shadow
  // mirrors the level, keeps fill order, or holds the line in `node` as its
  // most recent (a repeat of the line just hit).
  bool hit_is_noop(uint64_t line, uint32_t node) const {
    return mirror_ || (nodes_[node].line == line && (fifo_ || nodes_[head_].next == node));
  }
  // Dinero IV's invalidate record: the line leaves the shadow (its first
  // reference stays recorded, as in Dinero IV, whose d4_invinfcache clears
  // no bit for a block without sub-blocks); invalidate_all() empties the
  // shadow and forgets every first reference, as d4_invinfcache does for a
  // whole-cache invalidate.
  void invalidate(uint64_t line);
  void invalidate_all();
  // A miss of the real cache; returns its class. With `allocate` the line will
  // be installed in the slot whose shadow node is `node` (and the shadow
  // allocates it too); else `node` is left alone.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  MissClass
  miss(uint64_t line, bool allocate, uint32_t& node) {
    if (mirror_) return seen_.insert(line) ? MissClass::Compulsory : MissClass::Capacity;
    const uint64_t b = bucket(line);
    const uint32_t found = find(line, b);
    if (found != head_) {  // still in the shadow: a conflict miss
      touch(found);
      if (allocate) node = found;
      return MissClass::Conflict;
    }
    const bool first = seen_.insert(line);
    if (allocate) node = enter(line, b);
    return first ? MissClass::Compulsory : MissClass::Capacity;
  }

 private:
  struct Node {
    uint32_t prev, next;  // the LRU list (node numbers; the head's next = most recent)
    uint32_t chain;       // the next node in the same bucket, head_ = none
    uint64_t line;        // ~0 for the head and for nodes out of the shadow
  };

  uint64_t bucket(uint64_t line) const { return (line * 0x9E3779B97F4A7C15ull) >> bucket_shift_; }
  // The node holding `line` (hashed to bucket `b`), head_ if none.
  uint32_t find(uint64_t line, uint64_t b) const {
    uint32_t i = buckets_[b];
    while (i != head_ && nodes_[i].line != line) i = nodes_[i].chain;
    return i;
  }
  // Takes node `n` out of its bucket's chain.
  void unchain(uint32_t n) {
    uint32_t* p = &buckets_[bucket(nodes_[n].line)];
    while (*p != n) p = &nodes_[*p].chain;
    *p = nodes_[n].chain;
  }
  // Brings `line` (in bucket `b`), absent from the shadow, in as the most
  // recent (taking the least recent's node when full).
  uint32_t enter(uint64_t line, uint64_t b);
  // A hit on a line the shadow does not hold as the slot's node: finds or
  // enters it, makes it the most recent.
  uint32_t take_back(uint64_t line);
  // A hit in the shadow.
#if defined(__GNUC__)
  __attribute__((always_inline))  // on every hit: GCC would outline it
#endif
  void touch(uint32_t n) {
    if (!fifo_) to_front(n);
  }
#if defined(__GNUC__)
  __attribute__((always_inline))  // on every hit: GCC would outline it
#endif
  void to_front(uint32_t n) {
    Node* v = nodes_.get();
    if (v[head_].next == n) return;
    v[v[n].prev].next = v[n].next;
    v[v[n].next].prev = v[n].prev;
    link_front(n);
  }
#if defined(__GNUC__)
  __attribute__((always_inline))  // on every hit: GCC would outline it
#endif
  void link_front(uint32_t n) {
    Node* v = nodes_.get();
    Node& head = v[head_];
    v[n].prev = head_;
    v[n].next = head.next;
    v[head.next].prev = n;
    head.next = n;
  }

  uint64_t capacity_;
  // The sentinel of the circular LRU list is node 0; its number also means
  // "none" in chains, buckets and slots (so that they start as zero bytes,
  // untouched pages: ZeroedArray), and its line (~0) is no line's.
  static constexpr uint32_t head_ = 0;
  std::unique_ptr<Node[]> nodes_;   // capacity_ + 1 (the head first); numbers do not change
  uint32_t used_ = 0;               // nodes taken so far: 1..used_ (the rest untouched)
  ZeroedArray<uint32_t> buckets_;   // bucket -> first node of its chain, head_ = empty
  unsigned bucket_shift_;
  std::vector<uint32_t> free_;       // nodes of invalidated lines, out of the list, reused first
  SeenLines seen_;                   // every line referenced at this level
  bool fifo_;
  bool mirror_ = false;              // the real cache is the shadow: no list is kept
};

}  // namespace ptosim
