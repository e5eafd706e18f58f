#pragma once
// Which replacement policy a real cache's set follows, from timings: the
// probe (sim/host/host_probe.h, `set_pattern_cycles`) chases pointers through
// lines that all fall into one set, in patterns the shipped policies
// disagree on (which of the lines survive), and times each. Every
// registered policy predicts each pattern's steady-state miss fraction by
// running it through this repository's own cache logic (one set of `ways`
// ways); the policy whose fractions explain the times best as
// `hit + (miss - hit) x fraction` (least squares) is the one the set
// follows. `pto-sim config host --measure` writes it as the L1D's
// `replacement:` (docs/CACHES.md, "Measuring a cache's replacement").
#include <cstdint>
#include <string>
#include <vector>

namespace ptosim {

using LinePattern = std::vector<uint32_t>;  // line ids, repeated in a loop; a line never follows itself

// The patterns to time for a set of `ways` ways: two anchors (a loop of
// ways - 2 lines, every policy hits; of ways + 2, the deterministic ones
// all miss) and, for every pair of registered policies, the two patterns
// of a fixed-seed random search over ways + 1 .. ways + 4 lines whose
// predicted miss fractions differ the most. Deterministic.
std::vector<LinePattern> replacement_probe_patterns(uint32_t ways);

// The steady-state miss fraction of `pattern` looped, in one set of `ways`
// ways under `policy` (a registered name): misses over the last `counted`
// loops after `warm` loops.
double pattern_miss_fraction(const std::string& policy, uint32_t ways, const LinePattern& pattern,
                             uint32_t warm = 20, uint32_t counted = 40);

struct PolicyFit {
  std::string policy;
  double hit_cycles = 0, miss_cycles = 0;  // the fitted line: cycles at fraction 0 and 1
  double rms_cycles = 0;                   // the residual: how far the times are from that line
};

// Every registered policy's fit of `cycles` (one per pattern, the same
// order), best first. A policy whose fit needs misses to be faster than
// hits explains nothing: it sorts last.
std::vector<PolicyFit> fit_replacement(const std::vector<LinePattern>& patterns, const std::vector<double>& cycles,
                                       uint32_t ways);

// "plru 1.1 cycles RMS (random 2.7, lru 3.8, ...)": the fits, for a config comment.
std::string describe_fits(const std::vector<PolicyFit>& fits);

}  // namespace ptosim
