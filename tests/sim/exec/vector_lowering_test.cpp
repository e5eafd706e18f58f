// The CPU lowering of matmul and conv2d (sim/exec/register_block.h), counted exactly:
// packing, register blocks, vector loads, results in place.
#include "tests/sim/exec/exec_test_util.h"

namespace ptosim::test {

namespace {

// A CPU: 64 B vectors, a 2 KiB register file (32 vector registers), tiles
// staged in L1's address space as the Xeon config does.
HwConfig cpu_config() {
  HwConfig c;
  c.core.vector_bytes = 64;
  CacheConfig l1;
  l1.name = "L1"; l1.size = 32 * 1024; l1.ways = 8; l1.line = 64;
  c.caches.push_back(l1);
  MemoryConfig regs; regs.name = "register"; regs.kind = MemoryKind::Register; regs.size = 2048;
  c.memories = {regs};
  c.spaces = {{"global", "L1"}, {"shared", "L1"}, {"register", "register"}, {"constant", "L1"}};
  return c;
}

uint64_t count_tag(const Recorder& r, TagId tag, AccessKind k) {
  uint64_t n = 0;
  for (auto& a : r.acc) n += a.tensor == tag && a.kind == k;
  return n;
}

}  // namespace

TEST(MicroKernel, Tile16x16x16On64ByteVectorsIsCountedExactly) {
  HwConfig cfg = cpu_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {16, 16}, "random", 1), B = make(c, "B", {16, 16}, "random", 2);
  Tensor plain = matmul(c, A, B);
  rec.clear();
  Tensor C = tiled_matmul(c, A, B, 16, 16, 16);
  EXPECT_EQ(C.to_vector(), plain.to_vector());
  const SpaceId sh = c.shared_space();
  // Packing: each 16x16 f32 tile is 16 row reads of 64 B and 16 vector stores.
  EXPECT_EQ(count_tag(rec, A.tag(), AccessKind::Read), 16u);
  EXPECT_EQ(count_tag(rec, B.tag(), AccessKind::Read), 16u);
  EXPECT_EQ(rec.count(sh, AccessKind::Write), 32u);
  // Micro-kernel 16x16 (MR = 16 rows, NR = one vector): per k, one B vector
  // and 16 broadcasts of A.
  EXPECT_EQ(rec.count(sh, AccessKind::Read), 16u * (1 + 16));
  uint64_t broadcasts = 0;
  for (auto& a : rec.acc) broadcasts += a.space == sh && a.kind == AccessKind::Read && a.bytes == 4;
  EXPECT_EQ(broadcasts, 256u);
  // C written in place once, a vector per row; never read (one k tile).
  EXPECT_EQ(count_tag(rec, C.tag(), AccessKind::Write), 16u);
  EXPECT_EQ(count_tag(rec, C.tag(), AccessKind::Read), 0u);
  // The FMAs of each k step between its loads and the next step's: 16 of 512.
  ASSERT_EQ(rec.comp.size(), 16u);
  for (auto& k : rec.comp) EXPECT_EQ(k.flops, 2u * 16 * 16);
  for (auto& k : rec.comp) EXPECT_EQ(k.masked, 0u);
  for (auto& a : rec.acc) EXPECT_NE(a.space, c.register_space());
}

// A block narrower than a vector issues whole FMAs: 16 rows of 8 columns on
// 16-lane vectors mask half of each off (Compute::masked), and a k range of
// a transposed operand shorter than a vector (the dot-product form) masks
// the rest of its lanes.
TEST(MicroKernel, LanesABlockLeavesEmptyAreChargedAsMasked) {
  HwConfig cfg = cpu_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {16, 16}, "random", 1), B = make(c, "B", {16, 8}, "random", 2);
  rec.clear();
  tiled_matmul(c, A, B, 16, 8, 16);
  ASSERT_EQ(rec.comp.size(), 16u);
  for (auto& k : rec.comp) {
    EXPECT_EQ(k.flops, 2u * 16 * 8);
    EXPECT_EQ(k.masked, 2u * 16 * 8);
    EXPECT_EQ(k.issued(), 2u * 16 * 16);
  }
  // 16x24: two vectors a row, the second half empty.
  Tensor B24 = make(c, "B24", {16, 24}, "random", 3);
  rec.clear();
  tiled_matmul(c, A, B24, 16, 24, 16);
  uint64_t flops = 0, masked = 0;
  for (auto& k : rec.comp) flops += k.flops, masked += k.masked;
  EXPECT_EQ(flops, 2u * 16 * 24 * 16);
  EXPECT_EQ(masked, 2u * 16 * 8 * 16);
}

