#pragma once
// One time type for every model: integer femtoseconds from the simulation's
// origin (SystemC's resolution is set to 1 fs, so an Fs is an sc_time's
// value). Cycles of any clock add up without drift and without sc_time
// arithmetic per access; models convert to sc_time only at a TLM call
// (models/tlm/sc_fs.h). The conversions round as SystemC's own do, so a
// model moved from sc_time to Fs computes the same times to the femtosecond.
#include <cstdint>

namespace ptosim {

using Fs = uint64_t;

inline constexpr double kFsPerSecond = 1e15;

// sc_time(seconds, SC_SEC) at a 1 fs resolution.
inline Fs fs_from_seconds(double seconds) {
  volatile double t = seconds * kFsPerSecond + 0.5;
  return Fs(t);
}
// sc_time::to_seconds() at a 1 fs resolution.
inline double fs_to_seconds(Fs t) { return double(t) * 1e-15; }
// One period of a clock, as SystemC rounds sc_time(1 / hz, SC_SEC).
inline Fs period_fs(double hz) { return fs_from_seconds(1.0 / hz); }
// sc_time * double and sc_time / double: round to the nearest femtosecond.
inline Fs fs_scaled(Fs t, double factor) {
  volatile double v = double(t) * factor + 0.5;
  return Fs(int64_t(v));
}
inline Fs fs_divided(Fs t, double divisor) {
  volatile double v = double(t) / divisor + 0.5;
  return Fs(int64_t(v));
}
// `cycles` periods of a clock.
inline Fs cycles_to_fs(uint64_t cycles, Fs period) { return fs_scaled(period, double(cycles)); }

}  // namespace ptosim
