#pragma once
// The busy intervals of a port's recent past, for a port whose requests
// arrive out of time order: an NPU buffer that engines running ahead on
// their own share (BusyPort), or a shared cache level and the DRAM that
// several cores reach (a core whose clock lags reaches a port that a core
// far ahead already took: docs/TIMING.md, "Several cores"). A request takes
// the first gap at or after its arrival that holds it instead of queueing
// behind the latest reservation; requests that arrive in time order get the
// same starts as a plain "busy until" port.
//
// The intervals are a sorted array, not a tree: most requests extend or
// follow the latest interval, a late one lands a few intervals before the
// end, and the oldest leave from the front. A std::map of 4,096 nodes made
// every late request chase a dozen pointers through memory (with 8 cores,
// the shared level's and the DRAM's calendars were ~14 % of a run's
// instructions and more of its time: docs/notes/2026-12-07-cores5.md).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/common/time.h"

namespace ptosim {

class BusyCalendar {
 public:
  // At most `max_intervals` are kept; the oldest go first (a request
  // arriving before all that remain then finds the past free).
  explicit BusyCalendar(size_t max_intervals = 4096) : max_(max_intervals) {}

  // Reserves `busy` from the first gap at or after `arrive` that holds it; returns its start.
  Fs reserve(Fs arrive, Fs busy) {
    // Most requests come at or after the latest interval began: they start
    // at its end or at their arrival, and extend it or follow it (what the
    // general search below would find, without its erase and insert).
    if (size() != 0) {
      Busy& last = v_.back();
      if (arrive >= last.lo) {
        const Fs start = std::max(arrive, last.hi);
        if (busy == 0) return start;
        if (start == last.hi) {
          last.hi = start + busy;
        } else {
          v_.push_back({start, start + busy});
          if (size() > max_) drop_oldest();
        }
        return start;
      }
    }
    size_t at;
    const Fs start = fit(arrive, busy, &at);
    if (busy > 0) place(at, start, start + busy);
    return start;
  }

  // The start reserve(arrive, busy) would give, reserving nothing: for a
  // resource whose time taken is known only once its start is (a DRAM
  // bank: the row's outcome and the bus), which then take()s it.
  Fs first_fit(Fs arrive, Fs busy) const {
    size_t at;
    return fit(arrive, busy, &at);
  }

  // Marks [lo, hi) busy, merged with the intervals it touches or overlaps.
  void take(Fs lo, Fs hi) {
    if (hi <= lo) return;
    if (size() != 0) {  // in time order: at or after the latest interval's start (as reserve's fast path)
      Busy& last = v_.back();
      if (lo >= last.lo && lo <= last.hi) {
        last.hi = std::max(last.hi, hi);
        return;
      }
      if (lo > last.hi) {
        v_.push_back({lo, hi});
        if (size() > max_) drop_oldest();
        return;
      }
    }
    // [from, to): the intervals [lo, hi) touches or overlaps, replaced by their union.
    size_t from = from_end([lo](const Busy& b) { return b.lo < lo; });
    if (from != head_ && v_[from - 1].hi >= lo) {
      --from;
      hi = std::max(hi, v_[from].hi);
      lo = v_[from].lo;
    }
    size_t to = from;
    while (to != v_.size() && v_[to].lo <= hi) hi = std::max(hi, v_[to++].hi);
    if (to == from) {
      insert(from, {lo, hi});
    } else {
      v_[from] = {lo, hi};
      v_.erase(v_.begin() + from + 1, v_.begin() + to);
    }
    if (size() > max_) drop_oldest();
  }

 private:
  struct Busy {
    Fs lo, hi;  // [lo, hi)
  };
  size_t size() const { return v_.size() - head_; }
  // The first gap at or after `arrive` that holds `busy`: its start, and
  // *at, the index of the first interval after it (the gap's end).
  Fs fit(Fs arrive, Fs busy, size_t* at) const {
    Fs start = arrive;
    size_t i = from_end([arrive](const Busy& b) { return b.lo <= arrive; });  // the first starting after it
    if (i != head_ && v_[i - 1].hi > start) start = v_[i - 1].hi;
    while (i != v_.size() && v_[i].lo < start + busy) start = std::max(start, v_[i++].hi);
    *at = i;
    return start;
  }
  // The index of the first interval (from head_) that is not `before`
  // (sorted: those before it all are), searched from the end, where late
  // requests land: the steps double towards the front, then a binary
  // search within the last step (a dozen probes of 4,096 intervals were
  // most of a late request's cost).
  template <class Before>
  size_t from_end(Before before) const {
    size_t hi = v_.size();
    for (size_t step = 1; hi - head_ > step; step *= 2) {
      const size_t probe = hi - step;
      if (before(v_[probe])) return size_t(std::partition_point(v_.begin() + probe + 1, v_.begin() + hi, before) - v_.begin());
      hi = probe;
    }
    return size_t(std::partition_point(v_.begin() + head_, v_.begin() + hi, before) - v_.begin());
  }
  // [lo, hi) into the gap before v_[at] (after v_[at - 1]), which it may
  // touch but not overlap: merged with what it touches, as take() would.
  void place(size_t at, Fs lo, Fs hi) {
    const bool after_prev = at != head_ && v_[at - 1].hi == lo;
    const bool before_next = at != v_.size() && v_[at].lo == hi;
    if (after_prev && before_next) {
      v_[at - 1].hi = v_[at].hi;
      v_.erase(v_.begin() + at);
    } else if (after_prev) {
      v_[at - 1].hi = hi;
    } else if (before_next) {
      v_[at].lo = lo;
    } else {
      insert(at, {lo, hi});
      if (size() > max_) drop_oldest();
    }
  }
  // The oldest interval leaves; the array's front is compacted once it holds as many gone as kept.
  void drop_oldest() {
    if (++head_ >= size()) {
      v_.erase(v_.begin(), v_.begin() + head_);
      head_ = 0;
    }
  }
  // Puts b at index `at` (head_ <= at <= v_.size()), moving the shorter side.
  void insert(size_t at, Busy b) {
    if (head_ > 0 && at - head_ < v_.size() - at) {
      std::move(v_.begin() + head_, v_.begin() + at, v_.begin() + head_ - 1);
      --head_;
      v_[at - 1] = b;
    } else {
      v_.insert(v_.begin() + at, b);
    }
  }

  size_t max_;
  // Disjoint busy intervals by start, from v_[head_] on (those before it are gone).
  std::vector<Busy> v_;
  size_t head_ = 0;
};

}  // namespace ptosim
