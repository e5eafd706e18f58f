#pragma once
// A set-associative tag store with the replacement policy as a template
// parameter, so that the per-access path has no virtual calls inside it.
// access() looks a line up; on a miss with allocate it reserves a way (an
// invalid way first, lowest index; else the policy's victim, which is removed
// and returned). The caller writes the victim back, fetches the line, then
// calls install(): so nothing that happens below in between (a
// back-invalidation) can touch the new line.
// hit() is the lookup that changes nothing on a miss; access() right after it
// for the same line (no tag changed in between) reuses its result instead of
// scanning the set again. An invalid way is searched for only when the set
// has one (a per-set count of valid ways).
// Sets are indexed by line % sets (a mask when sets is a power of two), so
// non-power-of-two set counts such as an 11-way 35.75 MiB L3 work.
#include <algorithm>
#include <vector>

#include "models/cache/cache_array.h"

namespace ptosim {

template <class Policy>
class SetAssocArray {
 public:
  SetAssocArray(uint64_t sets, uint32_t ways, uint64_t seed)
      : sets_(sets), ways_(ways), mask_((sets & (sets - 1)) == 0 ? sets - 1 : 0), pow2_((sets & (sets - 1)) == 0),
        tags_(sets * ways, 0), dirty_(sets * ways, 0), owner_(sets * ways), valid_(sets, 0), policy_(sets, ways, seed) {}

  ArrayResult access(uint64_t line, bool dirty, bool allocate) {
    const uint32_t ways = ways_;
    const uint64_t key = line + 1;  // 0 marks an invalid way
    ArrayResult r;
    uint64_t set;
    if (pending_ == key) {
      // hit() has just looked this line up and missed, and no tag has
      // changed since: skip the second scan.
      set = pending_set_;
    } else {
      set = set_of(line);
      const uint64_t base = set * ways;
      const uint64_t* t = &tags_[base];
      for (uint32_t w = 0; w < ways; ++w) {
        if (t[w] == key) {
          pending_ = 0;
          r.hit = true;
          r.slot = base + w;
          policy_.on_hit(set, w);
          if (dirty) dirty_[base + w] = 1;
          return r;
        }
      }
    }
    pending_ = 0;
    if (!allocate) return r;
    const uint64_t base = set * ways;
    uint32_t way;
    if (valid_[set] < ways) {  // the lowest invalid way
      const uint64_t* t = &tags_[base];
      way = 0;
      while (t[way] != 0) ++way;
    } else {
      way = policy_.victim(set);
    }
    const uint64_t i = base + way;
    if (tags_[i]) {
      r.evicted = true;
      r.victim = tags_[i] - 1;
      r.victim_dirty = dirty_[i];
      r.victim_owner = owner_[i];
      tags_[i] = 0;
      --valid_[set];
    }
    r.slot = i;
    return r;
  }

  // A lookup that changes nothing on a miss: on a hit, updates the policy
  // (and dirty bit) like access() and returns the slot; else -1.
  int64_t hit(uint64_t line, bool dirty) {
    const uint32_t ways = ways_;
    const uint64_t set = set_of(line);
    const uint64_t base = set * ways;
    const uint64_t* t = &tags_[base];
    const uint64_t key = line + 1;
    for (uint32_t w = 0; w < ways; ++w) {
      if (t[w] == key) {
        policy_.on_hit(set, w);
        if (dirty) dirty_[base + w] = 1;
        return int64_t(base + w);
      }
    }
    pending_ = key;  // remembered for access() until a tag changes
    pending_set_ = set;
    return -1;
  }

  void install(uint64_t slot, uint64_t line, bool dirty, LineOwner owner) {
    // `slot` was reserved for `line` by access(), so the set is line's (and
    // no division by the way count is needed).
    const uint64_t set = set_of(line);
    pending_ = 0;
    if (tags_[slot] == 0) ++valid_[set];
    tags_[slot] = line + 1;
    dirty_[slot] = dirty;
    owner_[slot] = owner;
    policy_.on_fill(set, uint32_t(slot - set * ways_));
  }

  bool invalidate(uint64_t line, bool* was_dirty) {
    const uint64_t set = set_of(line);
    for (uint32_t w = 0; w < ways_; ++w) {
      const uint64_t i = set * ways_ + w;
      if (tags_[i] == line + 1) {
        if (was_dirty) *was_dirty = dirty_[i];
        pending_ = 0;
        --valid_[set];
        tags_[i] = 0;
        dirty_[i] = 0;
        return true;
      }
    }
    return false;
  }

  bool contains(uint64_t line) const {
    const uint64_t set = set_of(line);
    for (uint32_t w = 0; w < ways_; ++w)
      if (tags_[set * ways_ + w] == line + 1) return true;
    return false;
  }

  std::vector<uint64_t> dirty_lines() const {
    std::vector<uint64_t> out;
    for (uint64_t i = 0; i < tags_.size(); ++i)
      if (tags_[i] && dirty_[i]) out.push_back(tags_[i] - 1);
    std::sort(out.begin(), out.end());
    return out;
  }

  bool clean(uint64_t line, LineOwner* owner) {
    const uint64_t set = set_of(line);
    for (uint32_t w = 0; w < ways_; ++w) {
      const uint64_t i = set * ways_ + w;
      if (tags_[i] == line + 1 && dirty_[i]) {
        dirty_[i] = 0;
        *owner = owner_[i];
        return true;
      }
    }
    return false;
  }

 private:
  uint64_t set_of(uint64_t line) const { return pow2_ ? (line & mask_) : (line % sets_); }

  uint64_t sets_;
  uint32_t ways_;
  uint64_t mask_;
  bool pow2_;
  std::vector<uint64_t> tags_;
  std::vector<uint32_t> dirty_;  // not uint8_t: char stores alias everything and force reloads
  std::vector<LineOwner> owner_;
  std::vector<uint32_t> valid_;  // per set: valid ways (an invalid way is searched for only if < ways)
  uint64_t pending_ = 0;         // key of the line hit() last missed, 0 = none (see access())
  uint64_t pending_set_ = 0;
  Policy policy_;
};

}  // namespace ptosim
