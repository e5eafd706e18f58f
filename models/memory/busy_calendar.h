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

#include "sim/common/time.h"

namespace ptosim {

class BusyCalendar {
 public:
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
          if (busy_.size() > kMaxIntervals) busy_.erase(busy_.begin());
        }
        return start;
      }
    }
    Fs start = arrive;
    auto it = busy_.upper_bound(start);
    if (it != busy_.begin() && std::prev(it)->second > start) start = std::prev(it)->second;
    while (it != busy_.end() && it->first < start + busy) start = std::max(start, (it++)->second);
    if (busy == 0) return start;
    // Insert [start, start + busy), merged with its neighbours.
    Fs lo = start, hi = start + busy;
    auto next = busy_.lower_bound(lo);
    if (next != busy_.begin() && std::prev(next)->second == lo) lo = (--next)->first;
    while (next != busy_.end() && next->first <= hi) {
      hi = std::max(hi, next->second);
      next = busy_.erase(next);
    }
    busy_[lo] = hi;
    if (busy_.size() > kMaxIntervals) busy_.erase(busy_.begin());
    return start;
  }

 private:
  // At most this many intervals are kept; the oldest go first (a request
  // arriving before all that remain then finds the past free).
  static constexpr size_t kMaxIntervals = 4096;
  std::map<Fs, Fs> busy_;  // start -> end of each busy interval, disjoint
};

}  // namespace ptosim
