// Scopes, the spec's example program, and every kernel in workloads/.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/sim/frontend/frontend_test_util.h"

namespace ptosim::test {
namespace {

// Runs `body`, whose "%s" line opens a block, once with `scope` there and
// once with `if True:`; returns {scoped, plain}.
std::pair<ProgramRun, ProgramRun> scoped_and_plain(const char* body, const char* scope, bool keep = false) {
  char a[1024], b[1024];
  snprintf(a, sizeof a, body, scope);
  snprintf(b, sizeof b, body, "if True:\n");
  return {run_text(a, {}, 2'000'000'000ull, keep), run_text(b, {}, 2'000'000'000ull, keep)};
}

TEST(Scopes, ScopeFreesAndFootprint) {
  ProgramRun r = run_text(
      "with pto.scope(\"a\"):\n"
      "    T = pto.tensor([64, 64], memory=\"shared\")\n"
      "with pto.profile(\"b\"):\n"
      "    U = pto.tensor([64, 64], memory=\"shared\")\n");
  // The second tensor reuses the space the first scope freed.
  EXPECT_EQ(r.result.footprint["shared"].peak_bytes, 64u * 64 * 4);
}

TEST(Scopes, MemoryScopeSetsDefaultSpace) {
  EXPECT_EQ(run_text("with pto.memory(\"shared\"):\n    T = pto.tensor([4])\n    print(T.memory)\nprint(pto.tensor([4]).memory)\n").out,
            "shared\nglobal\n");
}

TEST(Scopes, CombinedAndNestedWith) {
  EXPECT_EQ(run_text("with pto.scope(\"x\"), pto.memory(\"register\"):\n    with pto.memory(\"shared\"):\n"
                     "        print(pto.zeros([2]).memory)\n    print(pto.zeros([2]).memory)\n")
                .out,
            "shared\nregister\n");
}

TEST(Scopes, TileGivesSameValues) {
  ProgramRun r = run_text(
      "A = pto.tensor([40, 24], init=\"random\", seed=1)\n"
      "B = pto.tensor([24, 36], init=\"random\", seed=2)\n"
      "with pto.tile(M=16, N=16, K=8):\n"
      "    C = pto.matmul(A, B)\n"
      "pto.check(C, pto.ref.matmul(A, B))\n");
  ASSERT_EQ(r.result.checks.size(), 1u);
  EXPECT_TRUE(r.result.checks[0].passed) << r.result.checks[0].message;
}

// Reductions and softmax under pto.tile(dim_*): same values; x is read once
// from global per op (the untiled softmax reads it three times), the results
// are written once, as row-tile stores instead of per-element writes.
TEST(Scopes, TiledReductionAndSoftmax) {
  const char* body =
      "x = pto.tensor([64, 48], init=\"random\", seed=5)\n"
      "%s"
      "    s = pto.reduce_sum(x, axis=1)\n"
      "    p = pto.softmax(x, axis=-1)\n"
      "pto.output(s, p)\n";
  auto [t, u] = scoped_and_plain(body, "with pto.tile(dim_0=16, dim_1=32):\n", true);
  ASSERT_EQ(t.result.outputs.size(), 2u);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(t.result.outputs[i].fnv1a, u.result.outputs[i].fnv1a);
  const uint64_t x_bytes = 64 * 48 * 4, out_bytes = 64 * 4 + x_bytes;
  EXPECT_EQ(t.sink.global_read_bytes, 2 * x_bytes);
  EXPECT_EQ(u.sink.global_read_bytes, 4 * x_bytes);
  EXPECT_EQ(t.sink.global_write_bytes, out_bytes);
  EXPECT_EQ(u.sink.global_write_bytes, out_bytes);
  auto global_writes = [](const ProgramRun& r) {
    uint64_t n = 0;
    for (auto& a : r.sink.log) n += a.space == kGlobalSpace && a.kind == AccessKind::Write;
    return n;
  };
  EXPECT_LT(global_writes(t), global_writes(u));
}

TEST(Scopes, FuseMatchesUnfusedAndWritesOnlyLiveResults) {
  const char* body =
      "x = pto.tensor([16, 32], init=\"random\", seed=3)\n"
      "y = pto.tensor([16, 32])\n"
      "%s"
      "    a = pto.exp(x)\n"
      "    b = pto.multiply(a, 2.0)\n"
      "    out = pto.relu(b)\n"
      "pto.output(out)\n";
  auto [f, u] = scoped_and_plain(body, "with pto.fuse():\n");
  ASSERT_EQ(f.result.outputs.size(), 1u);
  EXPECT_EQ(f.result.outputs[0].fnv1a, u.result.outputs[0].fnv1a);
  // Only `out` is live after the block: one global write pass instead of three.
  EXPECT_EQ(f.sink.global_write_bytes, 16u * 32 * 4);
  EXPECT_EQ(u.sink.global_write_bytes, 3u * 16 * 32 * 4);
  EXPECT_LT(f.sink.global_read_bytes, u.sink.global_read_bytes);
}

TEST(Scopes, AutoReuseShrinksFootprint) {
  ProgramRun r = run_text(
      "x = pto.tensor([64, 64], init=\"random\", seed=3)\n"
      "with pto.auto_reuse():\n"
      "    a = pto.exp(x)\n"
      "    b = pto.multiply(a, 2.0)\n"
      "    c = pto.add(b, 1.0)\n"
      "    d = pto.relu(c)\n"
      "pto.check(d, pto.relu(pto.add(pto.multiply(pto.exp(x), 2.0), 1.0)))\n");
  ASSERT_EQ(r.result.auto_reuse.size(), 1u);
  EXPECT_LT(r.result.auto_reuse[0].peak_with, r.result.auto_reuse[0].peak_without);
  EXPECT_TRUE(r.result.all_checks_passed());
}

TEST(Scopes, ReuseServesSecondLoad) {
  ProgramRun r = run_text(
      "B = pto.tensor([32, 32], init=\"random\")\n"
      "with pto.reuse(\"B\", scope=\"block\"):\n"
      "    for rep in range(3):\n"
      "        b = pto.load(B[0:16, 0:16], memory=\"shared\")\n");
  ASSERT_EQ(r.result.reuse.size(), 1u);
  EXPECT_EQ(r.result.reuse[0].hits, 2u);
}

TEST(Scopes, ParallelRunsEveryIteration) {
  EXPECT_EQ(run_text("s = 0\nwith pto.parallel(axis=\"block\", num=4):\n    for i in range(8):\n        s += i\nprint(s)\n").out,
            "28\n");
}

TEST(Scopes, ParallelDistributesIterationsOverCoresRoundRobin) {
  HwConfig cfg = frontend_test_config();
  cfg.core.count = 3;
  CountingSink sink;
  ProgramOptions o;
  const char* p =
      "A = pto.tensor([7, 16])\n"
      "x = A[0, 0]\n"
      "with pto.parallel(axis=\"block\", num=7):\n"
      "    for i in range(7):\n"
      "        y = A[i, 1] * 2.0\n"
      "z = A[0, 2]\n";
  run_program_text("t.pto", p, cfg, o, &sink);
  // Cores 0, 1, 2, 0, 1, 2, 0 read A[i, 1]; core 0 reads before and after.
  EXPECT_EQ(sink.by_core[0], 3u + 2);
  EXPECT_EQ(sink.by_core[1], 2u);
  EXPECT_EQ(sink.by_core[2], 2u);
  EXPECT_EQ(sink.barriers, (std::vector<bool>{true, false}));
  // The scalar multiplies are compute work of the core that did them.
  uint64_t flops_by_core[3] = {0, 0, 0};
  for (const Compute& c : sink.computes) flops_by_core[c.core] += c.flops;
  EXPECT_EQ(flops_by_core[0], 3u);
  EXPECT_EQ(flops_by_core[1], 2u);
  EXPECT_EQ(flops_by_core[2], 2u);
}

TEST(Programs, SpecExample) {
  ProgramRun r = run_text(
      "param M = 128\nparam N = 64\nparam K = 64\nparam TM = 32\n\n"
      "A = pto.tensor([M, K], pto.float32, init=\"random\", seed=1)\n"
      "B = pto.tensor([K, N], pto.float32, init=\"random\", seed=2)\n"
      "C = pto.tensor([M, N], pto.float32)\n\n"
      "with pto.scope(\"gemm\"):\n"
      "    for m in range(0, M, TM):\n"
      "        a = pto.load(A[m:m+TM, :], memory=\"shared\")\n"
      "        C[m:m+TM, :] = pto.matmul(a, B)\n\n"
      "pto.check(C, pto.ref.matmul(A, B))\n");
  ASSERT_EQ(r.result.checks.size(), 1u);
  EXPECT_TRUE(r.result.checks[0].passed) << r.result.checks[0].message;
  EXPECT_GT(r.sink.reads, 0u);
}

TEST(Programs, NaiveMatmulAccessCount) {
  ProgramRun r = run_text(
      "A = pto.tensor([8, 4], init=\"random\")\nB = pto.tensor([4, 6], init=\"random\")\nC = pto.tensor([8, 6])\n"
      "for i in range(8):\n    for j in range(6):\n        for k in range(4):\n"
      "            C[i, j] += A[i, k] * B[k, j]\n"
      "pto.check(C, pto.ref.matmul(A, B))\n");
  EXPECT_EQ(r.sink.reads, 8u * 6 * 4 * 3);
  EXPECT_EQ(r.sink.writes, 8u * 6 * 4);
  EXPECT_TRUE(r.result.all_checks_passed());
}

TEST(Programs, FailedCheckIsReportedNotThrown) {
  ProgramRun r = run_text("A = pto.ones([4])\npto.check(A, pto.zeros([4]))\n");
  ASSERT_EQ(r.result.checks.size(), 1u);
  EXPECT_FALSE(r.result.checks[0].passed);
  EXPECT_EQ(r.result.checks[0].pos.line, 2);
}

class Workload : public ::testing::TestWithParam<std::string> {};

TEST_P(Workload, RunsAndPassesItsChecks) {
  std::string path = std::string(PTOSIM_SOURCE_DIR) + "/workloads/" + GetParam();
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  ProgramRun r = run_text(ss.str());
  ASSERT_FALSE(r.result.checks.empty()) << GetParam() << " has no pto.check";
  for (auto& c : r.result.checks) EXPECT_TRUE(c.passed) << GetParam() << ":" << c.pos.line << ": " << c.message;
  EXPECT_FALSE(r.result.outputs.empty());
}

INSTANTIATE_TEST_SUITE_P(
    All, Workload,
    ::testing::Values("matmul_naive.pto", "matmul_op.pto", "matmul_tiled.pto", "matmul_reuse.pto", "conv2d_basic.pto",
                      "conv2d_im2col_tiled.pto", "conv2d_cached.pto", "attention_naive.pto", "attention_tiled.pto",
                      "layernorm_gelu_unfused.pto", "layernorm_gelu_fused.pto", "layout_nhwc.pto"),
    [](const ::testing::TestParamInfo<std::string>& i) {
      std::string n = i.param.substr(0, i.param.size() - 4);
      return n;
    });

}  // namespace
}  // namespace ptosim::test
