// run --sample's schedule, flags and estimator (sim/report/sampling.h) on
// hand-made inputs with exact expectations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "sim/common/error.h"
#include "sim/report/sampling.h"

namespace ptosim {
namespace {

std::string phases(SampleParams p, uint64_t n) {
  SampleSchedule s(p);
  std::string out;
  while (s.position() < n) {
    const uint64_t left = s.left_in_phase();
    EXPECT_GE(left, 1u);
    const char c = s.phase() == SampleSchedule::Phase::Measure ? 'M' : s.phase() == SampleSchedule::Phase::Warm ? 'w' : '.';
    const uint64_t step = std::min<uint64_t>(left, n - s.position());
    out += std::string(step, c);
    s.advance(step);
  }
  return out;
}

// The phases as the schedule's definition says: period j's unit at
// j x period + unit_offset(j), its warm-up before it (not over the unit before).
std::string expected(const SampleParams& p, uint64_t n) {
  std::string out(n, '.');
  for (uint64_t j = 0; j * p.period < n + p.warmup; ++j) {  // a unit past n may warm before it
    const uint64_t start = j * p.period + SampleSchedule::unit_offset(p, j);
    for (uint64_t x = start >= p.warmup ? start - p.warmup : 0; x < start && x < n; ++x)
      if (out[x] != 'M') out[x] = 'w';
    for (uint64_t x = start; x < start + p.unit && x < n; ++x) out[x] = 'M';
  }
  return out;
}

TEST(SampleSchedule, OneUnitInEachPeriodWithItsWarmUpBefore) {
  for (uint64_t seed : {1, 2, 3, 17}) {
    SampleParams p;
    p.unit = 3, p.period = 12, p.warmup = 4, p.seed = seed;
    const std::string got = phases(p, 120);
    EXPECT_EQ(got, expected(p, 120)) << "seed " << seed;
    for (size_t j = 0; j < 10; ++j) EXPECT_EQ(std::count(got.begin() + j * 12, got.begin() + j * 12 + 12, 'M'), 3);
  }
  SampleParams p;
  p.unit = 3, p.period = 12, p.warmup = 0;
  EXPECT_EQ(phases(p, 60).find('w'), std::string::npos);
}

TEST(SampleSchedule, UnitsMoveFromPeriodToPeriod) {
  // Not one fixed offset (systematic sampling aliases with loops): the
  // places differ, and another seed moves them.
  SampleParams p;
  p.unit = 10, p.period = 100;
  std::set<uint64_t> places;
  for (uint64_t j = 0; j < 20; ++j) {
    const uint64_t o = SampleSchedule::unit_offset(p, j);
    EXPECT_LE(o, 90u);
    places.insert(o);
  }
  EXPECT_GT(places.size(), 10u);
  SampleParams q = p;
  q.seed = 2;
  EXPECT_NE(phases(p, 1000), phases(q, 1000));
}

TEST(SampleSchedule, AdvancingOneByOneGivesTheSamePhases) {
  SampleParams p;
  p.unit = 4, p.period = 10, p.warmup = 3, p.seed = 5;
  SampleSchedule s(p);
  std::string out;
  for (int i = 0; i < 100; ++i) {
    out += s.phase() == SampleSchedule::Phase::Measure ? 'M' : s.phase() == SampleSchedule::Phase::Warm ? 'w' : '.';
    s.advance(1);
  }
  EXPECT_EQ(out, expected(p, 100));
}

TEST(SampleParams, BadFlagsNameTheFlag) {
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { make_sample_params(0, 50, 0, 1, "functional"); }), "--sample-unit: must be at least 1 access");
  EXPECT_NE(message([] { make_sample_params(10, 1, 0, 1, "functional"); }).find("--sample-every: must be at least 2"),
            std::string::npos);
  EXPECT_NE(message([] { make_sample_params(10, 5, 41, 1, "functional"); }).find("--sample-warmup: 41 accesses"),
            std::string::npos);
  EXPECT_EQ(message([] { make_sample_params(10, 5, 40, 1, "full"); }),
            "--sample-warming: 'full' is not one of functional | none");
  const SampleParams p = make_sample_params(10, 5, 40, 7, "none");
  EXPECT_EQ(p.period, 50u);
  EXPECT_EQ(p.seed, 7u);
  EXPECT_EQ(p.warming, SampleWarming::None);
}

TEST(SampleEstimate, StudentsTQuantiles) {
  EXPECT_NEAR(student_t_quantile(1, 0.975), 12.7062047, 1e-6);
  EXPECT_NEAR(student_t_quantile(9, 0.975), 2.2621572, 1e-6);
  EXPECT_NEAR(student_t_quantile(1e6, 0.975), 1.959966, 1e-5);
}

