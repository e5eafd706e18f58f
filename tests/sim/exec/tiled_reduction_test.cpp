// pto.tile(dim_0=.., dim_1=..) schedules of reduce_* and softmax: exact
// global / tile-space / register traffic, Compute events, values identical
// to the untiled ops (docs/EXEC.md "Scopes").
#include <optional>

#include "tests/sim/exec/exec_test_util.h"

namespace ptosim::test {
namespace {

constexpr int64_t kR = 7, kC = 11, kT0 = 3, kT1 = 5;  // 3 x 3 tiles, edge tiles of 1 row / 1 column
constexpr uint64_t kXBytes = kR * kC * 4;

TileDirective dims(int64_t d0, int64_t d1, const std::string& into = "") {
  TileDirective td;
  td.sizes = {{"dim_0", d0}, {"dim_1", d1}};
  td.into = into;
  return td;
}

struct TiledReduction : ::testing::Test {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c{cfg, &rec};
  Tensor x = make(c, "x", {kR, kC}, "random", 3);
  SpaceId sh = c.shared_space(), reg = c.register_space();

  // Runs the reduction untiled, then tiled (events recorded), checks the values match.
  Tensor run_reduce(OpKind op, std::optional<int> axis, bool keepdims) {
    Tensor plain = reduce(c, op, x, axis, keepdims);
    rec.clear();
    c.tile_push(dims(kT0, kT1));
    Tensor out = reduce(c, op, x, axis, keepdims);
    c.tile_pop();
    EXPECT_EQ(out.shape(), plain.shape());
    EXPECT_EQ(out.to_vector(), plain.to_vector());
    return out;
  }
  uint64_t flops() const {
    uint64_t f = 0;
    for (auto& e : rec.comp) f += e.flops;
    return f;
  }
  // x read once from global, loaded once into shared and read once from there.
  void expect_x_traffic(uint64_t shared_reads = kXBytes) {
    EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Read), kXBytes);
    EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Read, x.tag()), kXBytes);
    EXPECT_EQ(rec.bytes(sh, AccessKind::Write), kXBytes);
    EXPECT_EQ(rec.bytes(sh, AccessKind::Read), shared_reads);
  }
  // One accumulator write per tile; reads on every tile but the first along
  // the reduced axis, plus the final store.
  void expect_acc_traffic(uint64_t acc_bytes_per_pass, uint64_t passes, const Tensor& out) {
    EXPECT_EQ(rec.bytes(reg, AccessKind::Write), acc_bytes_per_pass * passes);
    EXPECT_EQ(rec.bytes(reg, AccessKind::Read), acc_bytes_per_pass * passes);
    EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Write), uint64_t(out.numel()) * 4);
    EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Write, out.tag()), uint64_t(out.numel()) * 4);
  }
  void expect_computes(OpKind op, uint64_t n, uint64_t total) {
    EXPECT_EQ(rec.comp.size(), n);
    for (auto& e : rec.comp) EXPECT_EQ(e.op, uint16_t(op));
    EXPECT_EQ(flops(), total);
  }
};

}  // namespace

TEST_F(TiledReduction, ReduceSumAxis1) {
  Tensor s = run_reduce(OpKind::ReduceSum, 1, false);
  EXPECT_EQ(s.shape(), (Shape{kR}));
  expect_x_traffic();
  expect_acc_traffic(kR * 4, 3, s);  // 3 column tiles pass over the [7] accumulator
  expect_computes(OpKind::ReduceSum, 9, kR * kC);
}

TEST_F(TiledReduction, ReduceSumAxis0Keepdims) {
  Tensor s = run_reduce(OpKind::ReduceSum, 0, true);
  EXPECT_EQ(s.shape(), (Shape{1, kC}));
  expect_x_traffic();
  expect_acc_traffic(kC * 4, 3, s);  // 3 row tiles pass over the [1, 11] accumulator
  expect_computes(OpKind::ReduceSum, 9, kR * kC);
}

