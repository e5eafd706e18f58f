// Expression semantics, control flow, functions, parameters: observed
// through `print`, which writes to the test's stream.
#include <gtest/gtest.h>

#include "tests/sim/frontend/frontend_test_util.h"

namespace ptosim::test {
namespace {

std::string out_of(const std::string& program, std::vector<std::pair<std::string, std::string>> d = {}) {
  return run_text(program, std::move(d)).out;
}

TEST(Expressions, PythonArithmetic) {
  EXPECT_EQ(out_of("print(7 // 2, -7 // 2, 7 % 3, -7 % 3, 7 % -3)\n"), "3 -4 1 2 -2\n");
  EXPECT_EQ(out_of("print(7 / 2, 1 / 4, 2 ** 10, 2 ** -1, 2.0 ** 0.5)\n"), "3.5 0.25 1024 0.5 1.4142135623730951\n");
  EXPECT_EQ(out_of("print(-2 ** 2, (-2) ** 2, 2 * 3 + 4, 2 * (3 + 4), 10 - 3 - 2)\n"), "-4 4 10 14 5\n");
  EXPECT_EQ(out_of("print(7.5 // 2, -7.5 % 2, 1e-3, 1.0, 3 * 1.5)\n"), "3.0 0.5 0.001 1.0 4.5\n");
  EXPECT_EQ(out_of("print(True + 1, int(3.9), int(-3.9), float(2), abs(-3), abs(-2.5))\n"), "2 3 -3 2.0 3 2.5\n");
  EXPECT_EQ(out_of("print(min(3, 1, 2), max([4, 9, 2]), len([1, 2, 3]), len(\"abcd\"), round(2.5), round(3.5))\n"),
            "1 9 3 4 2 4\n");
  EXPECT_EQ(out_of("print(0x10, 1_000, 10 // 3 * 3 + 10 % 3)\n"), "16 1000 10\n");
}

TEST(Expressions, ComparisonsAndLogic) {
  EXPECT_EQ(out_of("x = 5\nprint(1 < x < 10, 1 < x > 7, x == 5.0, x != 5, not x)\n"), "True False True False False\n");
  // Floats print as Python's repr: positional for exponents in [-4, 16)
  // (round(100.0, 2) printed 1e+02), exponent form outside.
  EXPECT_EQ(out_of("print(round(100.0, 2), 1e2, 123456.0, 2.5e7, 1e15, 1e16, 0.0001, 1e-05, -300.0, 0.5)\n"),
            "100.0 100.0 123456.0 25000000.0 1000000000000000.0 1e+16 0.0001 1e-05 -300.0 0.5\n");
  EXPECT_EQ(out_of("print(0 or 3, 2 and 0, None or \"d\", 1 and 2)\n"), "3 0 d 2\n");
  // Short circuit: the right side would divide by zero.
  EXPECT_EQ(out_of("x = 0\nprint(x != 0 and 1 / x > 1, x == 0 or 1 / x)\n"), "False True\n");
  EXPECT_EQ(out_of("x = None\nprint(x is None, x is not None, 3 if x is None else 4)\n"), "True False 3\n");
}

// Int index arithmetic and comparison chains take a path without Values
// (int_expr.h); an operand that is not an int (a float, a bool) must land on
// the general path with Python's answer, in globals and in a function's locals.
TEST(Expressions, IntPathsFallBackOnOtherTypes) {
  EXPECT_EQ(out_of("H = 3\nx = 2\nb = True\ny = x * 3 - 1.5 + 1\nz = b + 2 - x * 3\n"
                   "print(y, z, 0 <= x < 3.5, 0 <= x < H, 1 < x == 2.0, -1 < x * 2 - 5 < 0, 0 <= x <= b)\n"),
            "5.5 -3 True True True False False\n");
  EXPECT_EQ(out_of("def f(a, c):\n    d = a * 4 - c + 1\n    return 0 <= d < 10, d\nprint(f(2, 1), f(3, 1), f(2.0, 1))\n"),
            "(True, 8) (False, 12) (True, 8.0)\n");
  // An `if` on int comparisons (IntGuard): a float or bool operand, `and`'s
  // short circuit past a name not yet bound, an index expression inside.
  EXPECT_EQ(out_of("x = 2\nb = True\nif 0 <= x < 2.5 and x == 2:\n    print(\"a\")\n"
                   "if x > 5 and zz < 1:\n    print(\"no\")\nelse:\n    print(\"short\")\n"
                   "if 0 <= x <= b:\n    print(\"no\")\nelse:\n    print(\"bool\")\n"
                   "if 1 < x * 2 - 1 < 4 and x != 3:\n    print(\"b\")\n"
                   "def g(i, n):\n    if 0 <= i < n and i * 2 >= n:\n        return 1\n    return 0\n"
                   "print(g(3, 4), g(1, 4), g(5, 4), g(3.0, 4))\nzz = 0\n"),
            "a\nshort\nbool\nb\n1 0 0 1\n");
}

TEST(Expressions, ListsTuplesStrings) {
  EXPECT_EQ(out_of("a = [1, 2, 3]\na[1] = 7\nprint(a, a[-1], a[0:2], (1,), (1, 2) + (3,))\n"),
            "[1, 7, 3] 3 [1, 7] (1,) (1, 2, 3)\n");
  EXPECT_EQ(out_of("s = \"ab\" + 'cd'\nprint(s, s[1], [0] * 3, print)\n"), "abcd b [0, 0, 0] <built-in function print>\n");
  EXPECT_EQ(out_of("a, b = 1, 2\na, b = b, a\nprint(a, b)\n"), "2 1\n");
  EXPECT_EQ(out_of("x = y = 4\nprint(x, y, str(3) + \"!\")\n"), "4 4 3!\n");
  EXPECT_EQ(out_of("print(\"a\", \"b\", sep=\"-\", end=\".\\n\")\n"), "a-b.\n");
}

TEST(ControlFlow, LoopsAndBranches) {
  EXPECT_EQ(out_of("s = 0\nfor i in range(10):\n    if i % 2 == 0:\n        continue\n    if i > 7:\n        break\n"
                   "    s += i\nprint(s)\n"),
            "16\n");
  EXPECT_EQ(out_of("for i in range(5, 0, -2):\n    print(i)\n"), "5\n3\n1\n");
  EXPECT_EQ(out_of("for i in range(3, 3):\n    print(i)\nprint(\"done\")\n"), "done\n");
  EXPECT_EQ(out_of("x = 15\nif x < 10:\n    print(\"small\")\nelif x < 20:\n    print(\"medium\")\nelse:\n"
                   "    print(\"large\")\n"),
            "medium\n");
  EXPECT_EQ(out_of("for t in [16, 32]:\n    print(t)\nfor a, b in [(1, 2), (3, 4)]:\n    print(a + b)\n"),
            "16\n32\n3\n7\n");
  EXPECT_EQ(out_of("if True: print(\"one-line\")\npass\n"), "one-line\n");
  EXPECT_EQ(out_of("x = (1 +\n     2)\ny = [1,\n  2]\nprint(x, y)  # comment\n"), "3 [1, 2]\n");
}

TEST(Functions, ArgumentsDefaultsReturns) {
  const char* p =
      "def f(a, b=10, c=100):\n"
      "    return a + b + c\n"
      "def pair(x):\n"
      "    return x, x * 2\n"
      "def nothing():\n"
      "    pass\n"
      "print(f(1), f(1, 2), f(1, c=3), f(b=0, a=5))\n"
      "u, v = pair(4)\n"
      "print(u, v, nothing())\n";
  EXPECT_EQ(out_of(p), "111 103 14 105\n4 8 None\n");
  // Locals do not leak; globals are readable.
  EXPECT_EQ(out_of("g = 3\ndef h(x):\n    y = x + g\n    return y\nprint(h(1))\n"), "4\n");
  // Return from inside a loop and a with.
  EXPECT_EQ(out_of("def first(n):\n    for i in range(n):\n        with pto.scope(\"s\"):\n            if i == 2:\n"
                   "                return i\n    return -1\nprint(first(5), first(1))\n"),
            "2 -1\n");
}

TEST(Params, DefaultsAndOverrides) {
  const char* p = "param M = 4\nparam ALPHA = 0.5\nparam NAME = \"x\"\nprint(M, ALPHA, NAME)\n";
  EXPECT_EQ(out_of(p), "4 0.5 x\n");
  EXPECT_EQ(out_of(p, {{"M", "256"}, {"ALPHA", "2"}, {"NAME", "tiled"}}), "256 2 tiled\n");
  EXPECT_EQ(out_of(p, {{"ALPHA", "1e-3"}}), "4 0.001 x\n");
}

TEST(Tensors, AttributesAndElements) {
  const char* p =
      "A = pto.tensor([2, 3], pto.float32, init=\"arange\")\n"
      "print(A.shape, A.dtype, A.memory, A.shape[1], len(A))\n"
      "print(A[1, 2], A[-1, -1], A[0, 1] + A[1, 0])\n"
      "row = A[1]\n"
      "print(row.shape, row[0])\n"
      "A[0, 0] = 2.5\n"
      "A[0, 0] += 1\n"
      "print(A[0, 0])\n"
      "I = pto.tensor([3], pto.int32, init=\"arange\")\n"
      "I[1] = 7.9\n"
      "print(I[1], I[2] // 2)\n";
  EXPECT_EQ(out_of(p), "(2, 3) pto.float32 global 3 2\n5.0 5.0 4.0\n(3,) 3.0\n3.5\n7 1\n");
}

TEST(Tensors, ScalarAccessCostsOneAccessEach) {
  ProgramRun r = run_text("A = pto.tensor([4, 4])\nx = A[1, 2]\nA[3, 3] += x\n", {}, 1000, true);
  ASSERT_EQ(r.sink.log.size(), 3u);
  EXPECT_EQ(r.sink.log[0].kind, AccessKind::Read);
  EXPECT_EQ(r.sink.log[0].bytes, 4u);
  EXPECT_EQ(r.sink.log[1].addr, r.sink.log[0].addr + (3 * 4 + 3 - (1 * 4 + 2)) * 4);
  EXPECT_EQ(r.sink.log[2].kind, AccessKind::Write);
  EXPECT_EQ(r.sink.log[2].addr, r.sink.log[1].addr);
  EXPECT_EQ(r.result.events, 3u);
}

TEST(Tensors, AugmentedElementReadsBeforeRightHandSide) {
  // Python's order for `C[i] += g()`: C[i] is read, then g() runs, then the
  // sum is stored, so what g() wrote into C[i] is overwritten. Same on the
  // fast path (variable index) and the general one (literal index).
  const char* p =
      "C = pto.zeros([2])\n"
      "def g(k):\n"
      "    C[k] = 5.0\n"
      "    return 1.0\n"
      "i = 0\n"
      "C[i] += g(i)\n"
      "C[1] += g(1)\n"
      "print(C[0], C[1])\n";
  EXPECT_EQ(run_text(p).out, "1.0 1.0\n");
}

TEST(Tensors, FillOfConstantCountsAsWrite) {
  ProgramRun r = run_text("A = pto.tensor([8, 8])\nK = pto.load(A, memory=\"constant\")\n");
  EXPECT_GT(r.sink.fills, 0u);
  EXPECT_EQ(r.sink.writes, r.sink.fills);
  EXPECT_EQ(r.sink.write_bytes, 8u * 8 * 4);
  EXPECT_EQ(r.sink.read_bytes, 8u * 8 * 4);
  EXPECT_EQ(r.sink.global_read_bytes, 8u * 8 * 4);
  EXPECT_EQ(r.sink.global_write_bytes, 0u);
}

TEST(Tensors, ViewsCostNothing) {
  ProgramRun r = run_text("A = pto.tensor([64, 64])\nv = A[8:16, :]\nw = v[2:4, 10:20]\nt = pto.transpose(A)\n", {}, 1000);
  EXPECT_EQ(r.sink.reads + r.sink.writes, 0u);
}

TEST(Tensors, OperatorsOnTensors) {
  const char* p =
      "A = pto.tensor([2, 2], init=\"arange\")\n"
      "B = A * 2 + 1\n"
      "C = -A\n"
      "D = A @ A\n"
      "A += 1\n"
      "print(B[1, 1], C[1, 0], D[0, 0], D[1, 1], A[0, 0])\n";
  EXPECT_EQ(out_of(p), "7.0 -2.0 2.0 11.0 1.0\n");
}

TEST(Tensors, SliceAssignment) {
  const char* p =
      "C = pto.tensor([4, 4])\n"
      "t = pto.ones([2, 4])\n"
      "C[0:2, :] = t\n"
      "C[2:4, :] = 3.0\n"
      "C[2:4, :] += t\n"
      "print(C[1, 3], C[3, 0])\n";
  EXPECT_EQ(out_of(p), "1.0 4.0\n");
}

}  // namespace
}  // namespace ptosim::test
