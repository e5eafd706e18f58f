#include <cmath>

#include "tests/sim/exec/exec_test_util.h"

namespace ptosim::test {

TEST(DType, RoundingRules) {
  EXPECT_EQ(round_to(DType::F16, 1.0 + 1.0 / 4096), 1.0);             // below half ulp
  EXPECT_EQ(round_to(DType::F16, 1.0 + 3.0 / 2048), 1.0 + 2.0 / 1024);  // tie -> even
  EXPECT_TRUE(std::isinf(round_to(DType::F16, 70000.0)));
  EXPECT_EQ(round_to(DType::BF16, 1.0 + 1.0 / 256), 1.0);             // tie -> even (1.0)
  EXPECT_EQ(round_to(DType::I32, -2.7), -2.0);
  EXPECT_EQ(round_to(DType::I8, 130.0), -126.0);
  EXPECT_EQ(round_to(DType::I32, 4294967296.0 + 5), 5.0);
  EXPECT_EQ(promote(DType::F16, DType::BF16), DType::F32);
  EXPECT_EQ(promote(DType::I8, DType::F16), DType::F16);
  uint8_t b[4];
  encode(DType::F16, 1.0, b);
  EXPECT_EQ(b[0], 0x00);
  EXPECT_EQ(b[1], 0x3c);
}

TEST(Rng, DeterministicUniform) {
  Rng a(1), b(1), d(2);
  double x = a.uniform();
  EXPECT_EQ(x, b.uniform());
  EXPECT_NE(x, d.uniform());
  Rng r(7);
  for (int i = 0; i < 1000; ++i) {
    double v = r.uniform();
    EXPECT_GE(v, -1.0);
    EXPECT_LT(v, 1.0);
  }
}

TEST(Tensor, ViewsShareStorageAndIndexLogically) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  Tensor a = make(c, "A", {4, 6}, "arange");
  Tensor v = a.index({sl(1, 3), IndexItem::slice(0, 6, 2)});
  EXPECT_EQ(v.shape(), (Shape{2, 3}));
  EXPECT_EQ(v.to_vector(), (std::vector<double>{6, 8, 10, 12, 14, 16}));
  Tensor row = a.index({IndexItem::at(-1)});
  EXPECT_EQ(row.shape(), (Shape{6}));
  EXPECT_EQ(row.get({0}), 18);
  Tensor t = a.transpose();
  EXPECT_EQ(t.shape(), (Shape{6, 4}));
  EXPECT_EQ(t.get({5, 1}), 11);
  EXPECT_TRUE(a.reshape_view({2, 12}).has_value());
  EXPECT_FALSE(t.reshape_view({24}).has_value());  // transposed: needs a copy
  EXPECT_THROW(a.index({IndexItem::at(4)}), OpError);
  Tensor neg = a.index({IndexItem::slice(std::nullopt, std::nullopt, -1)});
  EXPECT_EQ(neg.get({0, 0}), 18);
}

TEST(Tensor, LayoutsChangeAddressesNotValues) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  Tensor r = make(c, "R", {4, 4}, "arange");
  Tensor cm = make(c, "C", {4, 4}, "arange", 0, "", DType::F32, Layout::col_major());
  Tensor bl = make(c, "B", {4, 4}, "arange", 0, "", DType::F32, Layout::blocked({2, 2}));
  Tensor ve = make(c, "V", {3, 5}, "arange", 0, "", DType::F32, Layout::vectorized(4));
  EXPECT_EQ(r.to_vector(), cm.to_vector());
  EXPECT_EQ(r.to_vector(), bl.to_vector());
  int64_t i01[] = {0, 1}, i10[] = {1, 0}, i02[] = {0, 2};
  EXPECT_EQ(cm.addr_of(i10) - cm.base_addr(), 4u);
  EXPECT_EQ(bl.addr_of(i01) - bl.base_addr(), 4u);
  EXPECT_EQ(bl.addr_of(i10) - bl.base_addr(), 8u);
  EXPECT_EQ(bl.addr_of(i02) - bl.base_addr(), 16u);  // next block
  int64_t v04[] = {0, 4}, v10[] = {1, 0};
  EXPECT_EQ(ve.addr_of(v10) - ve.base_addr(), 16u);      // rows of 4-lane vectors
  EXPECT_EQ(ve.addr_of(v04) - ve.base_addr(), 3 * 16u);  // second vector column after all rows
  EXPECT_EQ(ve.get({2, 4}), 14);
  // Blocked views slice and transpose correctly.
  EXPECT_EQ(bl.index({sl(1, 4), sl(1, 3)}).to_vector(), r.index({sl(1, 4), sl(1, 3)}).to_vector());
  EXPECT_EQ(bl.transpose().to_vector(), r.transpose().to_vector());
}

