#pragma once
// A core's read bandwidth from a level of the memory hierarchy, for `config
// host --measure`'s DRAM bandwidth and last-level port. A stream must issue
// loads faster than the memory answers or it measures its own loop: a sum
// of 8-byte words (what -O3 makes of `s += buf[i]` without -mavx2) read
// 26-31 GB/s at every footprint, L1 included, on a Zen 5 VM where 32-byte
// loads into four accumulators read 90 GB/s from L3 and 52 from DRAM
// (docs/notes/2026-12-06-probe-clock.md). So the sum uses the widest loads
// the CPU has, chosen at run time, into independent accumulators.
#include <cstdint>

namespace ptosim::host {

// The load width the stream uses on this CPU, bytes: 64 with AVX-512F, 32
// with AVX2, else 16 (SSE2; plain 8-byte words off x86).
unsigned stream_load_bytes();

// The sum of `words` 64-bit words at `buf` (64-byte aligned, `words` a
// multiple of kStreamBlockWords) read with `load_bytes`-wide loads (16, 32
// or 64, at most stream_load_bytes()): the loop the probe times, wrapping
// as unsigned arithmetic does.
constexpr uint64_t kStreamBlockWords = 64;  // 512 bytes: eight accumulators of the widest loads
uint64_t stream_sum(const uint64_t* buf, uint64_t words, unsigned load_bytes);

struct StreamRate {
  double bytes_per_s = 0;
  unsigned load_bytes = 0;
  uint64_t footprint = 0;  // bytes swept
};

// Sweeps of a `footprint`-byte buffer, as many a timed run as make
// `run_bytes` (each run a millisecond or more, so that the thread clock's
// cost does not count), the fastest of `runs` runs: other tenants only
// ever slow a run (their share of the core, the caches or the memory bus),
// so the fastest is this core's own. load_bytes 0: the widest the CPU has.
StreamRate stream_read(uint64_t footprint, uint64_t run_bytes, int runs, unsigned load_bytes = 0);

// Two footprints timed in interleaved rounds (a neighbour's burst slows
// both alike), the fastest run of each; `near` is typically between the
// level above the last and the last level, `far` well past the last.
struct StreamPair {
  StreamRate near, far;
};
StreamPair stream_read_pair(uint64_t near_footprint, uint64_t far_footprint, int rounds);

}  // namespace ptosim::host
