#pragma once
// What --check-data compares, shared by the core (which checks every load
// of a run) and the unit tests (which check the plain-C++ hierarchy): the
// bytes a trace's writes store (a trace carries no data), and how a
// mismatch is told. Plain C++.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ptosim {

// The byte a trace's write stores at `addr` when it is the run's `seq`-th
// write (0-based): a hash of both, so that a stale copy of a line (an older
// write, or another address's data) never reads as the right value.
inline uint8_t trace_byte(uint64_t addr, uint64_t seq) {
  uint64_t z = addr * 0x9E3779B97F4A7C15ull ^ (seq + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return uint8_t(z ^ (z >> 31));
}
inline void trace_bytes(uint64_t addr, uint64_t bytes, uint64_t seq, uint8_t* out) {
  for (uint64_t i = 0; i < bytes; ++i) out[i] = trace_byte(addr + i, seq);
}

// The first index at which a and b differ, or n.
inline uint64_t first_difference(const uint8_t* a, const uint8_t* b, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return i;
  return n;
}

// Up to 16 bytes from `from` (of n), as "00 80 3f ...".
std::string hex_bytes(const uint8_t* p, uint64_t n, uint64_t from);

// A simulated memory returned (or kept) other bytes than the functional
// model wrote. what() is the whole message, position first. The CLI exits 1.
class DataCheckError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "<position>: data check failed: <what> of N bytes at 0xADDR (space S)
// served by LEVEL: expected .., got .. (first difference at 0xADDR)".
std::string data_mismatch(const std::string& position, const std::string& what, const std::string& space, uint64_t addr,
                          uint64_t bytes, const std::string& served, const uint8_t* expected, const uint8_t* got);

}  // namespace ptosim
