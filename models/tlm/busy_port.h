#pragma once
// Loosely-timed contention: a port that moves `bytes_per_cycle` serves one
// transfer at a time, so a request that arrives while it is busy starts when
// it frees ("busy until"). Also accumulates busy time for utilisation.
#include <systemc>

namespace ptosim {

class BusyPort {
 public:
  BusyPort() = default;
  BusyPort(sc_core::sc_time per_byte) : per_byte_(per_byte) {}
  // Returns when the transfer starts; the port is busy until start + bytes x per_byte.
  sc_core::sc_time reserve(const sc_core::sc_time& arrive, uint64_t bytes) {
    const sc_core::sc_time start = arrive > busy_until_ ? arrive : busy_until_;
    const sc_core::sc_time busy = per_byte_ * double(bytes);
    busy_until_ = start + busy;
    busy_total_ += busy;
    return start;
  }
  sc_core::sc_time transfer(uint64_t bytes) const { return per_byte_ * double(bytes); }
  const sc_core::sc_time& busy_total() const { return busy_total_; }
  const sc_core::sc_time& busy_until() const { return busy_until_; }

 private:
  sc_core::sc_time per_byte_;
  sc_core::sc_time busy_until_ = sc_core::SC_ZERO_TIME;
  sc_core::sc_time busy_total_ = sc_core::SC_ZERO_TIME;
};

}  // namespace ptosim
