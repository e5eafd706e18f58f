// run --sample's schedule, flags and estimator (sim/report/sampling.h) on
// hand-made inputs with exact expectations.
#include <gtest/gtest.h>

#include <cmath>

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

TEST(SampleSchedule, UnitsEveryPeriodWithWarmingBefore) {
  SampleParams p;
  p.unit = 3, p.period = 12, p.warmup = 2, p.offset = 5;
  EXPECT_EQ(phases(p, 30), "...wwMMM.......wwMMM.......wwM");
  p.offset = 1;  // the first warming is cut short by the stream's start
  EXPECT_EQ(phases(p, 16), "wMMM.......wwMMM");
  p.offset = 0, p.warmup = 0;
  EXPECT_EQ(phases(p, 15), "MMM.........MMM");
}

TEST(SampleSchedule, AdvancingInPiecesGivesTheSamePhases) {
  SampleParams p;
  p.unit = 4, p.period = 10, p.warmup = 3, p.offset = 7;
  SampleSchedule s(p);
  std::string out;
  for (int i = 0; i < 40; ++i) {
    out += s.phase() == SampleSchedule::Phase::Measure ? 'M' : s.phase() == SampleSchedule::Phase::Warm ? 'w' : '.';
    s.advance(1);
  }
  EXPECT_EQ(out, "....wwwMMMM...wwwMMMM...wwwMMMM...wwwMMM");
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
  const SampleParams p = make_sample_params(10, 5, 40, 1, "none");
  EXPECT_EQ(p.period, 50u);
  EXPECT_LT(p.offset, 50u);
  EXPECT_EQ(p.warming, SampleWarming::None);
  EXPECT_NE(make_sample_params(10, 5, 40, 2, "none").offset, p.offset);  // the seed moves the sample
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

TEST(SampleSchedule, AnEventLargerThanAPhaseOvershoots) {
  SampleParams p;
  p.unit = 4, p.period = 10, p.warmup = 2, p.offset = 6;
  SampleSchedule s(p);
  EXPECT_EQ(s.phase(), SampleSchedule::Phase::Skip);
  EXPECT_EQ(s.left_in_phase(), 4u);
  s.advance(5);  // into the warm-up
  EXPECT_EQ(s.phase(), SampleSchedule::Phase::Warm);
  EXPECT_EQ(s.left_in_phase(), 1u);
  s.advance(30);  // past this unit and the next two: the next unit starts at 36
  EXPECT_EQ(s.position(), 35u);
  EXPECT_EQ(s.phase(), SampleSchedule::Phase::Warm);
  EXPECT_EQ(s.unit_start_position(), 36u);
}

}  // namespace
}  // namespace ptosim