TEST(SampleEstimate, TotalsAndIntervalsByHand) {
  // Four units of 10 accesses out of 100: N = 10 units, mean 2.5, s^2 = 5/3.
  const std::vector<SampleEstimate> e =
      estimate_totals({"x", "flat"}, {{1, 7}, {2, 7}, {3, 7}, {4, 7}}, {10, 10, 10, 10}, 100, 0.95);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].metric, "x");
  EXPECT_DOUBLE_EQ(e[0].estimate, 25.0);
  // t(3, 0.975) x sqrt(5/3) / 2 x 10 x sqrt(1 - 4/10)
  EXPECT_NEAR(e[0].half_width, 15.9122315, 1e-6);
  EXPECT_NEAR(e[0].low, 25.0 - 15.9122315, 1e-6);
  EXPECT_NEAR(e[0].high, 25.0 + 15.9122315, 1e-6);
  // Identical units: the estimate is exact and the interval has no width.
  EXPECT_DOUBLE_EQ(e[1].estimate, 70.0);
  EXPECT_DOUBLE_EQ(e[1].half_width, 0.0);
  // Every unit measured: the finite-population correction leaves no width either.
  EXPECT_DOUBLE_EQ(estimate_totals({"x"}, {{1}, {5}}, {10, 10}, 20, 0.95)[0].half_width, 0.0);
}

TEST(SampleEstimate, UnequalUnitsByTheirWeights) {
  // y not proportional to the units' weights: an interval.
  const SampleEstimate e = estimate_totals({"y"}, {{20}, {33}, {21}}, {10, 11, 7}, 1000, 0.95)[0];
  EXPECT_NEAR(e.estimate, 74.0 / 28.0 * 1000, 1e-9);
  EXPECT_GT(e.half_width, 0.0);
  // Proportional: the ratio is exact, no width.
  const SampleEstimate p = estimate_totals({"y"}, {{20}, {22}, {14}}, {10, 11, 7}, 1000, 0.95)[0];
  EXPECT_NEAR(p.estimate, 2000.0, 1e-9);
  EXPECT_NEAR(p.half_width, 0.0, 1e-9);
  // d = y - R w = (1, -1) with R = 2 (w = 10, 10): s_d^2 = 2, N = 50.
  const SampleEstimate q = estimate_totals({"y"}, {{21}, {19}}, {10, 10}, 500, 0.95)[0];
  EXPECT_NEAR(q.half_width, 12.7062047 * std::sqrt(2.0) / std::sqrt(2.0) * 50 * std::sqrt(1 - 2.0 / 50), 1e-5);
}

TEST(SampleEstimate, CarryingUnitsUpperBoundIsClopperPearson) {
  // None of 30 carried it: 1 - 0.025^(1/30); all of them: 1.
  EXPECT_NEAR(carrying_upper_bound(0, 30, 0.95), 0.1157033082, 1e-9);
  EXPECT_DOUBLE_EQ(carrying_upper_bound(30, 30, 0.95), 1.0);
  // 1 of 20: the p with P(X <= 1 | 20, p) = 0.025 (by bisection).
  EXPECT_NEAR(carrying_upper_bound(1, 20, 0.95), 0.2487327628, 1e-8);
}

TEST(SampleEstimate, AMetricFewUnitsCarryGetsTheOccurrenceBound) {
  // One unit of 20 saw 5 misses (a burst): the t interval is 99.3 wide, but
  // how many units of the 200 carry misses is known only to within the
  // Clopper-Pearson bound: estimate x (p_high x 20 / 1 - 1) x fpc.
  std::vector<std::vector<double>> burst(20, {0.0}), none(20, {0.0});
  burst[7][0] = 5;
  const std::vector<double> w(20, 10.0);
  const SampleEstimate b = estimate_totals({"m"}, burst, w, 2000, 0.95, {1.0})[0];
  EXPECT_DOUBLE_EQ(b.estimate, 50.0);
  EXPECT_NEAR(b.half_width, 50 * (0.2487327628 * 20 - 1) * std::sqrt(0.9), 1e-5);
  // No unit saw one: up to p_high(0, 20) x N units with one each (the
  // granule), not a zero-width interval; without a granule, none.
  const SampleEstimate z = estimate_totals({"m"}, none, w, 2000, 0.95, {1.0})[0];
  EXPECT_DOUBLE_EQ(z.estimate, 0.0);
  EXPECT_NEAR(z.half_width, 0.1684334710 * 200 * std::sqrt(0.9), 1e-5);
  EXPECT_DOUBLE_EQ(estimate_totals({"m"}, none, w, 2000, 0.95)[0].half_width, 0.0);
  // Every unit carries it: the bound adds nothing to the t interval.
  std::vector<std::vector<double>> all(20, {3.0});
  all[3][0] = 4;
  const SampleEstimate a = estimate_totals({"m"}, all, w, 2000, 0.95, {1.0})[0];
  const SampleEstimate t = estimate_totals({"m"}, all, w, 2000, 0.95)[0];
  EXPECT_DOUBLE_EQ(a.half_width, t.half_width);
  EXPECT_GT(a.half_width, 0.0);
}

