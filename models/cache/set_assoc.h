#pragma once
// A set-associative tag store with the replacement policy as a template
// parameter, so that the per-access path has no virtual calls inside it.
//
// find() looks a line up and answers where (set, way); on a miss, reserve()
// picks the way for it (an invalid way first, lowest index; else the
// policy's victim, which is removed and described). The caller writes the
// victim back, fetches the line, then calls install(): so nothing that
// happens below in between (a back-invalidation) can touch the new line.
// A miss of find() is remembered until a tag changes, so that a caller that
// probes first (the core's hit fast path) and then serves the miss scans the
// set once. A line found or installed last, and (for policies that know
// it) the most recent line of its set, are found without a scan,
// and a hit on it skips the policy update when the policy says that a repeat
// changes nothing (Policy::kRepeatHitIsNoop): runs of accesses to one line
// are the commonest pattern there is. An invalid way is searched for only
// when the set has one (a per-set count of valid ways).
// Sets are indexed by line % sets (a mask when sets is a power of two), so
// non-power-of-two set counts such as an 11-way 35.75 MiB L3 work.
//
// No cliffs: sets of more than kScanWays ways find a line through a
// line -> slot map of the resident lines (ResidentMap) instead of a scan,
// and the lowest invalid way is searched from a per-set hint below which
// every way is valid, so neither a lookup nor a fill costs the
// associativity.
//
// Memory layout, for the host's caches: the tags are one array (a set's
// scan reads consecutive words); everything else a slot has is one record
// (Slot: dirty, prefetched, owner and the caller's `Extra`, for a cache
// level the fill-ready time and the 3C shadow's node), and a set's valid
// count and free hint are one pair. A random miss then touches the set's
// tags, one slot record, one set pair and the policy's word, where parallel
// arrays cost a host cache line each (tags, meta, ready time, shadow node,
// valid count, hint).
#include <algorithm>
#include <type_traits>
#include <utility>
#include <vector>

#include "models/cache/line_owner.h"
#include "models/cache/resident_map.h"
#include "models/cache/zeroed_array.h"

namespace ptosim {

// Whether a policy can list a set's ways from the oldest (least recently
// used, first filled) to the newest: Policy::oldest_first(set, f).
struct WayVisitor {
  void operator()(uint32_t) const {}
};
template <class P, class = void>
struct HasOldestFirst : std::false_type {};
template <class P>
struct HasOldestFirst<P, std::void_t<decltype(std::declval<const P&>().oldest_first(uint64_t(0), WayVisitor{}))>>
    : std::true_type {};

// No extra per-slot state.
struct NoSlotExtra {};

template <class Policy, class Extra = NoSlotExtra>
class SetAssocArray {
 public:
  struct Found {
    uint64_t set, base;  // base = set * ways: the slot of way 0
    int64_t slot;        // -1 on a miss
    bool repeat;         // the line found or installed last
  };
  struct Victim {
    uint64_t slot = 0;
    bool evicted = false;  // a valid line was removed to make room
    bool dirty = false;
    bool prefetched = false;  // brought in by a prefetch and never used by demand
    uint64_t line = 0;
    LineOwner owner;
  };

  // Up to this many ways a set is scanned; wider sets use the map.
  static constexpr uint32_t kScanWays = 16;

  // Every slot's extra state starts as `extra`.
  SetAssocArray(uint64_t sets, uint32_t ways, uint64_t seed, const Extra& extra = Extra{})
      : sets_(sets), ways_(ways), mask_((sets & (sets - 1)) == 0 ? sets - 1 : 0), pow2_((sets & (sets - 1)) == 0),
        wide_(ways > kScanWays), tags_(sets * ways, 0), slots_(sets * ways), set_(sets, SetState{}),
        where_(wide_ ? sets * ways : 0), policy_(sets, ways, seed) {
    if (!starts_zero(extra)) slots_.fill(slot_with(extra));
  }

  uint32_t ways() const { return ways_; }
  // The caller's state of a slot (kept with the slot's own, one record).
  Extra& extra(uint64_t slot) { return slots_[slot].extra; }
  const Extra& extra(uint64_t slot) const { return slots_[slot].extra; }

