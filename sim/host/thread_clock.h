#pragma once
// The clock every host probe times with: the thread's CPU time, not the
// wall clock, so that on a shared machine a run the scheduler preempts does
// not count the other tenants' time slices (a 2 ms kernel measured at load
// 8 took 3-110 cycles an iteration by the wall clock, 4.8 +- 0.3 by this
// one). On the VMs measured so far a read is a syscall of ~1.7 us, not a
// vDSO read (docs/notes/2026-12-06-probe-clock.md): a timed run must be
// long (a millisecond or more) for the read's cost to vanish in it.
#include <time.h>

namespace ptosim::host {

inline double thread_cpu_s() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

}  // namespace ptosim::host