TEST_F(TiledReduction, ReduceSumAllAxes) {
  Tensor s = run_reduce(OpKind::ReduceSum, std::nullopt, false);
  EXPECT_EQ(s.rank(), 0);
  expect_x_traffic();
  expect_acc_traffic(4, 9, s);  // every tile updates the one scalar
  expect_computes(OpKind::ReduceSum, 9, kR * kC);
  Tensor k = run_reduce(OpKind::ReduceSum, std::nullopt, true);
  EXPECT_EQ(k.shape(), (Shape{1, 1}));
  expect_acc_traffic(4, 9, k);
}

TEST_F(TiledReduction, ReduceMaxAndMean) {
  Tensor m = run_reduce(OpKind::ReduceMax, 1, true);
  EXPECT_EQ(m.shape(), (Shape{kR, 1}));
  expect_x_traffic();
  expect_acc_traffic(kR * 4, 3, m);
  expect_computes(OpKind::ReduceMax, 9, kR * kC);
  Tensor a = run_reduce(OpKind::ReduceMean, 0, false);
  EXPECT_EQ(a.shape(), (Shape{kC}));
  expect_x_traffic();
  expect_acc_traffic(kC * 4, 3, a);
  expect_computes(OpKind::ReduceMean, 9, kR * kC);
}

// The reduced axis is the innermost tile loop: for axis=0 the three row
// tiles of column tile 0 come first, the accumulator is read from the second
// one on and stored after the third.
TEST_F(TiledReduction, ReduceAxis0EventOrder) {
  run_reduce(OpKind::ReduceSum, 0, false);
  std::vector<std::pair<SpaceId, AccessKind>> seq;
  for (auto& a : rec.acc) {
    std::pair<SpaceId, AccessKind> k{a.space, a.kind};
    if (seq.empty() || seq.back() != k) seq.push_back(k);  // collapse repeats (row-by-row tile loads)
  }
  using P = std::pair<SpaceId, AccessKind>;
  P gr{kGlobalSpace, AccessKind::Read}, sw{sh, AccessKind::Write}, sr{sh, AccessKind::Read};
  P rw{reg, AccessKind::Write}, rr{reg, AccessKind::Read}, gw{kGlobalSpace, AccessKind::Write};
  std::vector<P> first_column = {gr, sw, sr, rw, gr, sw, sr, rr, rw, gr, sw, sr, rr, rw, rr, gw};
  ASSERT_GT(seq.size(), first_column.size());
  EXPECT_EQ(std::vector<P>(seq.begin(), seq.begin() + long(first_column.size())), first_column);
  // First row tile: 3 rows of 5 f32 from global into a contiguous 3x5 shared tile.
  EXPECT_EQ(rec.acc[0].bytes, 20u);
  EXPECT_EQ(rec.acc[0].addr, x.base_addr());
  EXPECT_EQ(rec.acc[1].addr, x.base_addr() + kC * 4);
}

TEST_F(TiledReduction, SoftmaxRowsWholeAlongAxis) {
  Tensor plain = softmax(c, x, -1);
  rec.clear();
  c.tile_push(dims(kT0, kT1));  // dim_1 names the softmax axis: ignored
  Tensor s = softmax(c, x, -1);
  c.tile_pop();
  EXPECT_EQ(s.to_vector(), plain.to_vector());
  expect_x_traffic(3 * kXBytes);  // max, exp-sum and normalise passes over the shared tile
  EXPECT_EQ(rec.bytes(reg, AccessKind::Write), kXBytes);
  EXPECT_EQ(rec.bytes(reg, AccessKind::Read), kXBytes);
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Write), kXBytes);
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Write, s.tag()), kXBytes);
  expect_computes(OpKind::Softmax, 3, kR * kC * 12);  // row tiles of 3, 3, 1 rows
  EXPECT_EQ(rec.comp[2].flops, uint64_t(kC * 12));
}