  // Inlined into every caller: the hit path's first step.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  Found find(uint64_t line) {
    const uint64_t key = line + 1;  // 0 marks an invalid way
    if (last_key_ == key) return Found{last_set_, last_base_, last_slot_, true};
    if (pending_ == key) return Found{pending_set_, pending_base_, -1, false};
    const uint64_t set = set_of(line);
    const uint64_t base = set * ways_;
    if (wide_) return Found{set, base, find_wide(line, key, set, base), false};
    const uint64_t* t = &tags_[base];
    // A 1-way set: its line or a miss (repeat: no policy update to skip).
    if (ways_ == 1) return t[0] == key ? Found{set, base, int64_t(base), true} : miss_in(key, set, base);
    if constexpr (Policy::kKnowsMru) {  // most hits are on the set's most recent line
      const uint32_t m = policy_.mru(set);
      if (m < ways_ && t[m] == key) {
        remember(key, set, base, int64_t(base + m));  // its repeats then take the first test
        return Found{set, base, int64_t(base + m), true};
      }
    }
    for (uint32_t w = 0; w < ways_; ++w) {
      if (t[w] == key) {
        remember(key, set, base, int64_t(base + w));
        return Found{set, base, int64_t(base + w), false};
      }
    }
    return miss_in(key, set, base);
  }

  // Whether find(line) would answer from its memory of the last line
  // found (Found::repeat: a hit there tells the policy nothing new).
  bool remembers(uint64_t line) const { return last_key_ == line + 1; }

  // A direct-mapped array has no replacement choice: the policy is never
  // asked nor told (on a miss-heavy trace its updates cost ~40 instructions
  // an access over two direct-mapped levels).
  // Whether the line in `slot` is dirty (before hit() marks it).
  bool dirty(uint64_t slot) const { return slots_[slot].meta.dirty; }
#if defined(__GNUC__)
  __attribute__((always_inline))  // on every hit: GCC called it
#endif
  void hit(const Found& f, bool dirty) {
    if (!(Policy::kRepeatHitIsNoop && f.repeat) && ways_ > 1)
      policy_.on_hit(f.set, uint32_t(uint64_t(f.slot) - f.base));
    if (dirty) {
      Meta& m = slots_[uint64_t(f.slot)].meta;
      dirty_ += !m.dirty;
      m.dirty = 1;
    }
  }

