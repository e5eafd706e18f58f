#pragma once
// The timing model counts integer femtoseconds in 64 bits (SystemC's time
// resolution is 1 fs here). A config value whose time is below that
// resolution, or so long that a run's sums would overflow, used to run and
// print nonsense (`cycles inf (-nan s)`). These limits let the config loader
// refuse such a value at its key, and let the core stop a run whose
// simulated time leaves the range it can count.
#include <cstdint>
#include <string>

namespace ptosim::time_limits {

constexpr double kResolutionFs = 1;
// One step of the model (a cycle, a latency, one byte through a port): at
// most 2^56 fs (72 s), so that the few steps one access adds up cannot wrap.
constexpr double kMaxStepFs = 72057594037927936.0;
// The whole run: at most 2^63 fs (about 2.56 hours of simulated time).
constexpr uint64_t kMaxRunFs = uint64_t(1) << 63;

// Throws std::invalid_argument naming `what` (e.g. "a cycle") if `fs` is
// not finite, is below the resolution (unless `zero_ok` and it is 0), or is
// longer than kMaxStepFs.
void check_step(double fs, const std::string& what, bool zero_ok = false);
// "72 s", "3.3e-13 s": a duration in the units a user reads.
std::string describe_fs(double fs);

}  // namespace ptosim::time_limits