TEST(MicroKernel, KTilesReadAndWriteCInPlace) {
  HwConfig cfg = cpu_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {16, 64}, "random", 1), B = make(c, "B", {64, 32}, "random", 2);
  rec.clear();
  Tensor C = tiled_matmul(c, A, B, 16, 32, 16);
  // 4 k tiles; a 16x32 block (2 vectors a row): C loaded by the last 3, stored by all 4.
  EXPECT_EQ(count_tag(rec, C.tag(), AccessKind::Read), 3u * 16 * 2);
  EXPECT_EQ(count_tag(rec, C.tag(), AccessKind::Write), 4u * 16 * 2);
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Write, C.tag()), 4u * 16 * 32 * 4);
}

TEST(MicroKernel, TransposedOperandIsPackedAlongItsContiguousDimension) {
  HwConfig cfg = cpu_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {16, 16}, "random", 1), Bm = make(c, "Bm", {16, 16}, "random", 2);
  Tensor Bt = Bm.transpose({1, 0});
  Tensor plain = matmul(c, A, Bt);
  rec.clear();
  Tensor C = tiled_matmul(c, A, Bt, 16, 16, 16);
  EXPECT_EQ(C.to_vector(), plain.to_vector());
  // 16 reads of 64 B (rows of Bm), not 256 of one element.
  EXPECT_EQ(count_tag(rec, Bm.tag(), AccessKind::Read), 16u);
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Read, Bm.tag()), 1024u);
}

TEST(MicroKernel, UntiledMatmulIsRegisterBlockedVectorCode) {
  HwConfig cfg = small_config();  // 32 B vectors
  Recorder rec;
  ExecContext c(cfg, &rec);
  const int64_t M = 4, N = 3, K = 16;
  Tensor A = make(c, "A", {M, K}), B = make(c, "B", {K, N});
  rec.clear();
  Tensor C = matmul(c, A, B);
  // One 4x3 block: per k, the B row (12 B, one load) and 4 broadcasts of A.
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Read), uint64_t(K * (1 + M)));
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Write), uint64_t(M));
  EXPECT_EQ(rec.acc[0].addr, B.base_addr());
  EXPECT_EQ(rec.acc[0].bytes, 12u);
  EXPECT_EQ(rec.acc[1].addr, A.base_addr());
  EXPECT_EQ(rec.acc[2].addr, A.base_addr() + K * 4);
  EXPECT_EQ(rec.acc[5].addr, B.base_addr() + N * 4);
  EXPECT_EQ(rec.acc.back().addr, C.base_addr() + 3 * N * 4);
  ASSERT_EQ(rec.comp.size(), uint64_t(K));  // one per k step
  for (auto& k : rec.comp) EXPECT_EQ(k.flops, uint64_t(2 * M * N));
}

