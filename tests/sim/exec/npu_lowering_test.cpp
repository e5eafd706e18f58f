// pto.tile of a matmul on an NPU config (sim/exec/cube_lowering.h): the tiles
// travel GM -> l1 -> l0a/l0b -> cube -> l0c -> ub -> GM, counted exactly,
// ping-pong buffers where two fit, and capacity errors that say which buffer.
#include <set>

#include "tests/sim/exec/exec_test_util.h"

namespace ptosim::test {

namespace {

MemoryConfig buffer(const char* name, BufferRole role, uint64_t size) {
  MemoryConfig m;
  m.name = name;
  m.kind = MemoryKind::Scratchpad;
  m.role = role;
  m.size = size;
  return m;
}

// The NPU config's shape in small: `shared` is l1, `register` is ub.
HwConfig npu_config(uint64_t l0a_size = 64 * 1024) {
  HwConfig c;
  c.core.vector_bytes = 256;
  CacheConfig l2;
  l2.name = "L2"; l2.size = 1 << 20; l2.ways = 16; l2.line = 512;
  c.caches.push_back(l2);
  c.memories = {buffer("ub", BufferRole::UB, 256 * 1024), buffer("l1", BufferRole::L1, 1 << 20),
                buffer("l0a", BufferRole::L0A, l0a_size), buffer("l0b", BufferRole::L0B, 64 * 1024),
                buffer("l0c", BufferRole::L0C, 256 * 1024)};
  c.spaces = {{"global", "L2"}, {"shared", "l1"}, {"register", "ub"}, {"constant", "L2"},
              {"ub", "ub"}, {"l1", "l1"}, {"l0a", "l0a"}, {"l0b", "l0b"}, {"l0c", "l0c"}};
  c.alignment = 512;
  return c;
}

}  // namespace

TEST(NpuLowering, Matmul32CubedIn16TilesTravelsTheDataPath) {
  HwConfig cfg = npu_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {32, 32}, "random", 1), B = make(c, "B", {32, 32}, "random", 2);
  Tensor plain = matmul(c, A, B);
  rec.clear();
  Tensor C = tiled_matmul(c, A, B, 16, 16, 16);
  EXPECT_EQ(C.to_vector(), plain.to_vector());
  const SpaceId l1 = c.space_id("l1"), l0a = c.space_id("l0a"), l0b = c.space_id("l0b"), l0c = c.space_id("l0c"),
                ub = c.space_id("ub");
  // `shared` and `register` are the l1 and ub buffers themselves.
  EXPECT_EQ(c.shared_space(), l1);
  EXPECT_EQ(c.register_space(), ub);
  // 2 x 2 output tiles x 2 k steps = 8 steps. MTE2: per step a 16-row A
  // tile (16 reads of 64 B) and B tile into l1 (one 1 KiB write each).
  EXPECT_EQ(rec.count(l1, AccessKind::Write), 16u);
  EXPECT_EQ(rec.bytes(l1, AccessKind::Write), 16u * 1024);
  // MTE1: each l1 tile read once, written once into l0a / l0b.
  EXPECT_EQ(rec.count(l1, AccessKind::Read), 16u);
  EXPECT_EQ(rec.count(l0a, AccessKind::Write), 8u);
  EXPECT_EQ(rec.count(l0b, AccessKind::Write), 8u);
  // Cube: each operand tile read once a step, the accumulator written in place.
  EXPECT_EQ(rec.count(l0a, AccessKind::Read), 8u);
  EXPECT_EQ(rec.count(l0b, AccessKind::Read), 8u);
  EXPECT_EQ(rec.count(l0c, AccessKind::Write), 8u);
  // Fixpipe: l0c -> ub once per output tile; MTE3: ub -> global, 16 rows of 64 B.
  EXPECT_EQ(rec.count(l0c, AccessKind::Read), 4u);
  EXPECT_EQ(rec.count(ub, AccessKind::Write), 4u);
  EXPECT_EQ(rec.count(ub, AccessKind::Read), 4u);
  uint64_t a_reads = 0, c_writes = 0;
  for (auto& a : rec.acc) {
    a_reads += a.tensor == A.tag() && a.kind == AccessKind::Read;
    c_writes += a.space == kGlobalSpace && a.kind == AccessKind::Write && a.bytes == 64;
  }
  EXPECT_EQ(a_reads, 8u * 16);
  EXPECT_EQ(c_writes, 4u * 16);
  ASSERT_EQ(rec.comp.size(), 8u);  // one per cube step
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(rec.comp[i].flops, 2u * 16 * 16 * 16);
  // Ping-pong: consecutive steps write different l0a buffers, two in all.
  std::vector<uint64_t> l0a_writes;
  for (auto& a : rec.acc)
    if (a.space == l0a && a.kind == AccessKind::Write) l0a_writes.push_back(a.addr);
  ASSERT_EQ(l0a_writes.size(), 8u);
  EXPECT_NE(l0a_writes[0], l0a_writes[1]);
  EXPECT_EQ(l0a_writes[0], l0a_writes[2]);
  EXPECT_EQ(std::set<uint64_t>(l0a_writes.begin(), l0a_writes.end()).size(), 2u);
}

TEST(NpuLowering, OneBufferWhenTwoDoNotFit) {
  HwConfig cfg = npu_config(16 * 1024);  // l0a holds one 64x64 f32 tile
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {64, 128}, "random", 1), B = make(c, "B", {128, 64}, "random", 2);
  rec.clear();
  tiled_matmul(c, A, B, 64, 64, 64);
  std::set<uint64_t> l0a;
  for (auto& a : rec.acc)
    if (a.space == c.space_id("l0a") && a.kind == AccessKind::Write) l0a.insert(a.addr);
  EXPECT_EQ(l0a.size(), 1u);
}

