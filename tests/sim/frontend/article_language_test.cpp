// The Python the article's snippets are written in (issue 28): `import pypto
// as pto`, dicts, `**kwargs`, keyword-only parameters, `C.assign(v)`,
// scalar operands of elementwise ops; and the scopes that used to do nothing
// without a word (tile_m keys, a pto.reuse with no hit, a view bound inside
// pto.memory). The errors are in bad_programs_test.cpp.
#include <gtest/gtest.h>

#include "tests/sim/frontend/frontend_test_util.h"

namespace ptosim::test {
namespace {

std::string out_of(const std::string& program) { return run_text(program).out; }

TEST(ArticleImport, PyptoAsPto) {
  EXPECT_EQ(out_of("import pypto as pto\nimport pto\nimport pto as pto\nprint(pto.float32)\n"), "pto.float32\n");
}

TEST(Dicts, LiteralIndexAndUpdate) {
  EXPECT_EQ(out_of("d = {\"a\": 1, \"b\": 2.5}\nd[\"c\"] = 3\nd[\"a\"] += 10\nprint(d, len(d), d[\"b\"])\n"),
            "{'a': 11, 'b': 2.5, 'c': 3} 3 2.5\n");
  // 1, 1.0 and True are one key, as in Python; tuples are keys too.
  EXPECT_EQ(out_of("d = {1: \"x\"}\nd[1.0] = \"y\"\nd[(2, 3)] = 4\nprint(d[True], d[2, 3], {}, bool({}), bool(d))\n"),
            "y 4 {} False True\n");
  EXPECT_EQ(out_of("print({\"a\": 1, \"b\": 2} == {\"b\": 2, \"a\": 1}, {\"a\": 1} == {\"a\": 2})\n"), "True False\n");
}

TEST(Dicts, MethodsAndIteration) {
  EXPECT_EQ(out_of("d = {\"x\": 1, \"y\": 2}\nprint(d.get(\"x\"), d.get(\"z\"), d.get(\"z\", 0))\n"), "1 None 0\n");
  EXPECT_EQ(out_of("d = {\"x\": 1, \"y\": 2}\nfor k in d:\n    print(k)\nfor k, v in d.items():\n    print(k, v)\n"
                   "print(d.keys(), d.values())\n"),
            "x\ny\nx 1\ny 2\n['x', 'y'] [1, 2]\n");
  // A dict built in a loop keeps insertion order.
  EXPECT_EQ(out_of("d = {}\nfor i in range(3):\n    d[\"dim_\" + str(i)] = 16\nprint(d)\n"),
            "{'dim_0': 16, 'dim_1': 16, 'dim_2': 16}\n");
}

TEST(Lists, Append) { EXPECT_EQ(out_of("r = []\nfor i in range(3):\n    r.append(i * i)\nprint(r, len(r))\n"), "[0, 1, 4] 3\n"); }

TEST(Kwargs, CallSiteSplat) {
  EXPECT_EQ(out_of("def f(a, b=2, c=3):\n    return a * 100 + b * 10 + c\nprint(f(1, **{\"c\": 9}), f(**{\"a\": 4, \"b\": 5}))\n"),
            "129 453\n");
  // Builtins and pto ops bind a splat like written keywords.
  EXPECT_EQ(out_of("spec = {\"shape\": [2, 3], \"memory\": \"shared\"}\nA = pto.tensor(**spec)\nprint(A.shape, A.memory)\n"
                   "print(max(1, 5, **{}))\n"),
            "(2, 3) shared\n5\n");
}

TEST(Kwargs, DefParameterCollectsTheRest) {
  EXPECT_EQ(out_of("def f(a, **kw):\n    return a, kw\nprint(f(1), f(1, x=2, **{\"y\": 3}))\n"),
            "(1, {}) (1, {'x': 2, 'y': 3})\n");
}

TEST(Kwargs, KeywordOnlyParameters) {
  EXPECT_EQ(out_of("def f(a, *, scale=2, bias):\n    return a * scale + bias\nprint(f(3, bias=1), f(a=3, scale=1, bias=0))\n"),
            "7 3\n");
}

TEST(Kwargs, TileFromADict) {
  // The article's 5.2 / 6.2: `with pto.tile(**strategy)` tiles as written keywords do.
  const char* prelude = "A = pto.tensor([32, 32], init=\"random\", seed=1)\nB = pto.tensor([32, 32], init=\"random\", seed=2)\n";
  ProgramRun splat = run_text(std::string(prelude) + "s = {\"M\": 8, \"N\": 8, \"K\": 8}\nwith pto.tile(**s):\n"
                                                     "    C = pto.matmul(A, B)\npto.check(C, pto.ref.matmul(A, B))\n");
  ProgramRun kw = run_text(std::string(prelude) + "with pto.tile(M=8, N=8, K=8):\n    C = pto.matmul(A, B)\n");
  EXPECT_TRUE(splat.result.all_checks_passed());
  EXPECT_EQ(splat.sink.reads, kw.sink.reads);
  EXPECT_EQ(splat.sink.writes, kw.sink.writes);
}

TEST(TileKeys, ArticleSpellingsTileLikeMNK) {
  const char* prelude = "A = pto.tensor([32, 32], init=\"random\", seed=1)\nB = pto.tensor([32, 32], init=\"random\", seed=2)\n";
  ProgramRun article = run_text(std::string(prelude) + "with pto.tile(tile_m=8, tile_n=16, tile_k=4):\n    C = pto.matmul(A, B)\n");
  ProgramRun mnk = run_text(std::string(prelude) + "with pto.tile(M=8, N=16, K=4):\n    C = pto.matmul(A, B)\n");
  ProgramRun untiled = run_text(std::string(prelude) + "C = pto.matmul(A, B)\n");
  EXPECT_EQ(article.sink.reads, mnk.sink.reads);
  EXPECT_EQ(article.sink.read_bytes, mnk.sink.read_bytes);
  EXPECT_NE(article.sink.reads, untiled.sink.reads);  // it did tile
}

TEST(TensorAssign, SameEventsAsSliceAssignment) {
  const char* prelude = "A = pto.tensor([16, 16], init=\"random\", seed=1)\nC = pto.tensor([16, 16])\n";
  ProgramRun assign = run_text(std::string(prelude) + "C.assign(A)\npto.check(C, A)\n", {}, 2'000'000'000ull, true);
  ProgramRun slice = run_text(std::string(prelude) + "C[:, :] = A\n", {}, 2'000'000'000ull, true);
  EXPECT_TRUE(assign.result.all_checks_passed());
  ASSERT_EQ(assign.sink.log.size(), slice.sink.log.size());
  for (size_t k = 0; k < slice.sink.log.size(); ++k) {
    EXPECT_EQ(assign.sink.log[k].addr, slice.sink.log[k].addr) << k;
    EXPECT_EQ(assign.sink.log[k].bytes, slice.sink.log[k].bytes) << k;
    EXPECT_EQ(assign.sink.log[k].kind, slice.sink.log[k].kind) << k;
  }
  // A number fills the tensor, as `C[...] = 2.0` does.
  EXPECT_EQ(out_of("C = pto.tensor([2, 2])\nC.assign(2.0)\nprint(C[1, 1])\n"), "2.0\n");
}

TEST(ScalarOperands, ElementwiseOpsOnNumbersAreScalarArithmetic) {
  // The article's 3.3: pto.multiply(data[i], 2.0) on an element.
  ProgramRun op = run_text("d = pto.tensor([4], init=1.5)\nt = pto.multiply(d[1], 2.0)\nt = pto.add(t, 1.0)\n"
                           "print(t, pto.maximum(2, 7), pto.minimum(2.5, -1.0), pto.divide(1, 4))\n");
  ProgramRun ops = run_text("d = pto.tensor([4], init=1.5)\nt = d[1] * 2.0\nt = t + 1.0\n");
  EXPECT_EQ(op.out, "4.0 7 -1.0 0.25\n");
  // Same flops as the operators (minimum and divide add theirs).
  EXPECT_EQ(op.sink.reads, ops.sink.reads);
  EXPECT_GT(op.sink.flops, ops.sink.flops);
  ProgramRun just = run_text("d = pto.tensor([4], init=1.5)\nt = pto.multiply(d[1], 2.0)\nt = pto.add(t, 1.0)\n");
  EXPECT_EQ(just.sink.flops, ops.sink.flops);
}

TEST(ReuseWarning, SaysWhyNothingWasServed) {
  // The article's 3.3: weights read in place by matmul, never loaded.
  ProgramRun r = run_text(
      "W = pto.tensor([8, 8], init=\"random\", seed=1)\nX = pto.tensor([4, 8], init=\"random\", seed=2)\n"
      "with pto.reuse(\"W\", scope=\"kernel\"):\n    Y = pto.matmul(X, W)\n");
  EXPECT_NE(r.warnings.find("t.pto:3:6: warning: pto.reuse served nothing: no tile of a tensor named 'W'"),
            std::string::npos)
      << r.warnings;
  ASSERT_EQ(r.result.reuse.size(), 1u);
  EXPECT_EQ(r.result.reuse[0].hits, 0u);
  // Loaded, but never the same tile twice.
  EXPECT_NE(run_text("W = pto.tensor([8, 8])\nwith pto.reuse(\"W\", scope=\"block\"):\n"
                     "    for i in range(0, 8, 4):\n        t = pto.load(W[i:i+4, :], memory=\"shared\")\n")
                .warnings.find("each of the 2 tile load(s) of 'W' inside the block was of a different tile"),
            std::string::npos);
  EXPECT_NE(run_text("W = pto.tensor([8, 8])\nwith pto.reuse(\"W\", scope=\"global\"):\n    t = pto.load(W)\n")
                .warnings.find("only a hint"),
            std::string::npos);
  // A reuse that served a tile says nothing.
  EXPECT_EQ(run_text("W = pto.tensor([8, 8])\nwith pto.reuse(\"W\", scope=\"block\"):\n"
                     "    for i in range(2):\n        t = pto.load(W[0:4, :], memory=\"shared\")\n")
                .warnings,
            "");
}

TEST(MemoryScopeViews, AViewBoundInsideIsCopiedThere) {
  const char* prelude = "X = pto.tensor([16, 16], init=\"random\", seed=3)\n";
  ProgramRun in = run_text(std::string(prelude) + "with pto.memory(\"shared\"):\n    t = X[0:4, :]\nprint(t.memory)\n"
                                                  "pto.check(t, X[0:4, :])\n");
  ProgramRun load = run_text(std::string(prelude) + "t = pto.load(X[0:4, :], memory=\"shared\")\n");
  EXPECT_EQ(in.out, "shared\n");
  EXPECT_TRUE(in.result.all_checks_passed());
  EXPECT_EQ(in.sink.reads, load.sink.reads);
  EXPECT_EQ(in.sink.writes, load.sink.writes);
  EXPECT_GT(in.sink.reads, 0u);
  // Outside pto.memory, and for a view already in the block's space, a view
  // stays a view: no events.
  ProgramRun plain = run_text(std::string(prelude) + "t = X[0:4, :]\nprint(t.memory)\n");
  EXPECT_EQ(plain.out, "global\n");
  EXPECT_EQ(plain.sink.reads + plain.sink.writes, 0u);
  ProgramRun same = run_text("S = pto.tensor([8, 8], memory=\"shared\")\nwith pto.memory(\"shared\"):\n    t = S[0:4, :]\n"
                             "    t[0, 0] = 5.0\nprint(S[0, 0])\n");
  EXPECT_EQ(same.out, "5.0\n");  // an alias of S
  // An element is a number, not a view: still one read.
  ProgramRun elem = run_text(std::string(prelude) + "with pto.memory(\"shared\"):\n    x = X[1, 2]\n");
  EXPECT_EQ(elem.sink.reads, 1u);
}

}  // namespace
}  // namespace ptosim::test