// from_vector writes a whole row-major allocation in order and every other
// view through its index map: both read back what was written (rounded to
// the dtype), and a slice leaves the rest of its allocation alone.
TEST(Tensor, FromVectorFillsEveryLayoutAndView) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  std::vector<double> v(12);
  for (size_t i = 0; i < v.size(); ++i) v[i] = 0.1 + double(i);
  std::vector<double> f32(v.size());
  for (size_t i = 0; i < v.size(); ++i) f32[i] = double(float(v[i]));
  for (const Layout& l : {Layout::row_major(), Layout::col_major(), Layout::blocked({2, 2}), Layout::vectorized(4)}) {
    Tensor t = make(c, "T", {3, 4}, "zeros", 0, "", DType::F32, l);
    t.from_vector(v);
    EXPECT_EQ(t.to_vector(), f32) << l.str();
  }
  Tensor ones = make(c, "U", {1, 3, 1, 4}, "zeros", 0, "", DType::I8);  // unit dims: still in order
  ones.from_vector(std::vector<double>(12, 300.0));
  EXPECT_EQ(ones.to_vector(), std::vector<double>(12, 44.0));  // 300 wraps to 44 in int8
  Tensor a = make(c, "A", {4, 6}, "arange");
  Tensor part = a.index({sl(1, 3), IndexItem::slice(0, 6, 2)});
  part.from_vector({-1, -2, -3, -4, -5, -6});
  EXPECT_EQ(a.to_vector(), (std::vector<double>{0,  1,  2,  3,  4,  5,  -1, 7,  -2, 9,  -3, 11,
                                                -4, 13, -5, 15, -6, 17, 18, 19, 20, 21, 22, 23}));
  EXPECT_EQ(make(c, "Z", {2, 3}, "zeros").to_vector(), std::vector<double>(6, 0.0));
}

TEST(Allocator, AlignmentCapacityAndReuse) {
  SpaceAllocator a("shared", 1, 0x1000, 1024, 64);
  uint64_t x = a.allocate(10, "x");
  uint64_t y = a.allocate(100, "y");
  EXPECT_EQ(x, 0x1000u);
  EXPECT_EQ(y, 0x1040u);
  EXPECT_EQ(a.in_use(), 64u + 128u);
  a.release(x);
  EXPECT_EQ(a.allocate(64, "z"), 0x1000u);  // first fit reuses the hole
  try {
    a.allocate(2000, "big");
    FAIL();
  } catch (const OpError& e) {
    EXPECT_STREQ(e.what(),
                 "cannot allocate 'big' (2000 bytes) in space 'shared': 832 bytes free of 1024, the largest free "
                 "block 832 bytes");
  }
  EXPECT_EQ(a.peak(), 192u);
}

// The refusal says what would fit: with the free bytes split by a tensor
// still live, the largest block, not their sum.
TEST(Allocator, RefusalNamesTheLargestFreeBlock) {
  SpaceAllocator a("shared", 1, 0, 1024, 64);
  a.allocate(256, "a");
  const uint64_t b = a.allocate(256, "b");
  a.allocate(256, "c");
  a.release(b);  // free: 256 at 256 and 256 at 768
  try {
    a.allocate(300, "d");
    FAIL();
  } catch (const OpError& e) {
    EXPECT_STREQ(e.what(),
                 "cannot allocate 'd' (300 bytes) in space 'shared': 512 bytes free of 1024, the largest free block "
                 "256 bytes");
  }
  EXPECT_EQ(a.allocate(256, "e"), 256u);  // what it said fits, fits
}

TEST(Scopes, FreeAtScopeExitAndUseAfterFree) {
  HwConfig cfg = small_config(4096);
  ExecContext c(cfg, nullptr);
  Tensor outer;
  c.scope_begin("x");
  {
    Tensor t = make(c, "T", {32, 32}, "ones", 0, "shared");  // 4096 B: the whole space
    outer = t;
    EXPECT_THROW(make(c, "U", {1}, "ones", 0, "shared"), OpError);
  }
  c.scope_end();
  try {
    unary(c, OpKind::Exp, outer);
    FAIL();
  } catch (const OpError& e) {
    EXPECT_STREQ(e.what(), "use of freed tensor 'T' (freed at end of scope 'x')");
  }
  Tensor again = make(c, "U", {32, 32}, "ones", 0, "shared");  // space is free again
  EXPECT_EQ(again.space_name(), "shared");
  ProgramResult r = c.take_result();
  EXPECT_EQ(r.footprint["shared"].peak_bytes, 4096u);
  EXPECT_EQ(r.footprint["shared"].capacity, 4096u);
}

TEST(Scopes, RefcountDropFrees) {
  HwConfig cfg = small_config(4096);
  ExecContext c(cfg, nullptr);
  { Tensor t = make(c, "T", {32, 32}, "ones", 0, "shared"); }
  Tensor u = make(c, "U", {32, 32}, "ones", 0, "shared");
  EXPECT_TRUE(u.valid());
}

TEST(Events, MaxEventsGuard) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr, 10);
  Tensor a = make(c, "A", {4, 4});
  for (int i = 0; i < 10; ++i) read_element(c, a, {0, 0});
  try {
    read_element(c, a, {0, 0});
    FAIL();
  } catch (const OpError& e) {
    EXPECT_STREQ(e.what(), "event limit 10 exceeded (--max-events)");
  }
}

}  // namespace ptosim::test
