#pragma once
// Loosely-timed contention: a port that moves `bytes_per_cycle` serves one
// transfer at a time, so a request that arrives while it is busy starts when
// it frees ("busy until"). Also accumulates busy time for utilisation.
// Plain C++ in femtoseconds, like every model's clock.
//
// A port shared by engines that run concurrently (an NPU buffer: MTE2
// writing the next tile while MTE1 reads this one) receives requests out of
// time order — each engine runs ahead on its own — so with `calendar` it
// keeps its busy intervals and a request takes the first gap at or after its
// arrival that holds it, instead of queueing behind the latest reservation.
// Requests that arrive in time order get the same starts either way.
#include <cstdint>
#include <iterator>
#include <map>

#include "sim/common/time.h"

namespace ptosim {

class BusyPort {
 public:
  BusyPort() = default;
  explicit BusyPort(Fs per_byte, bool calendar = false) : per_byte_(per_byte), calendar_(calendar) {}
  // Returns when the transfer starts; the port is busy until start + bytes x per_byte.
  Fs reserve(Fs arrive, uint64_t bytes) {
    const Fs busy = transfer(bytes);
    busy_total_ += busy;
    if (calendar_) return reserve_gap(arrive, busy);
    const Fs start = arrive > busy_until_ ? arrive : busy_until_;
    busy_until_ = start + busy;
    return start;
  }
  Fs transfer(uint64_t bytes) const { return fs_scaled(per_byte_, double(bytes)); }
  Fs busy_total() const { return busy_total_; }

 private:
  // At most this many intervals are kept; the oldest go first (a request
  // arriving before all that remain then finds the past free).
  static constexpr size_t kMaxIntervals = 4096;

  Fs reserve_gap(Fs arrive, Fs busy) {
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
    if (hi > busy_until_) busy_until_ = hi;
    return start;
  }

  Fs per_byte_ = 0;
  bool calendar_ = false;
  Fs busy_until_ = 0;
  Fs busy_total_ = 0;
  std::map<Fs, Fs> busy_;  // calendar: start -> end of each busy interval, disjoint
};

}  // namespace ptosim
