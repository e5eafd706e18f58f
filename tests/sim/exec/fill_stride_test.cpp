// Fill accesses (writes that initialise a read-only space) and strided
// scratchpad accesses (elem_bytes / stride set for the bank model).
#include "tests/sim/exec/exec_test_util.h"

namespace ptosim::test {

TEST(Fill, LoadIntoConstantIsFillNotWrite) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {8, 8});
  rec.clear();
  Tensor k = load(c, A, "constant");
  SpaceId cs = c.constant_space();
  EXPECT_EQ(rec.count(cs, AccessKind::Write), 0u);
  EXPECT_EQ(rec.bytes(cs, AccessKind::Fill), 8u * 8 * 4);
  EXPECT_EQ(rec.bytes(kGlobalSpace, AccessKind::Read), 8u * 8 * 4);
  EXPECT_EQ(k.to_vector(), A.to_vector());
  // copy() into constant is a fill as well; a copy out of constant is a plain write.
  rec.clear();
  Tensor k2 = copy(c, A, "constant");
  EXPECT_EQ(rec.bytes(cs, AccessKind::Fill), 8u * 8 * 4);
  EXPECT_EQ(rec.count(cs, AccessKind::Write), 0u);
  rec.clear();
  Tensor g = copy(c, k2, "shared");
  EXPECT_EQ(rec.count(cs, AccessKind::Fill) + rec.count(c.shared_space(), AccessKind::Fill), 0u);
  EXPECT_EQ(rec.bytes(c.shared_space(), AccessKind::Write), 8u * 8 * 4);
  // Ops, stores and element writes into constant remain errors.
  EXPECT_THROW(write_element(c, k, {0, 0}, 1.0), OpError);
  EXPECT_THROW(store(c, A, k), OpError);
}

TEST(Fill, ReuseKernelScopeFillsResidentTiles) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {16, 16});
  rec.clear();
  c.reuse_begin("A", "kernel");
  Tensor t1 = load(c, subscript(c, A, {sl(0, 8), sl(0, 8)}), "constant");
  Tensor t2 = load(c, subscript(c, A, {sl(0, 8), sl(0, 8)}), "constant");
  c.reuse_end();
  SpaceId cs = c.constant_space();
  EXPECT_EQ(rec.bytes(cs, AccessKind::Fill), 8u * 8 * 4);  // once: the second load is a hit
  EXPECT_EQ(rec.count(cs, AccessKind::Write), 0u);
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Read), 8u);
  EXPECT_EQ(t2.to_vector(), t1.to_vector());
}

TEST(Strided, ColumnOfSharedTileIsOneStridedAccess) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor t = make(c, "T", {16, 16}, "random", 1, "shared");
  Tensor col = subscript(c, t, {IndexItem::all(), IndexItem::at(3)});
  rec.clear();
  Tensor e = unary(c, OpKind::Exp, col);
  SpaceId sh = c.shared_space();
  ASSERT_EQ(rec.acc.size(), 2u);
  const Access& r = rec.acc[0];
  EXPECT_EQ(r.kind, AccessKind::Read);
  EXPECT_EQ(r.space, sh);
  EXPECT_EQ(r.addr, t.base_addr() + 3 * 4);
  EXPECT_EQ(r.elem_bytes, 4u);
  EXPECT_EQ(r.stride, 16 * 4);
  EXPECT_EQ(r.bytes, 16u * 4);
  // The result is a fresh contiguous vector: a plain access.
  const Access& w = rec.acc[1];
  EXPECT_EQ(w.kind, AccessKind::Write);
  EXPECT_EQ(w.elem_bytes, 0u);
  EXPECT_EQ(w.stride, 0);
  EXPECT_EQ(w.bytes, 16u * 4);
  EXPECT_EQ(w.addr, e.base_addr());
}