// An untiled matmul whose operands overflow half of L1 runs as a BLAS does
// (matmul_vector.cpp, blas_blocking): B's block packed in NR panels, A's in
// MR panels, each operand read once along its contiguous dimension at these
// sizes (KC = 128 = K, NC = 32 = N, MC = 28), a transposed B too.
TEST(MicroKernel, UntiledMatmulBeyondL1IsPackedAsABlasDoes) {
  HwConfig cfg = cpu_config();  // 64 B vectors, L1 32 KiB: MR 14, NR 32
  for (bool transposed : {false, true}) {
    Recorder rec;
    ExecContext c(cfg, &rec);
    Tensor A = make(c, "A", {64, 128}, "random", 1);  // 32 KiB
    Tensor Bm = transposed ? make(c, "B", {32, 128}, "random", 2) : make(c, "B", {128, 32}, "random", 2);
    Tensor B = transposed ? Bm.transpose({1, 0}) : Bm;
    std::vector<double> want(64 * 32, 0.0);
    const std::vector<double> a = A.to_vector(), b = B.to_vector();  // in logical order
    for (int i = 0; i < 64; ++i)
      for (int k = 0; k < 128; ++k)
        for (int j = 0; j < 32; ++j) want[size_t(i * 32 + j)] += a[size_t(i * 128 + k)] * b[size_t(k * 32 + j)];
    rec.clear();
    Tensor C = matmul(c, A, B);
    const std::vector<double> got = C.to_vector();
    for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-3) << i;
    EXPECT_EQ(count_tag(rec, A.tag(), AccessKind::Read), 64u * 8) << transposed;   // 8 vectors a row, once
    EXPECT_EQ(count_tag(rec, Bm.tag(), AccessKind::Read), 256u) << transposed;     // 16 KiB in vectors, once
    EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Read, Bm.tag()), 16384u) << transposed;
    // Register blocks read only the packed panels: per k, two B vectors and
    // a broadcast a row; C written once (one KC).
    EXPECT_EQ(count_tag(rec, C.tag(), AccessKind::Read), 0u) << transposed;
  }
}

TEST(MicroKernel, UntiledTransposedBIsDotProducts) {
  HwConfig cfg = small_config();  // 32 B vectors: 8 lanes; 32 registers: 4x4 dot blocks
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {4, 32}), Bm = make(c, "Bm", {3, 32});
  Tensor plain_values = matmul(c, A, Bm.transpose({1, 0}));
  rec.clear();
  Tensor C = matmul(c, A, Bm.transpose({1, 0}));
  EXPECT_EQ(C.to_vector(), plain_values.to_vector());
  // 4 vectors of k: per vector, 4 A rows and 3 B^T rows, one load each.
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Read), 4u * (4 + 3));
  for (auto& a : rec.acc) {
    if (a.kind == AccessKind::Read) { EXPECT_EQ(a.bytes, 32u); }
  }
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Write), 4u);
}

TEST(MicroKernel, EveryTileShapeRunsOnACpuWithATwoKiBRegisterFile) {
  HwConfig cfg = cpu_config();
  ExecContext c(cfg, nullptr);
  Tensor A = make(c, "A", {128, 96}, "random", 1), B = make(c, "B", {96, 128}, "random", 2);
  Tensor plain = matmul(c, A, B);
  for (int64_t tm : {16, 32, 64, 128})
    for (int64_t tn : {16, 32, 64, 128}) {
      Tensor t = tiled_matmul(c, A, B, tm, tn, 32);
      EXPECT_EQ(t.to_vector(), plain.to_vector()) << tm << "x" << tn;
    }
}

}  // namespace ptosim::test

namespace ptosim::test {

TEST(ConvVector, DirectConvIsImplicitGemmPerOutputRow) {
  HwConfig cfg = small_config();  // 32 B vectors: 8 lanes
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor x = make(c, "x", {1, 1, 8, 8}, "random", 1), w = make(c, "w", {2, 1, 3, 3}, "random", 2);
  rec.clear();
  Tensor y = conv2d(c, x, w, 1, 1);
  // Per output row, one 2 x 8 block; per (kh, kw) whose input row is inside
  // the image, the shifted input row clipped to it (one load: 7 or 8
  // floats) and 2 weight broadcasts. 22 (oh, kh) rows are inside.
  uint64_t in_reads = 0, w_reads = 0;
  for (auto& a : rec.acc) {
    in_reads += a.tensor == x.tag() && a.kind == AccessKind::Read;
    w_reads += a.tensor == w.tag() && a.kind == AccessKind::Read;
  }
  EXPECT_EQ(in_reads, 22u * 3);
  EXPECT_EQ(w_reads, 22u * 3 * 2);
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Write), 8u * 2);
  EXPECT_EQ(rec.acc.size(), 22u * 3 * 3 + 16);
  uint64_t flops = 0;
  for (auto& k : rec.comp) flops += k.flops;
  EXPECT_EQ(flops, 2u * 2 * 8 * 8 * 9);
}

