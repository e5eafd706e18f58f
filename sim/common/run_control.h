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
#include <utility>

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
// `run --stop-after-compute N --probe-period M`: a probe of a blocked loop
// whose block has phases (attention: q.K^T, softmax, .V) ranks a tile by its
// first phase unless it covers them all, so past its N events it also runs
// until a statement that computed before computes again after another one
// (a period: one iteration of every phase), at the first such return after
// M events: one period when they are long, several when they are short (the
// first one pays the cold caches; the last is warm). A program of one
// compute statement (a tiled matmul, conv2d's) has no period and stops at N.
// Statements, not ops: a tensor op lowered for core model `cpu` is several
// ops of one statement. 0 = off.
void set_period_probe(uint64_t min_events);
// Called for every compute event: its statement, whether it did flops.
void note_compute(uint32_t site = 0, bool flops = true);
// The periods closed, in accesses done (run_control::counters, as epochs
// count them): the first and the last, each from the first compute of the
// statement that came back to its return. A phase before the first period
// (a transpose before the loop) stays outside it.
struct Periods {
  uint64_t closed = 0, first_from = 0, first_to = 0, last_from = 0, last_to = 0;
};
Periods periods();
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
