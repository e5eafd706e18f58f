// `T[...] += A[...] * B[...]` runs as one node (FastMacStmt), and as a
// whole loop when it is the loop's only statement (FusedLoop): these check
// that both give, event for event, what the tree gives for the same
// arithmetic written `T[...] = T[...] + A[...] * B[...]` (same reads, same
// order, same values, same flops), over strides, steps, aliasing, dtypes
// and the cases that must fall back (int tensors, out of bounds, event limit).
#include <gtest/gtest.h>

#include <string>

#include "tests/sim/frontend/frontend_test_util.h"

namespace ptosim::test {
namespace {

// Replaces every "@=" by "+=" (the fast form) or by the tree's spelling,
// "T[...] = T[...] +" (the target is what precedes "@=").
std::string spell(const std::string& text, bool fast) {
  std::string out;
  size_t line_start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') line_start = out.size() + 1;
    if (text.compare(i, 2, "@=") == 0) {
      if (fast) {
        out += "+=";
      } else {
        const size_t indent = out.find_first_not_of(' ', line_start);
        std::string target = out.substr(indent, out.size() - indent);
        while (!target.empty() && target.back() == ' ') target.pop_back();
        out += "= " + target + " +";
      }
      ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

void expect_same_run(const std::string& text, uint64_t max_events = 2'000'000'000ull) {
  SCOPED_TRACE(text);
  ProgramRun fast = run_text(spell(text, true), {}, max_events, true);
  ProgramRun tree = run_text(spell(text, false), {}, max_events, true);
  expect_same_events(fast, tree);
  EXPECT_GT(fast.sink.log.size(), 0u);
}

TEST(FastMac, NaiveMatmulEqualsTheTree) {
  expect_same_run(
      "A = pto.tensor([7, 5], init=\"random\", seed=1)\n"
      "B = pto.tensor([5, 6], init=\"random\", seed=2)\n"
      "C = pto.tensor([7, 6], init=\"random\", seed=3)\n"
      "for i in range(7):\n"
      "    for j in range(6):\n"
      "        for k in range(5):\n"
      "            C[i, j] @= A[i, k] * B[k, j]\n"
      "print(C[3, 4], C[6, 5])\n");
}

TEST(FastMac, StepsAndDirectionsEqualTheTree) {
  for (const char* range : {"range(1, 40, 3)", "range(39, -1, -1)", "range(38, 2, -5)", "range(5, 5)"}) {
    expect_same_run(std::string("A = pto.tensor([40, 3], init=\"random\", seed=1)\n"
                                "B = pto.tensor([3, 40], init=\"random\", seed=2)\n"
                                "C = pto.tensor([3, 40], init=\"random\", seed=3)\n"
                                "for j in range(3):\n"
                                "    for k in ") +
                    range + ":\n" +
                    "        C[j, k] @= A[k, j] * B[j, k]\n"
                    "    print(C[j, 7])\n");
  }
}

TEST(FastMac, FourDimensionsAndALoopInsideAFunction) {
  expect_same_run(
      "X = pto.tensor([1, 2, 5, 5], init=\"random\", seed=1)\n"
      "W = pto.tensor([3, 2, 5, 5], init=\"random\", seed=2)\n"
      "Y = pto.zeros([1, 3, 5, 5])\n"
      "def conv(n, f, c, h):\n"
      "    for w in range(5):\n"
      "        Y[n, f, h, w] @= X[n, c, h, w] * W[f, c, h, w]\n"
      "for f in range(3):\n"
      "    for c in range(2):\n"
      "        for h in range(5):\n"
      "            conv(0, f, c, h)\n"
      "print(Y[0, 2, 4, 4])\n");
}

TEST(FastMac, AliasedOperandsEqualTheTree) {
  // The target is also an operand: its old value is read before the product.
  expect_same_run(
      "A = pto.tensor([6, 6], init=\"random\", seed=1)\n"
      "for i in range(6):\n"
      "    for k in range(6):\n"
      "        A[i, i] @= A[i, k] * A[k, i]\n"
      "print(A[2, 2], A[5, 5])\n");
}

TEST(FastMac, OtherDtypesAndIntTensorsEqualTheTree) {
  // float16 rounds at the store; int tensors take the general path.
  for (const char* dt : {"pto.float16", "pto.bfloat16", "pto.int32", "pto.int8"}) {
    expect_same_run(std::string("A = pto.tensor([9, 2], ") + dt + ", init=\"arange\")\n" +
                    "B = pto.tensor([9, 2], " + dt + ", init=\"arange\")\n" + "C = pto.tensor([9, 2], " + dt +
                    ")\n"
                    "for i in range(2):\n"
                    "    for k in range(9):\n"
                    "        C[k, i] @= A[k, i] * B[k, i]\n"
                    "print(C[8, 1])\n");
  }
}

TEST(FastMac, MixedWithOtherStatementsEqualsTheTree) {
  // Two statements in the loop: the node alone, without the fused loop.
  expect_same_run(
      "A = pto.tensor([8, 8], init=\"random\", seed=1)\n"
      "C = pto.tensor([8, 1], init=\"random\", seed=3)\n"
      "s = 0.0\n"
      "z = 0\n"
      "for i in range(8):\n"
      "    for k in range(8):\n"
      "        C[i, z] @= A[i, k] * A[k, i]\n"
      "        s = s + 1.0\n"
      "print(C[3, 0], s)\n");
}

// An error's first line after its position (the columns and the quoted
// source line differ between the spellings).
std::string message(const std::string& error) {
  const size_t at = error.find(": ");
  const std::string m = at == std::string::npos ? error : error.substr(at);
  return m.substr(0, m.find('\n'));
}

TEST(FastMac, OutOfBoundsIsTheSameError) {
  const std::string p =
      "A = pto.tensor([4, 4])\n"
      "C = pto.tensor([4, 1])\n"
      "z = 0\n"
      "for i in range(4):\n"
      "    for k in range(6):\n"
      "        C[i, z] @= A[i, k] * A[i, i]\n";
  const std::string fast = error_of(spell(p, true)), tree = error_of(spell(p, false));
  EXPECT_EQ(fast.rfind("t.pto:6:", 0), 0u) << fast;
  EXPECT_NE(fast.find("out of"), std::string::npos) << fast;
  EXPECT_EQ(message(fast), message(tree));
}

TEST(FastMac, EventLimitIsTheSameError) {
  const std::string p =
      "A = pto.tensor([4, 4])\n"
      "C = pto.tensor([4, 1])\n"
      "z = 0\n"
      "for i in range(4):\n"
      "    for k in range(4):\n"
      "        C[i, z] @= A[i, k] * A[k, i]\n";
  const std::string fast = error_of(spell(p, true), {}, 30), tree = error_of(spell(p, false), {}, 30);
  EXPECT_EQ(fast.rfind("t.pto:6:", 0), 0u) << fast;
  EXPECT_NE(fast.find("event limit 30 exceeded"), std::string::npos) << fast;
  EXPECT_EQ(message(fast), message(tree));
}

}  // namespace
}  // namespace ptosim::test