TEST_F(TiledReduction, SoftmaxAxis0TilesColumns) {
  Tensor plain = softmax(c, x, 0);
  rec.clear();
  c.tile_push(dims(kT0, kT1));  // dim_0 is the softmax axis: ignored; columns in tiles of 5
  Tensor s = softmax(c, x, 0);
  c.tile_pop();
  EXPECT_EQ(s.to_vector(), plain.to_vector());
  expect_x_traffic(3 * kXBytes);
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Write), kXBytes);
  expect_computes(OpKind::Softmax, 3, kR * kC * 12);
}

TEST_F(TiledReduction, OperandInSharedIsUsedInPlace) {
  Tensor xs = load(c, x, "shared");
  Tensor plain = reduce(c, OpKind::ReduceSum, xs, 1, false);
  rec.clear();
  c.tile_push(dims(kT0, kT1));
  Tensor s = reduce(c, OpKind::ReduceSum, xs, 1, false);
  c.tile_pop();
  EXPECT_EQ(s.to_vector(), plain.to_vector());
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Read), 0u);
  EXPECT_EQ(rec.bytes(sh, AccessKind::Read, xs.tag()), kXBytes);
  EXPECT_EQ(rec.bytes(sh, AccessKind::Write), uint64_t(kR * 4));  // only the result store (s lives in shared)
}

TEST_F(TiledReduction, NoDimKeysKeepsUntiledEvents) {
  reduce(c, OpKind::ReduceSum, x, 1, false);
  softmax(c, x, -1);
  std::vector<Access> plain = rec.acc;
  rec.clear();
  TileDirective td;
  td.sizes = {{"M", 4}, {"N", 4}, {"K", 4}};
  c.tile_push(td);
  reduce(c, OpKind::ReduceSum, x, 1, false);
  softmax(c, x, -1);
  c.tile_pop();
  ASSERT_EQ(rec.acc.size(), plain.size());
  for (size_t i = 0; i < plain.size(); ++i) {
    EXPECT_EQ(rec.acc[i].space, plain[i].space);
    EXPECT_EQ(rec.acc[i].kind, plain[i].kind);
    EXPECT_EQ(rec.acc[i].bytes, plain[i].bytes);
  }
}

TEST_F(TiledReduction, ZeroSizeHasNoEvents) {
  Tensor z = make(c, "z", {0, 5});
  rec.clear();
  c.tile_push(dims(kT0, kT1));
  Tensor s0 = reduce(c, OpKind::ReduceSum, z, 0, false);
  Tensor s1 = reduce(c, OpKind::ReduceSum, z, 1, false);
  softmax(c, z, -1);
  c.tile_pop();
  EXPECT_TRUE(rec.acc.empty());
  EXPECT_TRUE(rec.comp.empty());
  EXPECT_EQ(s0.to_vector(), std::vector<double>(5, 0.0));
  EXPECT_EQ(s1.numel(), 0);
}

TEST(TiledReductionCapacity, ErrorMessageAndBuffersFreed) {
  HwConfig cfg = small_config(4096);  // 4 KiB shared
  ExecContext c(cfg, nullptr);
  Tensor x = make(c, "x", {64, 64});
  auto expect_error = [&](auto&& op, const std::string& want) {
    try {
      op();
      FAIL() << "expected: " << want;
    } catch (const OpError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  c.tile_push(dims(32, 64));
  expect_error([&] { reduce(c, OpKind::ReduceSum, x, 1, false); },
               "cannot allocate 'x.tile' (8192 bytes) in space 'shared'");
  c.tile_pop();
  c.tile_push(dims(32, 8));  // dim_1 names the softmax axis: the tile is 32 x 64, not 32 x 8
  expect_error([&] { softmax(c, x, -1); }, "cannot allocate 'x.tile' (8192 bytes) in space 'shared'");
  c.tile_pop();
  // Tile buffers are freed after each op: 1 KiB tiles eight times, then a
  // 4 KiB tile that only fits in an empty shared space.
  c.tile_push(dims(16, 16));
  for (int i = 0; i < 8; ++i) reduce(c, OpKind::ReduceMax, x, std::nullopt, false);
  c.tile_pop();
  c.tile_push(dims(16, 8));
  softmax(c, x, -1);
  c.tile_pop();
}

}  // namespace ptosim::test
