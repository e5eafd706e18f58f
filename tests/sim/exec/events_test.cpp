#include <chrono>

#include "tests/sim/exec/exec_test_util.h"

namespace ptosim::test {

TEST(Events, TileLoadIs64RowRunsAtExactAddresses) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {256, 1024});
  Tensor view = subscript(c, A, {sl(64, 128), sl(32, 64)});
  EXPECT_TRUE(rec.acc.empty());  // views cost nothing
  Tensor t = load(c, view, "shared");
  ASSERT_EQ(rec.count(kGlobalSpace, AccessKind::Read), 64u);
  uint64_t i = 0;
  for (auto& a : rec.acc) {
    if (a.space != kGlobalSpace) continue;
    EXPECT_EQ(a.bytes, 128u);
    EXPECT_EQ(a.addr, A.base_addr() + ((64 + i) * 1024 + 32) * 4);
    EXPECT_EQ(a.tensor, A.tag());
    ++i;
  }
  SpaceId sh = c.shared_space();
  EXPECT_EQ(rec.bytes(sh, AccessKind::Write), 64u * 32 * 4);
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Write), 0u);
}

TEST(Events, ScalarElementIsOneAccessOfElemSize) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor C = make(c, "C", {8, 8}, "zeros", 0, "", DType::F16);
  double v = read_element(c, C, {2, 3});
  write_element(c, C, {2, 3}, v + 1);
  ASSERT_EQ(rec.acc.size(), 2u);
  EXPECT_EQ(rec.acc[0].kind, AccessKind::Read);
  EXPECT_EQ(rec.acc[0].bytes, 2u);
  EXPECT_EQ(rec.acc[0].addr, C.base_addr() + (2 * 8 + 3) * 2);
  EXPECT_EQ(rec.acc[1].kind, AccessKind::Write);
}

TEST(Events, ElementwiseGlobalPerVector) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor a = make(c, "a", {4, 16});
  Tensor b = make(c, "b", {16});
  rec.clear();
  Tensor s = binary(c, OpKind::Add, a, b);
  // 8 f32 per 32-byte vector: 4 rows * 2 chunks * (read a, read b, write s).
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Read), 16u);
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Write), 8u);
  for (auto& x : rec.acc) EXPECT_EQ(x.bytes, 32u);
  ASSERT_EQ(rec.comp.size(), 1u);
  EXPECT_EQ(rec.comp[0].flops, 64u);
  EXPECT_EQ(rec.comp[0].op, uint16_t(OpKind::Add));
  // Strided operand: one access per element.
  rec.clear();
  unary(c, OpKind::Exp, a.transpose());
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Read), 64u);
  EXPECT_EQ(rec.comp[0].flops, 64u * 8);
}

TEST(Events, OpCostOverride) {
  HwConfig cfg = small_config();
  cfg.op_costs["exp"] = 3;
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor a = make(c, "a", {10});
  unary(c, OpKind::Exp, a);
  EXPECT_EQ(rec.comp.back().flops, 30u);
}

TEST(Events, AnOpBuiltOnExpFollowsAConfigsExpCost) {
  HwConfig cfg = small_config();
  const double softmax = op_cost(cfg, OpKind::Softmax), gelu = op_cost(cfg, OpKind::Gelu);
  const double exp = op_cost(cfg, OpKind::Exp), log = op_cost(cfg, OpKind::Log);
  cfg.op_costs["exp"] = exp + 30;  // config host timed exp at 30 flops more than the table's
  EXPECT_DOUBLE_EQ(op_cost(cfg, OpKind::Softmax), softmax + 30);
  EXPECT_DOUBLE_EQ(op_cost(cfg, OpKind::Gelu), gelu + 30);
  EXPECT_DOUBLE_EQ(op_cost(cfg, OpKind::Log), log);  // a sequence of its own
  cfg.op_costs["gelu"] = 7;  // an op's own cost wins over its base's
  EXPECT_DOUBLE_EQ(op_cost(cfg, OpKind::Gelu), 7);
}

