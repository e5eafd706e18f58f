#pragma once
// The core's issue state, shared between the core and the first cache level
// of a space: runs of accesses to that level are issued by the level itself
// (CacheLevel::run), in a loop compiled with its replacement policy, so the
// per-access path has no virtual call and keeps this state in registers.
#include <cstdint>

#include "models/core/completion_window.h"
#include "sim/trace/event.h"

namespace ptosim {

struct CoreClock {
  CoreClock(uint32_t max_outstanding, CoreId core) : id(core), window(max_outstanding) {}

  CoreId id;                 // a level's run() stops at another core's access
  uint64_t issue_at = 0;     // absolute fs of the next issue slot
  uint64_t interval_fs = 0;  // between issue slots (1 / issue width)
  uint64_t end = 0;          // latest completion seen
  // Past this issue time the core must first let the SystemC kernel catch
  // up (temporal decoupling): a level's run() stops there.
  uint64_t sync_at = 0;
  CompletionWindow window;   // misses in flight
  WindowStalls stalls;
  uint64_t by_kind[2] = {0, 0};  // [write]: reads, writes (accesses = their sum)
  uint64_t line_requests = 0;
  uint64_t access_bytes = 0;  // the bytes the accesses asked for: what the program consumed and produced
  uint64_t flops = 0, compute_fs = 0;
  uint64_t masked_flops = 0;  // Compute::masked: lanes issued but masked off
  uint64_t barrier_wait_fs = 0;  // waiting for the other cores at barriers

  void count(bool write, uint64_t bytes) {
    ++by_kind[write];
    access_bytes += bytes;
  }
  // A compute's work and its masked-off lanes, counted as every core model counts them.
  void computed(const Compute& c) {
    flops += c.flops;
    masked_flops += c.masked;
  }
  uint64_t reads() const { return by_kind[0]; }
  uint64_t writes() const { return by_kind[1]; }
  uint64_t accesses() const { return by_kind[0] + by_kind[1]; }
  // A line request issued at t whose data is there at `done`: the next
  // issue slot follows t.
  void issued(uint64_t t, uint64_t done) {
    if (done > end) end = done;
    issue_at = t + interval_fs;
    ++line_requests;
  }
  // When everything this core issued is done and it could issue again.
  uint64_t idle_at() const { return end > issue_at ? end : issue_at; }
};

}  // namespace ptosim
