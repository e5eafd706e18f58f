#pragma once
// Sampled simulation (run --sample; SMARTS, Wunderlich et al., ISCA 2003):
// which accesses of a stream are measured, which warm the model in detail
// and which only warm the caches' contents, and the estimate of a run's
// totals with a Student's t confidence interval from the measured units.
// Plain C++ (no SystemC) so that the schedule and the arithmetic are tested
// on their own; docs/SAMPLING.md says what a sampled report means.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/report/stats.h"

namespace ptosim {

// What happens to accesses between measured units: `functional` updates the
// caches' tags (SMARTS's functional warming), `none` drops them (only the
// detailed warming before each unit warms; cheaper, biased when the
// working set outlives the warming window).
enum class SampleWarming : uint8_t { Functional, None };

struct SampleParams {
  uint64_t unit = 0;     // U: accesses per measured unit
  uint64_t period = 0;   // k x U: a unit starts every this many accesses
  uint64_t warmup = 0;   // W: accesses simulated in detail before each unit, not measured
  uint64_t seed = 1;     // picks each unit's place in its period
  SampleWarming warming = SampleWarming::Functional;
  double confidence = 0.95;
};

// A unit of `unit` accesses every `every` units, `warmup` accesses of
// detailed warming before each (at most (every - 1) x unit); throws an
// InputError naming the flag (--sample-unit, --sample-every,
// --sample-warmup, --sample-warming) otherwise.
SampleParams make_sample_params(uint64_t unit, uint64_t every, uint64_t warmup, uint64_t seed,
                                const std::string& warming);

// The phase of each access of the stream, in order: an "access" is a line
// request of the first level (as docs/PERFORMANCE.md counts them; an event
// over several lines counts each, a control record none), so that tile
// transfers and element accesses weigh what they cost. Callers ask how many
// more accesses stay in the current phase, then advance.
//
// One unit in each period, at a place drawn from the seed for that period
// (stratified random sampling). SMARTS places them at one fixed offset
// (systematic sampling), which aliases with a loop whose period shares a
// factor with the unit period: on matmul_naive 40^3 every unit then fell at
// the same few places of the inner loops, and the estimate was off by 6
// times its interval's half-width (docs/SAMPLING.md).
class SampleSchedule {
 public:
  enum class Phase : uint8_t { Skip, Warm, Measure };
  explicit SampleSchedule(const SampleParams& p);
  Phase phase() const;
  uint64_t left_in_phase() const;  // >= 1
  // By n accesses; past the phase's end when the event that ends it is
  // larger (a unit then holds a little more than the unit size).
  void advance(uint64_t n);
  uint64_t position() const { return pos_; }
  uint64_t unit_start_position() const { return unit_start_; }
  // Where period j's unit starts within it: [0, period - unit].
  static uint64_t unit_offset(const SampleParams& p, uint64_t j);

 private:
  SampleParams p_;
  uint64_t pos_ = 0;
  uint64_t period_index_ = 0;
  uint64_t unit_start_;  // the next (or current) measured unit's first access
};

// One estimated metric: the total over the run, and the interval around it.
struct SampleEstimate {
  std::string metric;
  double estimate = 0, low = 0, high = 0, half_width = 0;
};

// The totals of `per_unit[i][m]` over the whole stream, from n measured
// units of `weights[i]` accesses each (about the unit size: a unit ends
// with the event that reaches it) out of `total` accesses. The ratio
// estimator: R = sum(y) / sum(w), estimate = R x total, half-width
// t(n-1, (1+c)/2) x s_d / sqrt(n) x N x sqrt(1 - n/N), s_d the standard
// deviation of d_i = y_i - R w_i and N = total / mean(w) the units in the
// stream (with equal weights, the mean x N and the sample's own standard
// deviation; the last factor is the finite-population correction of
// sampling n of N units without replacement). Needs n >= 2 units.
//
// A metric with a control (controls[m].column >= 0) is estimated as a
// difference: b x X + the estimate of y - b x, where x is the control's
// column of per_unit and X its total over the whole stream, known exactly
// (a level's first touches, which functional warming counts: most of the
// bursts of misses no sample catches). b is controls[m].slope, or, when
// that is NaN, the ratio-adjusted least-squares slope of y on x over the
// units (the regression estimator; 0 when x does not vary or the slope is
// negative). Any fixed b leaves the estimate unbiased; a b near the true
// slope narrows the interval.
struct SampleControl {
  int column = -1;     // in per_unit; -1: none
  double total = 0;    // X
  double slope = 0;    // b, or NaN: fitted
};
std::vector<SampleEstimate> estimate_totals(const std::vector<std::string>& metrics,
                                            const std::vector<std::vector<double>>& per_unit,
                                            const std::vector<double>& weights, double total, double confidence,
                                            const std::vector<double>& granules = {},
                                            const std::vector<SampleControl>& controls = {});

// The slope fitted for a control (above): sum(ry rx) / sum(rx^2), r the
// residuals from each column's ratio to the weights; 0 when x does not vary,
// and never negative.
double control_slope(const std::vector<std::vector<double>>& per_unit, size_t y, size_t x,
                     const std::vector<double>& weights);

// The exact (Clopper-Pearson) upper bound, at (1 + confidence) / 2, on the
// fraction of a stream's units that carry a metric when `carrying` of n
// sampled units did (1 when all did).
double carrying_upper_bound(size_t carrying, size_t n, double confidence);

// The Student's t quantile used above (Boost.Math), for a test to check.
double student_t_quantile(double dof, double p);

}  // namespace ptosim