TEST(ConvVector, EveryConvTileRunsOnACpuAndKeepsValues) {
  HwConfig cfg = cpu_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor x = make(c, "x", {1, 8, 12, 12}, "random", 1), w = make(c, "w", {16, 8, 3, 3}, "random", 2);
  Tensor plain = conv2d(c, x, w, 1, 1);
  for (int64_t tf : {4, 16})
    for (int64_t th : {3, 12}) {
      TileDirective td;
      td.sizes = {{"F", tf}, {"H", th}, {"W", 12}, {"C", 4}};
      c.tile_push(td);
      rec.clear();
      Tensor t = conv2d(c, x, w, 1, 1);
      c.tile_pop();
      EXPECT_EQ(t.to_vector(), plain.to_vector());
      for (auto& a : rec.acc) EXPECT_NE(a.space, c.register_space());
      uint64_t flops = 0;
      for (auto& k : rec.comp) flops += k.flops;
      EXPECT_EQ(flops, 2u * 16 * 144 * 72);
    }
}

}  // namespace ptosim::test

namespace ptosim::test {

// A result in `register` with cached input and constant weights (the
// ladder's cached rung on a CPU) runs the same register blocks as the
// all-cached conv: each weight broadcast once per block and k step, not
// once per (output element, tap) as the mixed walk read it.
TEST(ConvVector, RegisterResultIsTheBlocksAccumulators) {
  HwConfig cfg = small_config();  // 32 B vectors: 8 lanes
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor x = make(c, "x", {1, 1, 8, 8}, "random", 1), w = make(c, "w", {2, 1, 3, 3}, "random", 2, "constant");
  rec.clear();
  c.memory_push("register");
  Tensor y = conv2d(c, x, w, 1, 1);
  c.memory_pop();
  EXPECT_EQ(y.space(), c.register_space());
  // As DirectConvIsImplicitGemmPerOutputRow: 22 (oh, kh) rows inside the
  // image x 3 taps: one input load and 2 weight broadcasts each; the 8 rows
  // x 2 filters of the result stored a vector each, in the register space.
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Read), 22u * 3);
  EXPECT_EQ(rec.count(c.constant_space(), AccessKind::Read), 22u * 3 * 2);
  EXPECT_EQ(rec.count(c.register_space(), AccessKind::Write), 8u * 2);
  EXPECT_EQ(rec.acc.size(), 22u * 3 * 3 + 16);
}

// An untiled matmul with A cached and B in a scratchpad: register blocks, A
// read once an element (a broadcast per row of a block and k step), where the
// mixed walk read A's k run once per output element (16 x 8 x 2 reads of
// 32 B: 8192 B for a 1024 B operand).
TEST(MatmulVector, MixedSpacesReadACachedOperandOncePerBlockNotPerOutput) {
  HwConfig cfg = small_config();  // 32 B vectors: 8 lanes; shared a scratchpad
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {16, 16}, "random", 1), B = make(c, "B", {16, 8}, "random", 2, "shared");
  rec.clear();
  Tensor C = matmul(c, A, B);
  EXPECT_EQ(C.space(), kGlobalSpace);
  // B is one vector wide, so every block holds all 8 columns: each element of A broadcast once.
  EXPECT_EQ(count_tag(rec, A.tag(), AccessKind::Read), 16u * 16);
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Read, A.tag()), 16u * 16 * 4);
  // One 16 x 8 block (32 vector registers: MR = 16, NR = 8): B's row read as a vector once per k step;
  // C written a vector per row, never read.
  EXPECT_EQ(count_tag(rec, B.tag(), AccessKind::Read), 16u);
  EXPECT_EQ(rec.bytes(c.shared_space(), AccessKind::Read, B.tag()), 16u * 32);
  EXPECT_EQ(count_tag(rec, C.tag(), AccessKind::Write), 16u);
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Write, C.tag()), 16u * 8 * 4);
  EXPECT_EQ(count_tag(rec, C.tag(), AccessKind::Read), 0u);
  uint64_t flops = 0;
  for (auto& k : rec.comp) flops += k.flops;
  EXPECT_EQ(flops, 2u * 16 * 8 * 16);
}

}  // namespace ptosim::test