TEST(Events, RegisterOperandsNoCacheTraffic) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor a = make(c, "a", {8, 8}, "random", 1, "register");
  Tensor b = make(c, "b", {8, 8}, "random", 2, "register");
  Tensor m = matmul(c, a, b);
  Tensor e = unary(c, OpKind::Relu, m);
  EXPECT_EQ(m.space_name(), "register");
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Read) + rec.count(kGlobalSpace, AccessKind::Write), 0u);
  SpaceId reg = c.register_space();
  EXPECT_GT(rec.bytes(reg, AccessKind::Read), 0u);
  for (auto& x : rec.acc) EXPECT_EQ(x.space, reg);
}

// The untiled global matmul: tests/sim/exec/microkernel_test.cpp.

TEST(Events, SharedMatmulMicroKernelBytes) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor a = make(c, "a", {16, 32}, "random", 1, "shared");
  Tensor b = make(c, "b", {32, 24}, "random", 2, "shared");
  rec.clear();
  Tensor m = matmul(c, a, b);
  SpaceId sh = c.shared_space();
  // a read ceil(24/8)=3 times, b ceil(16/8)=2 times, result written once.
  EXPECT_EQ(rec.bytes(sh, AccessKind::Read, a.tag()), 3u * 16 * 32 * 4);
  EXPECT_EQ(rec.bytes(sh, AccessKind::Read, b.tag()), 2u * 32 * 24 * 4);
  EXPECT_EQ(rec.bytes(sh, AccessKind::Write), 16u * 24 * 4);
  EXPECT_LE(rec.acc.size(), 8u);  // bulk, never per element
}

TEST(Events, TiledMatmulTrafficFormulaAndValues) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  int64_t M = 100, N = 70, K = 50, TM = 32, TN = 32, TK = 16;
  Tensor A = make(c, "A", {M, K}, "random", 1), B = make(c, "B", {K, N}, "random", 2);
  Tensor plain = matmul(c, A, B);
  rec.clear();
  TileDirective td;
  td.sizes = {{"M", TM}, {"N", TN}, {"K", TK}};
  c.tile_push(td);
  c.set_result_name("C");
  Tensor C = matmul(c, A, B);
  c.set_result_name("");
  c.tile_pop();
  EXPECT_EQ(C.to_vector(), plain.to_vector());
  uint64_t nt = (N + TN - 1) / TN, mt = (M + TM - 1) / TM;
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Read, A.tag()), nt * M * K * 4);
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Read, B.tag()), mt * K * N * 4);
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Write, C.tag()), uint64_t(M * N * 4));
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Write), uint64_t(M * N * 4));
  uint64_t flops = 0;
  for (auto& x : rec.comp) flops += x.flops;
  EXPECT_EQ(flops, uint64_t(2 * M * N * K));
}

TEST(Events, TiledMatmulCapacityError) {
  HwConfig cfg = small_config(4096);
  ExecContext c(cfg, nullptr);
  Tensor A = make(c, "A", {64, 64}), B = make(c, "B", {64, 64});
  TileDirective td;
  td.sizes = {{"M", 64}, {"N", 64}, {"K", 64}};
  c.tile_push(td);
  try {
    matmul(c, A, B);
    FAIL();
  } catch (const OpError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot allocate 'A.tile' (16384 bytes) in space 'shared'"), std::string::npos)
        << e.what();
    // A and B tiles of K = 64 take 512 B per row or column: 8 x 8 tiles fill the 4 KiB.
    EXPECT_NE(std::string(e.what()).find("the largest square tile whose A and B tiles fit in 'shared' is M=N=8 with K=64"),
              std::string::npos)
        << e.what();
  }
}

