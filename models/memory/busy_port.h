#pragma once
// Loosely-timed contention: a port that moves `bytes_per_cycle` serves one
// transfer at a time, so a request that arrives while it is busy starts when
// it frees ("busy until"). Also accumulates busy time for utilisation.
// Plain C++ in femtoseconds, like every model's clock.
//
// A port shared by engines that run concurrently (an NPU buffer: MTE2
// writing the next tile while MTE1 reads this one) receives requests out of
// time order — each engine runs ahead on its own — so with `calendar` it
// keeps its busy intervals (busy_calendar.h).
#include <cstdint>

#include "models/memory/busy_calendar.h"
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
    if (calendar_) return intervals_.reserve(arrive, busy);
    const Fs start = arrive > busy_until_ ? arrive : busy_until_;
    busy_until_ = start + busy;
    return start;
  }
  Fs transfer(uint64_t bytes) const { return fs_scaled(per_byte_, double(bytes)); }
  Fs busy_total() const { return busy_total_; }

 private:
  Fs per_byte_ = 0;
  bool calendar_ = false;
  Fs busy_until_ = 0;
  Fs busy_total_ = 0;
  BusyCalendar intervals_;  // calendar: the busy intervals
};

}  // namespace ptosim
