#pragma once
// A long run must be stoppable without losing it, and visible while it
// lasts. SIGINT/SIGTERM only raise a flag here; the simulation looks at it
// at its safe points (between chunks of events) and ends the run early, so
// that the report of what was simulated still gets written. The same safe
// points publish how far the run got, for the progress line and for the
// report of an interrupted run. Plain atomics: any thread may read them.
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ptosim::run_control {

struct Counters {
  std::atomic<uint64_t> events{0};       // events the simulation has taken
  std::atomic<uint64_t> accesses{0};     // of which memory accesses
  std::atomic<uint64_t> sim_fs{0};       // simulated time reached
  std::atomic<uint64_t> input_done{0};   // bytes of the trace file read
  std::atomic<uint64_t> input_total{0};  // its size when it is a regular file, else 0
};
Counters& counters();

// The first SIGINT/SIGTERM asks the run to stop; a second one ends the
// process at once (exit status 128 + signal).
void install_signal_handlers();
// The signal that asked to stop, 0 if none.
int stop_signal();
// `run --stop-after N`: the run stops at the first safe point after N events
// (0: no limit) and reports them, as after a signal, but it is no error.
// `from_compute` (--stop-after-compute): the N events count from the first
// compute event (note_compute), so that a probe skips nothing of a phase
// before the compute but measures N events of the compute.
void set_event_limit(uint64_t events, bool from_compute = false);
void note_compute();
bool event_limit_reached();
inline bool stop_requested() { return stop_signal() != 0 || event_limit_reached(); }
// For tests of the stop path without a signal.
void request_stop(int signal);

// Thrown where a wait for input noticed the stop (a config read from a FIFO
// before the run began): main() ends with 128 + signal and writes nothing.
struct Stopped : std::runtime_error {
  Stopped(int sig, const std::string& input) : std::runtime_error("while reading " + input), signal(sig) {}
  int signal;
};

}  // namespace ptosim::run_control