  // The way for a line that missed in `f`'s set, emptied. Inlined, as
  // install(): on a miss-heavy trace their calls cost a fifth of the work.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  Victim reserve(const Found& f) {
    pending_ = 0;
    last_key_ = 0;
    uint32_t way;
    SetState& s = set_[f.set];
    if (s.valid < ways_) {  // the lowest invalid way: every way below the hint is valid
      const uint64_t* t = &tags_[f.base];
      way = s.free_hint;
      while (t[way] != 0) ++way;
      s.free_hint = way;
    } else {
      way = ways_ == 1 ? 0 : policy_.victim(f.set);
    }
    Victim v;
    v.slot = f.base + way;
    const uint64_t i = v.slot;
    if (tags_[i]) {
      const Meta& m = slots_[i].meta;
      v.evicted = true;
      v.line = tags_[i] - 1;
      v.dirty = m.dirty;
      dirty_ -= m.dirty;
      v.prefetched = m.prefetched;
      v.owner = m.owner;
      tags_[i] = 0;
      --s.valid;
      s.free_hint = std::min(s.free_hint, way);
      if (wide_) where_.erase(v.line);
    }
    return v;
  }

  // Installs `line` in `slot` of the set `f` looked up (reserved for it).
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void install(const Found& f, uint64_t slot, uint64_t line, bool dirty, LineOwner owner, bool prefetched = false) {
    pending_ = 0;
    remember(line + 1, f.set, f.base, int64_t(slot));
    if (tags_[slot]) dirty_ -= slots_[slot].meta.dirty;
    dirty_ += dirty;
    if (tags_[slot] == 0) {
      SetState& s = set_[f.set];
      ++s.valid;
      if (wide_) where_.insert(line, uint32_t(slot - f.base));
      if (s.free_hint == slot - f.base) ++s.free_hint;
    }
    tags_[slot] = line + 1;
    slots_[slot].meta = Meta{uint16_t(dirty), uint16_t(prefetched), owner};  // one 8-byte store
    if (ways_ > 1) policy_.on_fill(f.set, uint32_t(slot - f.base));
  }

  bool invalidate(uint64_t line, bool* was_dirty, bool* was_prefetched = nullptr) {
    const int64_t i = slot_of(line);
    if (i < 0) return false;
    Meta& m = slots_[uint64_t(i)].meta;
    if (was_dirty) *was_dirty = m.dirty;
    dirty_ -= m.dirty;
    if (was_prefetched) *was_prefetched = m.prefetched;
    pending_ = 0;
    last_key_ = 0;
    const uint64_t set = set_of(line);
    SetState& s = set_[set];
    --s.valid;
    s.free_hint = std::min(s.free_hint, uint32_t(uint64_t(i) - set * ways_));
    if (wide_) where_.erase(line);
    tags_[uint64_t(i)] = 0;
    m.dirty = 0;
    return true;
  }

  bool contains(uint64_t line) const { return slot_of(line) >= 0; }
  // The slot holding `line`, -1 if none (without find()'s memory of the last lookup).
  int64_t find_slot(uint64_t line) const { return slot_of(line); }

  // Whether the line in `slot` was prefetched and not used by demand since.
  bool prefetched(uint64_t slot) const { return slots_[slot].meta.prefetched; }
  // The first demand use of a prefetched line: true once, then the mark is gone.
  bool take_prefetched(uint64_t slot) {
    if (!slots_[slot].meta.prefetched) return false;
    slots_[slot].meta.prefetched = 0;
    return true;
  }

  // The dirty lines in the order Dinero IV copies a whole cache back (its
  // d4copyback pushes every set's dirty blocks, most recent first, on a
  // stack and then pops them): the last set first, and in a set the oldest
  // way first (LRU: least recently used; FIFO: first filled). Policies that
  // keep no such order (random, plru, srrip) go by way number.
  std::vector<uint64_t> dirty_lines() const {
    std::vector<uint64_t> out;
    if constexpr (!HasOldestFirst<Policy>::value) {
      // Wide sets: the resident lines, in the same order (sets from the
      // last, ways by number), without a pass over every way of a 2^24-way
      // level that holds a few lines.
      if (wide_) {
        std::vector<std::pair<uint64_t, uint64_t>> slots;  // (order, line)
        where_.for_each([&](uint64_t line, uint32_t way) {
          const uint64_t set = set_of(line), i = set * ways_ + way;
          if (slots_[i].meta.dirty) slots.emplace_back((sets_ - 1 - set) * ways_ + way, line);
        });
        std::sort(slots.begin(), slots.end());
        for (auto& [order, line] : slots) out.push_back(line);
        return out;
      }
    }
    for (uint64_t set = sets_; set-- > 0;) {
      const uint64_t base = set * ways_;
      auto take = [&](uint32_t way) {
        const uint64_t i = base + way;
        if (tags_[i] && slots_[i].meta.dirty) out.push_back(tags_[i] - 1);
      };
      // (A 1-way set never tells its policy anything: its one way is the order.)
      if constexpr (HasOldestFirst<Policy>::value) {
        if (ways_ == 1) take(0);
        else policy_.oldest_first(set, take);
      } else {
        for (uint32_t w = 0; w < ways_; ++w) take(w);
      }
    }
    return out;
  }

  // How many lines dirty_lines() returns: kept as lines turn dirty and
  // clean, since a walk of every slot at the end of a run was 2.4 % of a
  // short probe on the Xeon config's 35.75 MiB L3 (cache_dirty_count_test
  // checks it against the walk).
  uint64_t dirty_count() const { return dirty_; }
  // The dirty lines in no particular order, found by one pass over the
  // slots that stops at the last of them (the report's dirty_bytes_at_end
  // merges and sorts them; the ordered walk cost a probe 5.3 %).
  std::vector<uint64_t> dirty_lines_unordered() const {
    std::vector<uint64_t> out;
    out.reserve(dirty_);
    if (wide_) {
      where_.for_each([&](uint64_t line, uint32_t way) {
        if (slots_[set_of(line) * ways_ + way].meta.dirty) out.push_back(line);
      });
      return out;
    }
    for (uint64_t i = 0; i < tags_.size() && out.size() < dirty_; ++i)
      if (tags_[i] && slots_[i].meta.dirty) out.push_back(tags_[i] - 1);
    return out;
  }

  // f(slot, line) for every valid line of `set`, the oldest first (the
  // policy's order: it must have one).
  template <class F>
  void lines_oldest_first(uint64_t set, F&& f) const {
    const uint64_t base = set * ways_;
    auto take = [&](uint32_t way) {
      if (tags_[base + way]) f(base + way, tags_[base + way] - 1);
    };
    if (ways_ == 1) take(0);  // a 1-way set never tells its policy anything
    else policy_.oldest_first(set, take);
  }

  // Every valid line, for invalidating them all.
  std::vector<uint64_t> lines() const {
    std::vector<uint64_t> out;
    if (wide_) {
      where_.for_each([&](uint64_t line, uint32_t) { out.push_back(line); });
      return out;
    }
    for (uint64_t i = 0; i < tags_.size(); ++i)
      if (tags_[i]) out.push_back(tags_[i] - 1);
    return out;
  }

  bool clean(uint64_t line, LineOwner* owner) {
    const int64_t i = slot_of(line);
    Meta* m = i < 0 ? nullptr : &slots_[uint64_t(i)].meta;
    if (!m || !m->dirty) return false;
    m->dirty = 0;
    --dirty_;
    *owner = m->owner;
    return true;
  }

 private:
  uint64_t set_of(uint64_t line) const { return pow2_ ? (line & mask_) : (line % sets_); }
  int64_t slot_of(uint64_t line) const {
    const uint64_t base = set_of(line) * ways_;
    if (wide_) {
      const uint32_t* w = const_cast<ResidentMap&>(where_).find(line);
      return w ? int64_t(base + *w) : -1;
    }
    for (uint32_t w = 0; w < ways_; ++w)
      if (tags_[base + w] == line + 1) return int64_t(base + w);
    return -1;
  }

  // The slot of `line` in a wide set, -1 on a miss (a scalar: a Found
  // returned from an outlined call goes through memory).
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  int64_t find_wide(uint64_t line, uint64_t key, uint64_t set, uint64_t base) {
    if (const uint32_t* w = where_.find(line)) {
      remember(key, set, base, int64_t(base + *w));
      return int64_t(base + *w);
    }
    miss_in(key, set, base);
    return -1;
  }

  // find()'s miss, remembered for the reserve() that follows. The last
  // miss and the last line found are kept as scalars, not as a Found: GCC
  // copied a Found member through the stack (two 8-byte stores read back as
  // one 16-byte load, which stalls store forwarding: in perf, a quarter of a
  // direct-mapped L2's samples on a trace that misses every access, and
  // two thirds of a fully associative L1's line -> way lookups).
  Found miss_in(uint64_t key, uint64_t set, uint64_t base) {
    pending_ = key;
    pending_set_ = set;
    pending_base_ = base;
    return Found{set, base, -1, false};
  }
  // The line found or installed last (see miss_in()).
  void remember(uint64_t key, uint64_t set, uint64_t base, int64_t slot) {
    last_key_ = key;
    last_set_ = set;
    last_base_ = base;
    last_slot_ = slot;
  }

  uint64_t sets_;
  uint32_t ways_;
  uint64_t mask_;
  bool pow2_;
  bool wide_;
  ZeroedArray<uint64_t> tags_;  // per slot: line + 1, 0 = invalid
  uint64_t dirty_ = 0;          // valid slots whose line is dirty
  struct Meta {
    uint16_t dirty = 0;       // not uint8_t: char stores alias everything and force reloads
    uint16_t prefetched = 0;  // filled by a prefetch, no demand use since
    LineOwner owner;
  };
  struct Slot {
    Extra extra;
    Meta meta;
  };
  ZeroedArray<Slot> slots_;  // untouched pages while the slot is: a large level is not written up front
  // Whether a slot whose extra state is `e` is all zero bytes, as calloc
  // leaves it (fields, not bytes: a record's padding is anything).
  static bool starts_zero(const Extra& e) {
    if constexpr (std::is_empty_v<Extra>)
      return true;
    else
      return e.is_zero();
  }
  static Slot slot_with(const Extra& extra) {
    Slot s;
    s.extra = extra;
    return s;
  }
  struct SetState {
    uint32_t valid = 0;      // valid ways (an invalid way is searched for only if < ways)
    uint32_t free_hint = 0;  // every way below it is valid
  };
  ZeroedArray<SetState> set_;
  ResidentMap where_;            // wide sets: resident line -> way
  uint64_t pending_ = 0;         // key of the line find() last missed, 0 = none
  uint64_t pending_set_ = 0, pending_base_ = 0;
  uint64_t last_key_ = 0;        // key of the line found or installed last, 0 = none
  uint64_t last_set_ = 0, last_base_ = 0;
  int64_t last_slot_ = -1;
  Policy policy_;
};

}  // namespace ptosim