TEST(NpuLowering, ATileThatCannotFitL0aSaysWhere) {
  HwConfig cfg = npu_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {256, 256}, "random", 1), B = make(c, "B", {256, 256}, "random", 2);
  try {
    tiled_matmul(c, A, B, 256, 64, 256);  // A tile 256 KiB > 64 KiB of l0a
    FAIL() << "expected a capacity error";
  } catch (const OpError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'l0a'"), std::string::npos) << m;
    EXPECT_NE(m.find("smaller M, N or K tiles"), std::string::npos) << m;
  }
}

TEST(NpuLowering, Conv2dUnfoldsIntoL0aAndRunsOnTheCube) {
  HwConfig cfg = npu_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor X = make(c, "X", {1, 4, 4, 4}, "random", 1), W = make(c, "W", {4, 4, 3, 3}, "random", 2);
  Tensor plain = conv2d(c, X, W, 1, 1);
  rec.clear();
  TileDirective td;
  td.sizes = {{"N", 1}, {"F", 4}, {"H", 4}, {"W", 4}, {"C", 4}};
  c.tile_push(td);
  Tensor Y = conv2d(c, X, W, 1, 1);
  c.tile_pop();
  EXPECT_EQ(Y.to_vector(), plain.to_vector());
  const SpaceId l1 = c.space_id("l1"), l0a = c.space_id("l0a"), l0b = c.space_id("l0b"), l0c = c.space_id("l0c"),
                ub = c.space_id("ub");
  // One tile, one channel block: the input (4 channels x 4 rows of 16 B,
  // clipped at the padded border, so 16 runs in the corner of a 6 x 6 halo
  // buffer per channel) and the weights (one run) into l1; img2col reads the
  // l1 tile once per kernel tap (9 x 16) and writes the 16 x 36 unfolded
  // input into l0a; the weights go to l0b.
  EXPECT_EQ(rec.count(l1, AccessKind::Write), 16u + 1);
  EXPECT_EQ(rec.count(l1, AccessKind::Read), 9u * 16 + 1);
  EXPECT_EQ(rec.bytes(l0a, AccessKind::Write), 16u * 36 * 4);
  EXPECT_EQ(rec.bytes(l0b, AccessKind::Write), 36u * 4 * 4);
  EXPECT_EQ(rec.count(l0a, AccessKind::Read), 1u);
  EXPECT_EQ(rec.count(l0b, AccessKind::Read), 1u);
  EXPECT_EQ(rec.count(l0c, AccessKind::Write), 1u);
  EXPECT_EQ(rec.count(l0c, AccessKind::Read), 1u);
  EXPECT_EQ(rec.count(ub, AccessKind::Write), 1u);
  EXPECT_EQ(rec.count(ub, AccessKind::Read), 1u);
  ASSERT_EQ(rec.comp.size(), 1u);
  EXPECT_EQ(rec.comp[0].flops, 2u * 4 * 16 * 36);
}

}  // namespace ptosim::test

namespace ptosim::test {

// An untiled conv2d on the NPU runs on the cube too, in the largest tile
// whose buffers fit twice: here the whole op, so its events are those of
// Conv2dUnfoldsIntoL0aAndRunsOnTheCube's one tile.
TEST(NpuLowering, UntiledConv2dRunsOnTheCubeAsOneTile) {
  HwConfig cfg = npu_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor X = make(c, "X", {1, 4, 4, 4}, "random", 1), W = make(c, "W", {4, 4, 3, 3}, "random", 2);
  rec.clear();
  conv2d(c, X, W, 1, 1);
  const SpaceId l1 = c.space_id("l1"), l0a = c.space_id("l0a"), l0b = c.space_id("l0b"), l0c = c.space_id("l0c");
  EXPECT_EQ(rec.count(l1, AccessKind::Write), 16u + 1);
  EXPECT_EQ(rec.count(l1, AccessKind::Read), 9u * 16 + 1);
  EXPECT_EQ(rec.bytes(l0a, AccessKind::Write), 16u * 36 * 4);
  EXPECT_EQ(rec.bytes(l0b, AccessKind::Write), 36u * 4 * 4);
  EXPECT_EQ(rec.count(l0c, AccessKind::Write), 1u);
  ASSERT_EQ(rec.comp.size(), 1u);
  EXPECT_EQ(rec.comp[0].flops, 2u * 4 * 16 * 36);
}

// A 4 KiB l0a cannot hold the 8 x 8 output's unfolded input for one
// channel twice (2 x 64 x 9 x 4 B): the rows halve to 4 (2 x 1152 B fit,
// one channel a step), so 2 pixel tiles x 8 channel steps = 16 cube steps,
// each accumulator drained once per pixel tile.
TEST(NpuLowering, UntiledConv2dSplitsWhatL0aCannotHold) {
  HwConfig cfg = npu_config(4 * 1024);
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor X = make(c, "X", {1, 8, 8, 8}, "random", 1), W = make(c, "W", {4, 8, 3, 3}, "random", 2);
  rec.clear();
  conv2d(c, X, W, 1, 1);
  const SpaceId l0a = c.space_id("l0a"), l0c = c.space_id("l0c");
  EXPECT_EQ(rec.count(l0a, AccessKind::Write), 16u);
  EXPECT_EQ(rec.bytes(l0a, AccessKind::Write), 16u * 32 * 9 * 4);
  EXPECT_EQ(rec.count(l0c, AccessKind::Write), 16u);
  EXPECT_EQ(rec.count(l0c, AccessKind::Read), 2u);
  ASSERT_EQ(rec.comp.size(), 16u);
  for (auto& k : rec.comp) EXPECT_EQ(k.flops, 2u * 4 * 32 * 9);
}

}  // namespace ptosim::test
