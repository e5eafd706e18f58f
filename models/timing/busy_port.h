#pragma once
// Loosely-timed contention: a port that moves `bytes_per_cycle` serves one
// transfer at a time, so a request that arrives while it is busy starts when
// it frees ("busy until"). Also accumulates busy time for utilisation.
// Plain C++ in femtoseconds, like every model's clock.
#include <cstdint>

#include "sim/common/time.h"

namespace ptosim {

class BusyPort {
 public:
  BusyPort() = default;
  explicit BusyPort(Fs per_byte) : per_byte_(per_byte) {}
  // Returns when the transfer starts; the port is busy until start + bytes x per_byte.
  Fs reserve(Fs arrive, uint64_t bytes) {
    const Fs start = arrive > busy_until_ ? arrive : busy_until_;
    const Fs busy = transfer(bytes);
    busy_until_ = start + busy;
    busy_total_ += busy;
    return start;
  }
  Fs transfer(uint64_t bytes) const { return fs_scaled(per_byte_, double(bytes)); }
  Fs busy_total() const { return busy_total_; }
  Fs busy_until() const { return busy_until_; }

 private:
  Fs per_byte_ = 0;
  Fs busy_until_ = 0;
  Fs busy_total_ = 0;
};

}  // namespace ptosim
