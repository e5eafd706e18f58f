#pragma once
// Microbenchmarks of the machine pto-sim runs on, for `pto-sim config host
// --measure`: the core clock (a chain of dependent integer adds, one cycle
// each), float op latencies (chains of each), load-to-use latency at a set of footprints (a dependent chase
// through randomly permuted cache lines) and read bandwidth (a streaming
// sum of the widest loads, stream_probe.h, over a buffer much larger than
// the last cache and over one between the last two levels). A few seconds
// in all.
#include <cstdint>
#include <vector>

#include "sim/host/stream_probe.h"

namespace ptosim::host {

struct LatencyPoint {
  uint64_t footprint = 0;  // bytes
  double ns = 0;           // per dependent load
};

// One L1D set's replacement (models/cache/replacement_fit.h): the patterns
// timed and their cycles per load.
struct SetProbe {
  std::vector<std::vector<uint32_t>> patterns;
  std::vector<double> cycles;
};

// Latencies in cycles of scalar float instructions, each a dependent chain
// of it (0 = not measured: fma without the FMA extension), and what a
// store-to-load forward adds to a chain through one memory word.
struct OpLatencies {
  double add = 0, mul = 0, fma = 0, div = 0, sqrt = 0, forward = 0;
};

struct HostProbe {
  double clock_hz = 0;
  // Four independent add chains against one, adds a cycle: below ~3 on a
  // core of four or more ALUs, another thread shares the core's issue
  // slots and throughput figures measured now are slow.
  double adds_per_cycle = 0;
  OpLatencies ops;
  std::vector<LatencyPoint> latency;
  // Read bandwidth from DRAM (a footprint much larger than the last level)
  // and from the last level (one between it and the level above; zero
  // when not measured).
  StreamRate dram_stream, last_level_stream;
  // A column walk whose every load misses L1D and hits L2 (16 sets, a row
  // pitch of a power of two), ns a load: how many misses the L1D keeps in
  // flight, with the L2's latency. 0: not measured.
  double l2_miss_ns = 0;
  // A column walk (column_walk_ns) whose lines all fall into one L1D set,
  // and the same walk shifted a line a row (a new set every row).
  double one_set_ns = 0, spread_ns = 0;
  double one_set_store_ns = 0;  // the one-set walk storing
  SetProbe l1_set;  // empty without l1_way
  // The last level's chase latency at a ladder of footprints up to its
  // nominal size (by page, so that no TLB step sits inside the ladder):
  // where a VM's share of a last level its neighbours also fill ends.
  std::vector<LatencyPoint> capacity;
  // The wide-load stream at the same ladder (empty when not measured): a
  // stream keeps more of a shared last level than the chase says (12 MiB
  // at L3 rates on a Zen 3 VM whose chase read DRAM latency from 6 MiB).
  std::vector<StreamRate> capacity_stream;
};

double measure_clock_hz();
OpLatencies measure_op_latencies(double clock_hz);
double independent_adds_per_cycle();
double chase_ns(uint64_t footprint, uint64_t line = 64);
// by_page: the lines of one page before the next (a TLB miss once a page);
// else all lines in one random order (a TLB miss on most loads once the
// footprint's pages overflow the TLB). The default: by page past 8 MiB.
double chase_ns(uint64_t footprint, uint64_t line, bool by_page);
// Independent loads down 16 columns of `rows` rows `stride` bytes apart (a
// matrix walked by columns): ns a load, the best of several runs. With the
// stride a multiple of an L1D way (size / ways) every line of a column
// falls into one set: how fast that set takes fills.
// store: the same walk storing (a fill and, once the set is full, a dirty
// victim a row): what a dirty victim adds to its set's spacing.
double column_walk_ns(uint64_t rows, uint64_t stride, bool store = false);
// A dependent chase through lines that all fall into one set (a line every
// `way_bytes`, the set's size / ways), visiting the line ids of `pattern`
// in a loop: cycles (of `clock_hz`) a load. Line ids go to pages in a
// random order, so that no stride prefetcher learns the walk.
double set_pattern_cycles(const std::vector<uint32_t>& pattern, uint64_t way_bytes, double clock_hz);
// Everything above; latencies at `footprints`, the capacity ladder at
// `capacity_footprints`, DRAM's stream over `stream_bytes` and the last
// level's over `last_level_stream_footprint` (0: not measured).
// l1_way: the L1D's size / ways, l1_line its line (0: no column walk, no
// set patterns); l1_patterns: the set patterns to time (replacement_fit.h).
HostProbe probe_host(const std::vector<uint64_t>& footprints, uint64_t stream_bytes, uint64_t l1_way = 0,
                     uint64_t l1_line = 64, const std::vector<std::vector<uint32_t>>& l1_patterns = {},
                     const std::vector<uint64_t>& capacity_footprints = {},
                     uint64_t last_level_stream_footprint = 0);

}  // namespace ptosim::host
