// Scalar float arithmetic written in the program is compute work: counted
// by kind with the op cost table, batched into Compute events, tagged with
// the region it ran in; integer (index) arithmetic and the arguments of
// checks cost nothing.
#include <gtest/gtest.h>

#include <map>

#include "sim/exec/exec_context.h"
#include "tests/sim/frontend/frontend_test_util.h"

namespace ptosim::test {
namespace {

uint64_t flops_of_op(const CountingSink& s, exec::OpKind op) {
  uint64_t f = 0;
  for (const Compute& c : s.computes)
    if (c.op == uint16_t(op)) f += c.flops;
  return f;
}

TEST(ScalarFlops, NaiveMatmulCountsTwoPerMultiplyAccumulate) {
  const char* p =
      "A = pto.tensor([6, 7], init=\"random\", seed=1)\n"
      "B = pto.tensor([7, 5], init=\"random\", seed=2)\n"
      "C = pto.tensor([6, 5])\n"
      "for i in range(6):\n"
      "    for j in range(5):\n"
      "        for k in range(7):\n"
      "            C[i, j] += A[i, k] * B[k, j]\n"
      "pto.check(C, pto.ref.matmul(A, B), rtol=1e-4, atol=1e-5 * 7)\n";
  ProgramRun r = run_text(p);
  EXPECT_EQ(r.sink.flops, 2u * 6 * 5 * 7);
  EXPECT_EQ(flops_of_op(r.sink, exec::OpKind::Multiply), 210u);
  EXPECT_EQ(flops_of_op(r.sink, exec::OpKind::Add), 210u);
  // 420 operations: one batch of 256 (two events: the adds and the
  // multiplies so far), the rest at the end.
  EXPECT_EQ(r.sink.computes.size(), 4u);
  ASSERT_EQ(r.result.checks.size(), 1u);
  EXPECT_TRUE(r.result.all_checks_passed());
}

TEST(ScalarFlops, IntegerArithmeticIsNotCompute) {
  ProgramRun r = run_text("s = 0\nfor i in range(100):\n    s = s + i * 2 - i // 3 % 2\nprint(s)\n");
  EXPECT_EQ(r.sink.flops, 0u);
  EXPECT_TRUE(r.sink.computes.empty());
}

TEST(ScalarFlops, CostTableWeighsEachKind) {
  // divide 4, ** as exp 8, neg 1, abs 1, pto.exp on a scalar 8, int/float mix 1.
  ProgramRun r = run_text(
      "A = pto.ones([2])\n"
      "x = A[0] / 3.0\n"
      "y = x ** 2.0\n"
      "z = -y\n"
      "w = abs(z)\n"
      "e = pto.exp(1.5)\n"
      "m = A[1] * 2\n");
  EXPECT_EQ(flops_of_op(r.sink, exec::OpKind::Divide), 4u);
  EXPECT_EQ(flops_of_op(r.sink, exec::OpKind::Exp), 16u);
  EXPECT_EQ(flops_of_op(r.sink, exec::OpKind::Neg), 1u);
  EXPECT_EQ(flops_of_op(r.sink, exec::OpKind::Abs), 1u);
  EXPECT_EQ(flops_of_op(r.sink, exec::OpKind::Multiply), 1u);
  EXPECT_EQ(r.sink.flops, 4u + 16 + 1 + 1 + 1);
}

TEST(ScalarFlops, FlushedAtRegionBoundariesWithTheirRegion) {
  ProgramRun r = run_text(
      "A = pto.ones([4])\n"
      "a = A[0] + 1.0\n"
      "with pto.scope(\"inner\"):\n"
      "    b = A[1] * 3.0\n"
      "    c = b * b\n"
      "d = A[2] - 1.0\n");
  // Lines 4 and 5 are two statements: two batches, both in "inner".
  ASSERT_EQ(r.sink.computes.size(), 4u);
  EXPECT_EQ(r.sink.computes[0].op, uint16_t(exec::OpKind::Add));
  EXPECT_EQ(r.sink.computes[0].region, 0u);
  for (size_t i : {1, 2}) {
    EXPECT_EQ(r.sink.computes[i].op, uint16_t(exec::OpKind::Multiply));
    EXPECT_EQ(r.sink.computes[i].flops, 1u);
    EXPECT_NE(r.sink.computes[i].region, 0u);
  }
  EXPECT_EQ(r.sink.computes[3].op, uint16_t(exec::OpKind::Subtract));
  EXPECT_EQ(r.sink.computes[3].region, 0u);
}

// A batch holds one statement's operations, tagged with its site, whatever
// statement runs when it is handed over; the loop around a one-line body
// does not cut its batches.
TEST(ScalarFlops, ABatchIsOneStatements) {
  ProgramRun r = run_text(
      "x = 0.0\n"
      "y = 1.0\n"
      "for i in range(300):\n"
      "    x = x + 1.0\n"
      "    y = y * 1.0\n"
      "for i in range(300):\n"
      "    x = x - 1.0\n");
  ASSERT_EQ(r.sink.computes.size(), 600u + 2u);  // alternating lines 4, 5; then 256 + 44 of line 7
  std::map<SiteId, uint64_t> by_site;
  for (const Compute& c : r.sink.computes) by_site[c.site] += c.flops;
  ASSERT_EQ(by_site.size(), 3u);
  for (auto& [site, flops] : by_site) EXPECT_EQ(flops, 300u) << "site " << site;
  EXPECT_EQ(r.sink.computes[600].flops, 256u);
  EXPECT_EQ(r.sink.computes[601].flops, 44u);
  EXPECT_EQ(r.sink.computes[600].site, r.sink.computes[601].site);
  EXPECT_NE(r.sink.computes[0].site, r.sink.computes[1].site);
}

TEST(ScalarFlops, ComeBeforeTheNextOpsCompute) {
  ProgramRun r = run_text("A = pto.ones([4])\nx = A[0] * 2.0\nB = pto.exp(A)\n");
  ASSERT_EQ(r.sink.computes.size(), 2u);
  EXPECT_EQ(r.sink.computes[0].op, uint16_t(exec::OpKind::Multiply));
  EXPECT_EQ(r.sink.computes[1].op, uint16_t(exec::OpKind::Exp));
  EXPECT_EQ(r.sink.computes[1].flops, 4u * 8);
}

}  // namespace
}  // namespace ptosim::test