// Where the result tile does not fit the register file, pto.tile packs A and
// B in panels of the micro-kernel's MR rows and NR columns (32 B vectors: a
// 6 x 16 block), so a 256 x 256 x 32 tile needs 258 rows of A (33,024 B) and
// B's 32,768 B: over a 64 KiB scratchpad by 256 B. The hint must name a tile
// that runs (it named 256, sizing the buffers without the panels' rounding).
TEST(Events, PackedTileCapacityHintNamesATileThatRuns) {
  HwConfig cfg = small_config(64 * 1024, 4096);
  auto run = [&](int64_t t) {
    ExecContext c(cfg, nullptr);
    Tensor A = make(c, "A", {256, 32}), B = make(c, "B", {32, 256});
    TileDirective td;
    td.sizes = {{"M", t}, {"N", t}, {"K", 32}};
    c.tile_push(td);
    matmul(c, A, B);
  };
  try {
    run(256);
    FAIL();
  } catch (const OpError& e) {
    EXPECT_NE(std::string(e.what()).find("the largest square tile whose A and B tiles fit in 'shared' is M=N=128 with K=32"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(run(128));
}

TEST(Events, TiledConvAndElementwiseSameValues) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor in = make(c, "I", {2, 4, 9, 9}, "random", 1), w = make(c, "W", {6, 4, 3, 3}, "random", 2);
  Tensor plain = conv2d(c, in, w, 1, 1);
  TileDirective td;
  td.sizes = {{"F", 4}, {"H", 4}, {"W", 4}, {"C", 2}};
  c.tile_push(td);
  Tensor tiled = conv2d(c, in, w, 1, 1);
  c.tile_pop();
  EXPECT_EQ(tiled.to_vector(), plain.to_vector());
  rec.clear();
  TileDirective te;
  te.sizes = {{"dim_0", 3}, {"dim_1", 5}};
  c.tile_push(te);
  Tensor x = make(c, "x", {7, 11}), y = make(c, "y", {11});
  Tensor s = binary(c, OpKind::Add, x, y);
  c.tile_pop();
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Read, x.tag()), 7u * 11 * 4);
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Write, s.tag()), 7u * 11 * 4);
  EXPECT_EQ(s.to_vector(), binary(c, OpKind::Add, x, y).to_vector());
}

TEST(Events, ReuseSecondLoadHasNoGlobalTraffic) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {64, 64});
  c.reuse_begin("A", "block");
  Tensor t1 = load(c, subscript(c, A, {sl(0, 32), sl(0, 32)}), "shared");
  uint64_t first = rec.count(kGlobalSpace, AccessKind::Read);
  EXPECT_EQ(first, 32u);
  Tensor t2 = load(c, subscript(c, A, {sl(0, 32), sl(0, 32)}), "shared");
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Read), first);
  EXPECT_EQ(t2.to_vector(), t1.to_vector());
  c.reuse_end();
  ProgramResult r = c.take_result();
  ASSERT_EQ(r.reuse.size(), 1u);
  EXPECT_EQ(r.reuse[0].hits, 1u);
  EXPECT_EQ(r.reuse[0].fallbacks, 0u);
}

TEST(Events, ReuseInTiledMatmulAndFallback) {
  HwConfig cfg = small_config(64 * 1024);
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {64, 64}), B = make(c, "B", {64, 64});
  TileDirective td;
  td.sizes = {{"M", 16}, {"N", 16}, {"K", 64}};
  c.tile_push(td);
  c.reuse_begin("B", "block");  // B tiles (64x16 = 4 KiB each, 4 of them) stay in shared
  Tensor C = matmul(c, A, B);
  c.reuse_end();
  c.tile_pop();
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Read, B.tag()), 64u * 64 * 4);  // once, not 4 times
  ProgramResult r = c.take_result();
  EXPECT_EQ(r.reuse[0].hits, 12u);

  HwConfig small = small_config(12 * 1024);
  Recorder rec2;
  ExecContext c2(small, &rec2);
  Tensor A2 = make(c2, "A", {64, 64}), B2 = make(c2, "B", {64, 64});
  c2.tile_push(td);
  c2.reuse_begin("B", "block");
  Tensor C2 = matmul(c2, A2, B2);
  c2.reuse_end();
  c2.tile_pop();
  EXPECT_EQ(C2.to_vector(), C.to_vector());
  ProgramResult r2 = c2.take_result();
  EXPECT_GT(r2.reuse[0].fallbacks, 0u);
  EXPECT_GT(r2.reuse[0].fallback_bytes, 0u);
}

