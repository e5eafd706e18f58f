// Coalescer::add_contiguous is a shortcut for a loop of add(): pack() takes
// it for every contiguous line, so any event it made differently would change
// every CPU lowering's figures. Compared here against the loop itself.
#include "sim/exec/emit.h"
#include "tests/sim/exec/exec_test_util.h"

namespace ptosim::test {
namespace {

// The accesses both ways of adding `count` elements of `es` bytes from `a`
// make, after an optional earlier element at `before` (the open run the
// shortcut has to join or leave).
std::pair<std::vector<Access>, std::vector<Access>> both(uint64_t cap, uint64_t before, uint64_t a, uint64_t es,
                                                          uint64_t count) {
  HwConfig cfg = small_config();
  std::vector<Access> out[2];
  for (int fast = 0; fast < 2; ++fast) {
    Recorder rec;
    ExecContext c(cfg, &rec);
    Tensor t = make(c, "T", {4096});
    exec::detail::Coalescer co(c, AccessKind::Read, t, cap);
    if (before != ~0ull) co.add(t.base_addr() + before, es);
    if (fast)
      co.add_contiguous(t.base_addr() + a, es, count);
    else
      for (uint64_t e = 0; e < count; ++e) co.add(t.base_addr() + a + e * es, es);
    co.flush();
    out[fast] = rec.acc;
  }
  return {out[0], out[1]};
}

TEST(Coalescer, AddContiguousMakesTheAccessesOfAddOneByOne) {
  size_t cases = 0;
  for (uint64_t cap : {4u, 6u, 16u, 32u, 64u})
    for (uint64_t es : {2u, 4u, 8u})
      for (uint64_t count : {0u, 1u, 3u, 8u, 17u, 40u})
        for (uint64_t before : {~0ull, 0ull, 12ull, 96ull, 100ull}) {
          auto [slow, fast] = both(cap, before, 96, es, count);
          ASSERT_EQ(slow.size(), fast.size()) << "cap " << cap << " es " << es << " count " << count;
          for (size_t i = 0; i < slow.size(); ++i) {
            EXPECT_EQ(slow[i].addr, fast[i].addr) << "cap " << cap << " es " << es << " count " << count << " #" << i;
            EXPECT_EQ(slow[i].bytes, fast[i].bytes) << "cap " << cap << " es " << es << " count " << count << " #" << i;
          }
          ++cases;
        }
  EXPECT_EQ(cases, 5u * 3 * 6 * 5);
}

// A run of 40 floats under 32-byte vectors: five whole vectors, in order.
TEST(Coalescer, AddContiguousSplitsAtTheVectorWidth) {
  auto [slow, fast] = both(32, ~0ull, 0, 4, 40);
  ASSERT_EQ(fast.size(), 5u);
  for (size_t i = 0; i < fast.size(); ++i) {
    EXPECT_EQ(fast[i].bytes, 32u);
    EXPECT_EQ(fast[i].addr - fast[0].addr, 32u * i);
  }
}

}  // namespace
}  // namespace ptosim::test
