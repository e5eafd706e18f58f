#pragma once
// The busy intervals of a port's recent past, for a port whose requests
// arrive out of time order: an NPU buffer that engines running ahead on
// their own share (BusyPort), or a shared cache level and the DRAM that
// several cores reach (a core whose clock lags reaches a port that a core
// far ahead already took: docs/TIMING.md, "Several cores"). A request takes
// the first gap at or after its arrival that holds it instead of queueing
// behind the latest reservation; requests that arrive in time order get the
// same starts as a plain "busy until" port.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>

#include "models/memory/recycling_allocator.h"
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
    if (!busy_.empty()) {
      const auto last = std::prev(busy_.end());
      if (arrive >= last->first) {
        const Fs start = std::max(arrive, last->second);
        if (busy == 0) return start;
        if (start == last->second) {
          last->second = start + busy;
        } else {
          busy_.emplace_hint(busy_.end(), start, start + busy);
          if (busy_.size() > max_) busy_.erase(busy_.begin());
        }
        return start;
      }
    }
    const Fs start = first_fit(arrive, busy);
    if (busy > 0) take(start, start + busy);
    return start;
  }

  // The start reserve(arrive, busy) would give, reserving nothing: for a
  // resource whose time taken is known only once its start is (a DRAM
  // bank: the row's outcome and the bus), which then take()s it.
  Fs first_fit(Fs arrive, Fs busy) const {
    Fs start = arrive;
    auto it = busy_.upper_bound(start);
    if (it != busy_.begin() && std::prev(it)->second > start) start = std::prev(it)->second;
    while (it != busy_.end() && it->first < start + busy) start = std::max(start, (it++)->second);
    return start;
  }

  // Marks [lo, hi) busy, merged with the intervals it touches or overlaps.
  void take(Fs lo, Fs hi) {
    if (hi <= lo) return;
    if (!busy_.empty()) {  // in time order: at or after the latest interval's start (as reserve's fast path)
      const auto last = std::prev(busy_.end());
      if (lo >= last->first && lo <= last->second) {
        last->second = std::max(last->second, hi);
        return;
      }
      if (lo > last->second) {
        busy_.emplace_hint(busy_.end(), lo, hi);
        if (busy_.size() > max_) busy_.erase(busy_.begin());
        return;
      }
    }
    auto next = busy_.lower_bound(lo);
    if (next != busy_.begin() && std::prev(next)->second >= lo) {
      --next;
      hi = std::max(hi, next->second);
      lo = next->first;
    }
    while (next != busy_.end() && next->first <= hi) {
      hi = std::max(hi, next->second);
      next = busy_.erase(next);
    }
    busy_[lo] = hi;
    if (busy_.size() > max_) busy_.erase(busy_.begin());
  }

 private:
  size_t max_;
  // start -> end of each busy interval, disjoint; intervals come and go with every request (nodes recycled)
  std::map<Fs, Fs, std::less<Fs>, RecyclingAllocator<std::pair<const Fs, Fs>>> busy_;
};

}  // namespace ptosim
