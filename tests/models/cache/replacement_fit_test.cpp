// The set-conflict probe's classification (models/cache/replacement_fit.h):
// each policy's predicted miss fractions on hand-made patterns, and that
// times made from one policy's fractions are attributed to that policy.
#include "models/cache/replacement_fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "tests/support/choices.h"

namespace ptosim::test {
namespace {

// Every registered policy (tests/support/choices.h): a loop that fits hits,
// and a loop one line too long misses at least once a loop (9 lines cannot
// all stay in 8 ways).
TEST(ReplacementFit, LoopsThatFitHitAndLoopsThatDoNotMiss) {
  for (const std::string& p : registered(concepts::kReplacement)) {
    EXPECT_EQ(pattern_miss_fraction(p, 8, {0, 1, 2, 3, 4, 5, 6, 7}), 0.0) << p;
    EXPECT_GE(pattern_miss_fraction(p, 8, {0, 1, 2, 3, 4, 5, 6, 7, 8}), 1.0 / 9) << p;
  }
  // By recency or by age, the victim is the very line that comes next.
  EXPECT_EQ(pattern_miss_fraction("lru", 8, {0, 1, 2, 3, 4, 5, 6, 7, 8}), 1.0);
  EXPECT_EQ(pattern_miss_fraction("fifo", 8, {0, 1, 2, 3, 4, 5, 6, 7, 8}), 1.0);
  // Random replacement keeps some of it.
  const double r = pattern_miss_fraction("random", 8, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_GT(r, 0.0);
  EXPECT_LT(r, 1.0);
}

TEST(ReplacementFit, PoliciesDisagreeOnAPatternAsWorkedOutByHand) {
  // 10 lines, 8 ways: 3 9 2 5 8 3 6 4 1 0, looped. Every line but 3 comes
  // back after 9 others: a miss under LRU and FIFO; 3's second visit, 4
  // after its first, hits under LRU (and SRRIP), and under FIFO only while
  // 3 has not yet aged out. Tree PLRU keeps most of them: its victim
  // follows the tree's bits, not the age. (The fractions agree with an
  // independent Python model of the four policies used to design the probe.)
  const LinePattern p = {3, 9, 2, 5, 8, 3, 6, 4, 1, 0};
  EXPECT_DOUBLE_EQ(pattern_miss_fraction("lru", 8, p), 0.8);
  EXPECT_DOUBLE_EQ(pattern_miss_fraction("fifo", 8, p), 0.9);
  EXPECT_DOUBLE_EQ(pattern_miss_fraction("plru", 8, p), 0.2);
  EXPECT_DOUBLE_EQ(pattern_miss_fraction("srrip", 8, p), 0.8);
}

TEST(ReplacementFit, PatternsAreFixedAndStartWithTheAnchors) {
  const std::vector<LinePattern> a = replacement_probe_patterns(8), b = replacement_probe_patterns(8);
  EXPECT_EQ(a, b);
  ASSERT_GE(a.size(), 8u);
  EXPECT_EQ(a[0], (LinePattern{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(a[1], (LinePattern{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  for (const LinePattern& p : a)
    for (size_t i = 0; i < p.size(); ++i) EXPECT_NE(p[i], p[(i + 1) % p.size()]);  // no line follows itself
}

// Times made from a policy's own fractions (4 cycles a hit, 17 a miss:
// the Zen 4 L1D and L2 of sim/host/host_probe) pick that policy, with the
// line it was made from, and every other policy fits worse: each
// registered policy, so that a new one is fitted without an edit here.
TEST(ReplacementFit, TimesFromAPolicyPickThatPolicy) {
  for (const std::string& truth : registered(concepts::kReplacement)) {
    const std::vector<LinePattern> pats = replacement_probe_patterns(8);
    std::vector<double> cycles;
    for (const LinePattern& p : pats) cycles.push_back(4 + 13 * pattern_miss_fraction(truth, 8, p));
    const std::vector<PolicyFit> fits = fit_replacement(pats, cycles, 8);
    ASSERT_EQ(fits[0].policy, truth);
    EXPECT_NEAR(fits[0].rms_cycles, 0, 1e-9);
    EXPECT_NEAR(fits[0].hit_cycles, 4, 1e-9);
    EXPECT_NEAR(fits[0].miss_cycles, 17, 1e-9);
    EXPECT_GT(fits[1].rms_cycles, 0.5) << truth << " vs " << fits[1].policy;
  }
}

TEST(ReplacementFit, TimesThatFallAsMissesRiseExplainNothing) {
  const std::vector<LinePattern> pats = replacement_probe_patterns(8);
  std::vector<double> cycles;
  for (const LinePattern& p : pats) cycles.push_back(17 - 13 * pattern_miss_fraction("lru", 8, p));
  const std::vector<PolicyFit> fits = fit_replacement(pats, cycles, 8);
  EXPECT_FALSE(std::isfinite(fits.back().rms_cycles));
  EXPECT_NE(describe_fits(fits).find("no fit"), std::string::npos);
  EXPECT_THROW(fit_replacement(pats, {1.0, 2.0}, 8), std::invalid_argument);
}

}  // namespace
}  // namespace ptosim::test