TEST(Strided, MicroKernelPassesRepeatStridedReads) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor a = make(c, "a", {16, 8}, "random", 1, "shared");
  Tensor b = make(c, "b", {16, 16}, "random", 2, "shared");
  rec.clear();
  // a^T (8x16, a column-major view): each of its 8 rows is 16 elements 32 B apart.
  Tensor m = matmul(c, a.transpose(), b);
  SpaceId sh = c.shared_space();
  uint64_t strided = 0;
  for (auto& x : rec.acc)
    if (x.space == sh && x.kind == AccessKind::Read && x.tensor == a.tag()) {
      EXPECT_EQ(x.elem_bytes, 4u);
      EXPECT_EQ(x.stride, 8 * 4);
      EXPECT_EQ(x.bytes, 16u * 4);
      ++strided;
    }
  EXPECT_EQ(strided, 8u * 2);  // 8 rows, ceil(N/8) = 2 passes
  EXPECT_EQ(rec.bytes(sh, AccessKind::Read, a.tag()), 2u * 16 * 8 * 4);
  (void)m;
}

TEST(Strided, TransposedCopyInShared) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor t = make(c, "T", {8, 16}, "random", 1, "shared");
  rec.clear();
  Tensor u = load(c, t.transpose(), "shared");  // 16 x 8
  SpaceId sh = c.shared_space();
  ASSERT_EQ(rec.acc.size(), 17u);
  for (int i = 0; i < 16; ++i) {
    const Access& r = rec.acc[size_t(i)];
    EXPECT_EQ(r.kind, AccessKind::Read);
    EXPECT_EQ(r.addr, t.base_addr() + uint64_t(i) * 4);
    EXPECT_EQ(r.elem_bytes, 4u);
    EXPECT_EQ(r.stride, 16 * 4);
    EXPECT_EQ(r.bytes, 8u * 4);
  }
  const Access& w = rec.acc[16];
  EXPECT_EQ(w.kind, AccessKind::Write);
  EXPECT_EQ(w.space, sh);
  EXPECT_EQ(w.elem_bytes, 0u);
  EXPECT_EQ(w.bytes, 16u * 8 * 4);
  EXPECT_EQ(u.to_vector(), t.transpose().to_vector());
  // Storing it back transposed: contiguous reads, strided writes.
  rec.clear();
  store(c, u.transpose(), t);
  ASSERT_EQ(rec.acc.size(), 9u);
  for (int i = 0; i < 8; ++i) {  // u^T row i: 16 elements of u's column i, 32 B apart
    EXPECT_EQ(rec.acc[size_t(i)].addr, u.base_addr() + uint64_t(i) * 4);
    EXPECT_EQ(rec.acc[size_t(i)].elem_bytes, 4u);
    EXPECT_EQ(rec.acc[size_t(i)].stride, 8 * 4);
    EXPECT_EQ(rec.acc[size_t(i)].bytes, 16u * 4);
  }
  EXPECT_EQ(rec.acc[8].kind, AccessKind::Write);
  EXPECT_EQ(rec.acc[8].elem_bytes, 0u);
  EXPECT_EQ(rec.acc[8].bytes, 8u * 16 * 4);
  EXPECT_EQ(t.to_vector(), u.transpose().to_vector());
}

TEST(Strided, ContiguousAndGlobalTrafficUnchanged) {
  HwConfig cfg = small_config();
  Recorder rec;
  ExecContext c(cfg, &rec);
  Tensor A = make(c, "A", {32, 32});
  Tensor s = make(c, "S", {16, 16}, "random", 1, "shared");
  rec.clear();
  // A row block of a shared tile: runs of 8 elements stay plain accesses.
  Tensor sub = load(c, subscript(c, s, {sl(0, 4), sl(0, 8)}), "register");
  for (auto& x : rec.acc) EXPECT_EQ(x.elem_bytes, 0u);
  EXPECT_EQ(rec.count(c.shared_space(), AccessKind::Read), 4u);
  // Global strided operands stay one access per element, never strided.
  rec.clear();
  unary(c, OpKind::Exp, subscript(c, A, {IndexItem::all(), IndexItem::at(0)}));
  EXPECT_EQ(rec.count(kGlobalSpace, AccessKind::Read), 32u);
  for (auto& x : rec.acc) EXPECT_EQ(x.elem_bytes, 0u);
  (void)sub;
}

}  // namespace ptosim::test
