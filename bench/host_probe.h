#pragma once
// Microbenchmarks of the machine pto-sim runs on, for `pto-sim config host
// --measure`: the core clock (a chain of dependent integer adds, one cycle
// each), load-to-use latency at a set of footprints (a dependent chase
// through randomly permuted cache lines) and read bandwidth (a streaming
// sum over a buffer much larger than the last cache). A few seconds in all.
#include <cstdint>
#include <vector>

namespace ptosim::bench {

struct LatencyPoint {
  uint64_t footprint = 0;  // bytes
  double ns = 0;           // per dependent load
};

struct HostProbe {
  double clock_hz = 0;
  std::vector<LatencyPoint> latency;
  double stream_bytes_per_s = 0;
};

double measure_clock_hz();
double chase_ns(uint64_t footprint, uint64_t line = 64);
// by_page: the lines of one page before the next (a TLB miss once a page);
// else all lines in one random order (a TLB miss on most loads once the
// footprint's pages overflow the TLB). The default: by page past 8 MiB.
double chase_ns(uint64_t footprint, uint64_t line, bool by_page);
double stream_bytes_per_s(uint64_t bytes);
// Everything above; latencies at `footprints`.
HostProbe probe_host(const std::vector<uint64_t>& footprints, uint64_t stream_bytes);

}  // namespace ptosim::bench