TEST(SampleEstimate, AControlCountedExactlyLeavesOnlyTheRestSampled) {
  // Every miss a first touch (y = x), in bursts the units saw 40 of; the
  // stream's first touches are known: 300. The estimate is 300 whatever the
  // sample, and the interval is what an unseen rest could add (no unit
  // carries y - x: the occurrence bound's p_high(0, 20) x N x 1 x fpc).
  std::vector<std::vector<double>> u(20, {0.0, 0.0});
  u[3] = {40.0, 40.0};
  const std::vector<double> w(20, 10.0);
  const SampleEstimate e = estimate_totals({"misses"}, u, w, 2000, 0.95, {1.0}, {SampleControl{1, 300, 1.0}})[0];
  EXPECT_DOUBLE_EQ(e.estimate, 300.0);
  EXPECT_NEAR(e.half_width, 0.1684334710 * 200 * std::sqrt(0.9), 1e-5);
  // Without the control the same units extrapolate the burst: 400.
  EXPECT_DOUBLE_EQ(estimate_totals({"misses"}, u, w, 2000, 0.95, {1.0})[0].estimate, 400.0);
  // A fixed slope b: b X + the ratio estimate of y - b x. y - 2x = 1, 3, 2, 2
  // over units of 10 out of 100: 2 x 50 + 8 / 40 x 100.
  const SampleEstimate f =
      estimate_totals({"y"}, {{5, 2}, {9, 3}, {2, 0}, {4, 1}}, {10, 10, 10, 10}, 100, 0.95, {}, {SampleControl{1, 50, 2.0}})[0];
  EXPECT_DOUBLE_EQ(f.estimate, 120.0);
  // Its interval is the rest's: d = (-1, 1, 0, 0), s^2 = 2/3, N = 10.
  EXPECT_NEAR(f.half_width, student_t_quantile(3, 0.975) * std::sqrt(2.0 / 3) / 2 * 10 * std::sqrt(0.6), 1e-9);
}

TEST(SampleEstimate, AFittedSlopeIsTheRegressionOfYOnTheControl) {
  // y = 3x + 2w exactly: slope 3, and the rest (2w) is proportional to the
  // weights, so the estimate is exact (3 X + 2 x total) with no width.
  const std::vector<double> w{10, 12, 8, 10};
  std::vector<std::vector<double>> u;
  for (size_t i = 0; i < w.size(); ++i) {
    const double x = double(i * i % 3) + 1;
    u.push_back({3 * x + 2 * w[i], x});
  }
  EXPECT_NEAR(control_slope(u, 0, 1, w), 3.0, 1e-12);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const SampleEstimate e = estimate_totals({"y"}, u, w, 400, 0.95, {}, {SampleControl{1, 77, nan}})[0];
  EXPECT_NEAR(e.estimate, 3 * 77 + 2 * 400.0, 1e-9);
  EXPECT_NEAR(e.half_width, 0.0, 1e-9);
  // A control that falls as y rises gets no slope, nor one that does not
  // vary beyond the weights.
  EXPECT_DOUBLE_EQ(control_slope({{1, 4}, {2, 3}, {3, 2}}, 0, 1, {1, 1, 1}), 0.0);
  EXPECT_DOUBLE_EQ(control_slope({{1, 2}, {2, 4}, {3, 2}}, 0, 1, {1, 2, 1}), 0.0);
}

TEST(SampleSchedule, AnEventLargerThanAPhaseOvershoots) {
  SampleParams p;
  p.unit = 4, p.period = 10, p.warmup = 2, p.seed = 3;
  SampleSchedule s(p);
  s.advance(35);  // past the units of periods 0 .. 2 and maybe into period 3's
  uint64_t j = 0;
  while (j * 10 + SampleSchedule::unit_offset(p, j) + 4 <= 35) ++j;
  EXPECT_EQ(s.position(), 35u);
  EXPECT_EQ(s.unit_start_position(), j * 10 + SampleSchedule::unit_offset(p, j));
  EXPECT_EQ(std::string(1, s.phase() == SampleSchedule::Phase::Measure ? 'M'
                           : s.phase() == SampleSchedule::Phase::Warm ? 'w' : '.'),
            expected(p, 36).substr(35, 1));
}

}  // namespace
}  // namespace ptosim
