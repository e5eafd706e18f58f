// A loop nest of int assignments, int guards, multiply-adds and range loops
// runs in a flat form (sim/frontend/flat_loop.h): these check that the
// naive nests do, and that every run gives, event for event, what the same
// program gives with every loop run as its statement tree (the same text,
// ProgramOptions::flat_loops off): accesses with their sites and
// dependences, flops, printed values, variables after the loops, and the
// same errors at the same positions, over the cases that leave the fast
// path (names not ints, overflows, negative indices, int tensors, a heap
// value overwritten, limits).
#include <gtest/gtest.h>

#include <string>

#include "sim/frontend/compiler.h"
#include "sim/frontend/flat_loop.h"
#include "sim/frontend/parser.h"
#include "tests/sim/frontend/frontend_test_util.h"

namespace ptosim::test {
namespace {

void expect_same_run(const std::string& text, uint64_t max_events = 2'000'000'000ull) {
  SCOPED_TRACE(text);
  ProgramRun flat = run_text(text, {}, max_events, true, true);
  ProgramRun tree = run_text(text, {}, max_events, true, false);
  expect_same_events(flat, tree);
  EXPECT_EQ(flat.warnings, tree.warnings);
}

void expect_same_error(const std::string& text, const std::string& expected, uint64_t max_events = 2'000'000'000ull) {
  SCOPED_TRACE(text);
  const std::string flat = error_of(text, {}, max_events, true), tree = error_of(text, {}, max_events, false);
  EXPECT_NE(flat.find(expected), std::string::npos) << flat;
  EXPECT_EQ(flat, tree);
}

// conv2d_basic's seven loops, with a stride, padding and a guard that fails
// at the borders.
const char* kConv =
    "X = pto.tensor([2, 3, 7, 6], init=\"random\", seed=1)\n"
    "Wt = pto.tensor([4, 3, 3, 3], init=\"random\", seed=2)\n"
    "STRIDE = 2\n"
    "PAD = 1\n"
    "H = 7\n"
    "W = 6\n"
    "OH = (H + 2 * PAD - 3) // STRIDE + 1\n"
    "OW = (W + 2 * PAD - 3) // STRIDE + 1\n"
    "Y = pto.zeros([2, 4, OH, OW])\n"
    "with pto.scope(\"conv\"):\n"
    "    for n in range(2):\n"
    "        for f in range(4):\n"
    "            for h_out in range(OH):\n"
    "                for w_out in range(OW):\n"
    "                    for c in range(3):\n"
    "                        for hh in range(3):\n"
    "                            for ww in range(3):\n"
    "                                h_in = h_out * STRIDE - PAD + hh\n"
    "                                w_in = w_out * STRIDE - PAD + ww\n"
    "                                if 0 <= h_in < H and 0 <= w_in < W:\n"
    "                                    Y[n, f, h_out, w_out] += X[n, c, h_in, w_in] * Wt[f, c, hh, ww]\n"
    "print(Y[1, 3, OH - 1, OW - 1], Y[0, 0, 0, 0], h_in, w_in, ww, n)\n";

// matmul_naive's three loops, j walked backwards.
const char* kMatmul =
    "M = 6\n"
    "A = pto.tensor([M, 5], init=\"random\", seed=4)\n"
    "B = pto.tensor([5, 4], init=\"random\", seed=5)\n"
    "C = pto.zeros([M, 4])\n"
    "with pto.scope(\"mm\"):\n"
    "    for i in range(M):\n"
    "        for j in range(3, -1, -1):\n"
    "            for k in range(5):\n"
    "                C[i, j] += A[i, k] * B[k, j]\n"
    "print(C[5, 3], C[0, 0], i, j, k)\n";

// The first top-level statement that is a range loop, inside `with` blocks too.
using frontend::ForRangeStmt;

const ForRangeStmt* first_loop(const frontend::BlockNode& b) {
  for (const frontend::SNodeP& s : b.stmts) {
    if (auto* l = dynamic_cast<const ForRangeStmt*>(s.get())) return l;
    if (auto* w = dynamic_cast<const frontend::WithStmt*>(s.get()))
      if (const ForRangeStmt* l = first_loop(w->body)) return l;
  }
  return nullptr;
}

bool outer_loop_is_flat(const std::string& text) {
  std::unique_ptr<frontend::Program> p = frontend::compile_program(frontend::parse_program(text));
  const ForRangeStmt* l = first_loop(p->main);
  return l && l->flat && l->fused == l->flat.get() && dynamic_cast<const frontend::FlatLoop*>(l->fused);
}

TEST(FlatLoop, TheNaiveNestsAreFlatAndOthersAreNot) {
  EXPECT_TRUE(outer_loop_is_flat(kConv));
  EXPECT_TRUE(outer_loop_is_flat(kMatmul));
  EXPECT_FALSE(outer_loop_is_flat("for i in range(3):\n    print(i)\n"));
  EXPECT_FALSE(outer_loop_is_flat("x = 0\nfor i in range(3):\n    if i < 2:\n        x = i\n    else:\n        x = 0\n"));
  EXPECT_FALSE(outer_loop_is_flat("for i in range(3):\n    for j in range(3):\n        break\n"));
  // One multiply-add alone runs its own loop (fast_mac.h), not a flat one.
  EXPECT_FALSE(outer_loop_is_flat("A = pto.zeros([4])\nfor i in range(4):\n    A[i] += A[i] * A[i]\n"));
}

TEST(FlatLoop, Conv2dEqualsTheTree) { expect_same_run(kConv); }

TEST(FlatLoop, NaiveMatmulEqualsTheTree) { expect_same_run(kMatmul); }

TEST(FlatLoop, BoundsStepsAndEmptyLoopsEqualTheTree) {
  // Chained bounds, negative steps, inner loops of no iteration the first
  // time (their statements' sites are numbered when they first run), and a
  // multiply-add's own loop inside the nest.
  expect_same_run(
      "N = 6\n"
      "A = pto.tensor([N, N], init=\"random\", seed=1)\n"
      "C = pto.zeros([N, N])\n"
      "for i in range(1, N - 1, 2):\n"
      "    for j in range(i - 1):\n"
      "        k = j * 2 - 1 + i\n"
      "        if 0 <= k < N:\n"
      "            C[i, j] += A[i, k] * A[k, j]\n"
      "    for j in range(N - 1, -1, -2):\n"
      "        C[i, j] += A[j, i] * A[i, j]\n"
      "print(C[3, 1], C[1, 5], i, j, k)\n");
}

TEST(FlatLoop, AffinePlansEqualTheTree) {
  // Planned (flat_plan.cpp): chains of loop variables and names the nest
  // does not write, two multiply-adds, nested guards, an index out of its
  // dimension at some iterations only (negative: the general path), an
  // index loaded from memory (its event is the address's dependence), a
  // product near the int64 limit that stays under it, sibling loops, a
  // descending loop.
  expect_same_run(
      "A = pto.tensor([6, 7], init=\"random\", seed=3)\n"
      "B = pto.tensor([7, 5], init=\"random\", seed=4)\n"
      "I = pto.tensor([2], pto.int32, init=\"zeros\")\n"
      "C = pto.zeros([5, 5])\n"
      "o = I[1]\n"
      "K = 2305843009213693951\n"
      "for i in range(4, -1, -1):\n"
      "    a = i * 2 - 3\n"
      "    e = i - 1\n"
      "    for j in range(0, 5, 2):\n"
      "        b = j * K\n"
      "        for k in range(7):\n"
      "            m = k - a + o\n"
      "            if m >= 0:\n"
      "                if m < 7 and j < 5:\n"
      "                    C[i, j] += A[i, m] * B[m, j]\n"
      "            C[j, i] += A[a, k] * B[k, e]\n"
      "    for jj in range(2):\n"
      "        t = jj + 1\n"
      "        C[i, t] += A[jj, i] * B[i, jj]\n"
      "print(C[4, 4], C[0, 1], C[2, 0], i, j, k, a, b, m, jj, t)\n");
  // Refused: a name read before the nest writes it (the last iteration's
  // value), a product of two loop variables, a bound that moves, an
  // assignment under a guard, a chain whose bound (not its value) passes
  // the int64 limit, an inner loop of no iteration.
  expect_same_run(
      "A = pto.tensor([6, 6], init=\"random\", seed=8)\n"
      "C = pto.zeros([6, 6])\n"
      "K = 4611686018427387903\n"
      "x = 1\n"
      "y = 0\n"
      "for i in range(6):\n"
      "    for j in range(6):\n"
      "        C[i, x] += A[i, j] * A[j, x]\n"
      "        x = j\n"
      "for i in range(3):\n"
      "    for j in range(3):\n"
      "        p = i * j\n"
      "        C[p, j] += A[i, p] * A[j, i]\n"
      "for i in range(4):\n"
      "    for j in range(i, 6):\n"
      "        C[i, j] += A[j, i] * A[i, j]\n"
      "for i in range(6):\n"
      "    if i > 2:\n"
      "        y = i - 3\n"
      "    C[i, y] += A[y, i] * A[i, i]\n"
      "for i in range(3):\n"
      "    for j in range(2):\n"
      "        z = (j - j + 2) * K\n"
      "        if j < 1:\n"
      "            C[i, j] += A[i, i] * A[j, j]\n"
      "for i in range(3):\n"
      "    for j in range(x - 5):\n"
      "        C[i, j] += A[i, j] * A[j, i]\n"
      "print(C[5, 5], C[0, 1], C[3, 0], C[2, 1], x, y, z, i, j)\n");
  // A plan's event limit: the same error at the same multiply-add.
  expect_same_error(
      "A = pto.tensor([8, 8])\n"
      "C = pto.tensor([8, 8])\n"
      "for i in range(8):\n"
      "    for j in range(8):\n"
      "        h = j - 1\n"
      "        if 0 <= h:\n"
      "            C[i, j] += A[i, h] * A[h, j]\n",
      "event limit 50 exceeded", 50);
}

TEST(FlatLoop, IndicesWrittenAroundTheirLoopsEqualTheTree) {
  // What an element's address keeps for an iteration of an outer loop
  // (hoisting): indices written after the inner loop, in a sibling loop,
  // from one iteration to the next, and a multiply-add in the outer body.
  expect_same_run(
      "A = pto.tensor([6, 6], init=\"random\", seed=7)\n"
      "C = pto.zeros([6, 6])\n"
      "r = 0\n"
      "s = 1\n"
      "for i in range(6):\n"
      "    for j in range(6):\n"
      "        C[r, s] += A[i, j] * A[s, r]\n"
      "        t = j + r\n"
      "        u = r * 2 + s\n"
      "    r = s + 0\n"
      "    for q in range(2):\n"
      "        s = i - q\n"
      "    C[s, r] += A[r, s] * A[i, i]\n"
      "print(C[1, 2], C[5, 4], r, s, t, u)\n");
}

TEST(FlatLoop, LocalsOfAFunctionEqualTheTree) {
  expect_same_run(
      "X = pto.tensor([3, 5], init=\"random\", seed=1)\n"
      "Y = pto.zeros([3, 5])\n"
      "def smooth(reps):\n"
      "    for r in range(reps):\n"
      "        for i in range(3):\n"
      "            for j in range(5):\n"
      "                jj = j + r - 1\n"
      "                if 0 <= jj < 5:\n"
      "                    Y[i, j] += X[i, jj] * X[i, j]\n"
      "    return jj\n"
      "print(smooth(2), smooth(3), Y[2, 4])\n");
}

TEST(FlatLoop, NamesThatAreNotIntsTakeTheTree) {
  // A bool in a chain, a float in a guard: those statements run as the tree
  // runs them, the rest of the nest stays flat.
  expect_same_run(
      "A = pto.tensor([6], init=\"arange\")\n"
      "C = pto.zeros([6])\n"
      "ONE = True\n"
      "s = 2.5\n"
      "for i in range(6):\n"
      "    j = i * ONE\n"
      "    t = i + 0\n"
      "    if 0 <= j < 6 and j != s:\n"
      "        C[j] += A[i] * A[t]\n"
      "print(C[5], C[2], j, t)\n");
}

TEST(FlatLoop, NegativeIndicesAndIntTensorsTakeTheTree) {
  // A negative index counts from the end (the tree's general path).
  expect_same_run(
      "A = pto.tensor([5], init=\"arange\")\n"
      "C = pto.zeros([5])\n"
      "for i in range(5):\n"
      "    h = i - 2\n"
      "    C[i] += A[h] * A[i]\n"
      "print(C[0], C[4])\n");
  expect_same_run(
      "A = pto.tensor([4, 3], pto.int32, init=\"arange\")\n"
      "C = pto.tensor([4, 3], pto.int32)\n"
      "for i in range(4):\n"
      "    for k in range(3):\n"
      "        kk = 2 - k\n"
      "        C[i, k] += A[i, kk] * A[i, k]\n"
      "print(C[3, 2])\n");
}

TEST(FlatLoop, AHeapValueOverwrittenTakesTheTree) {
  expect_same_run(
      "A = pto.tensor([3], init=\"arange\")\n"
      "x = pto.zeros([2])\n"
      "for i in range(3):\n"
      "    x = i + 0\n"
      "    A[x] += A[i] * A[x]\n"
      "print(x, A[2])\n");
}

TEST(FlatLoop, ErrorsAreTheTreesAtTheSamePositions) {
  expect_same_error(
      "A = pto.tensor([4, 4])\n"
      "for i in range(4):\n"
      "    for k in range(6):\n"
      "        j = k + 0\n"
      "        A[i, j] += A[i, k] * A[i, i]\n",
      "t.pto:5:");
  expect_same_error(
      "A = pto.tensor([4, 4])\n"
      "z = 4\n"
      "for i in range(4):\n"
      "    for k in range(4):\n"
      "        j = k + 0\n"
      "        A[i, j] += A[z, k] * A[i, i]\n",
      "t.pto:6:");
  expect_same_error(
      "BIG = 4611686018427387904\n"
      "for i in range(4):\n"
      "    for k in range(3):\n"
      "        j = k * BIG + i * BIG\n",
      "t.pto:4:");
  expect_same_error(
      "N = 2.0\n"
      "x = 0\n"
      "for i in range(3):\n"
      "    for k in range(N):\n"
      "        x = k + i\n",
      "t.pto:4:");
  expect_same_error(
      "Z = 0\n"
      "x = 0\n"
      "for i in range(3):\n"
      "    for k in range(0, 4, Z):\n"
      "        x = k + i\n",
      "t.pto:4:");
  expect_same_error(
      "x = 0\n"
      "for i in range(3):\n"
      "    for k in range(4):\n"
      "        x = k + undefined_later\n"
      "undefined_later = 1\n",
      "t.pto:4:");
}

TEST(FlatLoop, LimitsAreTheSameErrors) {
  // max_events 1000: 10^6 loop iterations and calls; the second inner loop
  // would pass them and is refused before it starts.
  expect_same_error(
      "x = 0\n"
      "for i in range(3):\n"
      "    for k in range(600000):\n"
      "        x = k + i\n",
      "iteration limit exceeded", 1000);
  expect_same_error(
      "A = pto.tensor([4, 4])\n"
      "C = pto.tensor([4, 4])\n"
      "for i in range(4):\n"
      "    for j in range(4):\n"
      "        for k in range(4):\n"
      "            C[i, j] += A[i, k] * A[k, j]\n"
      "        x = j * 2\n",
      "event limit 30 exceeded", 30);
}

}  // namespace
}  // namespace ptosim::test
