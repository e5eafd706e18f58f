// induction_streams (sim/frontend/induction_streams.h): the distinct
// non-zero address strides between two iterations, at least one.
#include "sim/frontend/induction_streams.h"

#include <gtest/gtest.h>

namespace ptosim::test {
namespace {

using frontend::induction_streams;

TEST(InductionStreams, CountsDistinctNonZeroStrides) {
  EXPECT_EQ(induction_streams({0, 100, 200}, {4, 104, 204}), 1u);          // one stride shared: an index
  EXPECT_EQ(induction_streams({0, 1000}, {4, 1512}), 2u);                  // +4 and +512: two pointers
  EXPECT_EQ(induction_streams({0, 1000, 2000}, {4, 1512, 2000}), 2u);      // a fixed address needs none
  EXPECT_EQ(induction_streams({0, 8, 16}, {2048, 12, 20}), 2u);
  EXPECT_EQ(induction_streams({100, 0}, {96, 4}), 2u);                     // -4 and +4 differ
}

TEST(InductionStreams, NoCommonPatternIsOneStream) {
  EXPECT_EQ(induction_streams({}, {}), 1u);
  EXPECT_EQ(induction_streams({0, 8}, {4}), 1u);   // a branch took another path
  EXPECT_EQ(induction_streams({0, 8}, {0, 8}), 1u);  // nothing moves: the counter alone
}

}  // namespace
}  // namespace ptosim::test