TEST(Events, FuseIntermediatesStayInRegisters) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor x = make(c, "x", {16, 16}, "random", 1);
  Tensor u1 = unary(c, OpKind::Exp, binary(c, OpKind::Multiply, x, 2.0));
  Tensor unfused = reduce(c, OpKind::ReduceSum, binary(c, OpKind::Add, u1, x), -1, false);
  rec.clear();
  c.fuse_begin();
  Tensor t1 = binary(c, OpKind::Multiply, x, 2.0);
  Tensor t2 = unary(c, OpKind::Exp, t1);
  Tensor t3 = binary(c, OpKind::Add, t2, x);
  Tensor y = reduce(c, OpKind::ReduceSum, t3, -1, false);
  c.fuse_end({x, y});
  EXPECT_EQ(y.to_vector(), unfused.to_vector());
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Read), 16u * 16 * 4);  // x read once
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Write), 16u * 4);      // only y
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Write, t2.tag()), 0u);
  EXPECT_GT(rec.bytes(c.register_space(), AccessKind::Read), 0u);
}

TEST(Events, AutoReuseSharesBuffers) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  Tensor x = make(c, "x", {64, 64});
  c.auto_reuse_begin({"k.pto", 3, 1});
  Tensor t1 = unary(c, OpKind::Exp, x);
  Tensor t2 = unary(c, OpKind::Tanh, t1);
  c.mark_dead(t1);
  Tensor t3 = unary(c, OpKind::Relu, t2);
  EXPECT_EQ(t3.base_addr(), t1.base_addr());  // reused the dead buffer
  c.mark_dead(t2);
  Tensor t4 = unary(c, OpKind::Neg, t3);
  c.auto_reuse_end();
  EXPECT_THROW(t1.check_live(), OpError);
  ProgramResult r = c.take_result();
  ASSERT_EQ(r.auto_reuse.size(), 1u);
  EXPECT_LT(r.auto_reuse[0].peak_with, r.auto_reuse[0].peak_without);
  EXPECT_LT(r.auto_reuse[0].distinct_with, r.auto_reuse[0].distinct_without);
  EXPECT_EQ(r.auto_reuse[0].distinct_without, 4u * 64 * 64 * 4);
}

TEST(Events, RegionsTagEvents) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor x = make(c, "x", {4});
  c.scope_begin("gemm");
  read_element(c, x, {0});
  c.scope_end();
  read_element(c, x, {0});
  EXPECT_NE(rec.acc[0].region, 0);
  EXPECT_EQ(rec.acc[1].region, 0);
}

namespace {
struct CountingSink : EventSink {
  uint64_t n = 0, bytes = 0;
  void access(const Access& a) override { ++n; bytes += a.bytes; }
  void compute(const Compute&) override {}
};
}  // namespace

TEST(Throughput, NaiveGlobalMatmul256) {
  HwConfig cfg = small_config();
  CountingSink sink;
  ExecContext c(cfg, &sink);
  Tensor A = make(c, "A", {256, 256}), B = make(c, "B", {256, 256});
  auto t0 = std::chrono::steady_clock::now();
  Tensor C = matmul(c, A, B);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // A BLAS's blocking (A and B overflow half of the 32 KiB L1, the only
  // level): KC = 256 (a 256 x 16 panel of B in 16 KiB), MC = 14, NC = 16.
  // Per 16 columns: B's block packed (512 vector reads, 512 writes); per
  // 14 rows (18 blocks and one of 4): A's block packed (32 reads a row,
  // 448 writes), then per k the B row's two vectors and a broadcast a row,
  // C stored two vectors a row.
  const uint64_t full = 14 * 32 + 448 + 256 * (2 + 14) + 2 * 14, last = 4 * 32 + 448 + 256 * (2 + 4) + 2 * 4;
  EXPECT_EQ(sink.n, 16 * (1024 + 18 * full + last));
  std::printf("naive matmul 256^3: %llu accesses in %.3f s = %.1f M/s\n", (unsigned long long)sink.n, s,
              double(sink.n) / s / 1e6);
}

}  // namespace ptosim::test
