// A level's dirty-line count is kept as lines turn dirty and clean (the
// report's dirty_lines_at_end, without a walk of every slot at the end of a
// run), and its unordered list of dirty lines feeds dirty_bytes_at_end: both
// must say exactly what the ordered walk (dirty_lines) says, after any mix of
// reads, writes, evictions, invalidations, cleans and flushes, for every kind of set
// (scanned, a wide set's map, one way, sub-blocks).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "tests/models/cache/cache_test_util.h"

namespace ptosim::test {
namespace {

void expect_agree(const CacheLevel& l, int step) {
  std::vector<uint64_t> ordered = l.dirty_lines(), unordered = l.dirty_lines_unordered();
  std::sort(ordered.begin(), ordered.end());
  std::sort(unordered.begin(), unordered.end());
  ASSERT_EQ(l.dirty_count(), ordered.size()) << "step " << step;
  ASSERT_EQ(unordered, ordered) << "step " << step;
}

void churn(CacheConfig c) {
  auto l = make_cache_level(c);
  BelowRecorder below;
  l->connect_below(&below);
  std::mt19937_64 rng(7);
  const uint64_t span = 4 * c.size;  // four times the level: evictions of dirty and clean lines
  uint64_t dirty_seen = 0;
  for (int step = 0; step < 4000; ++step) {
    const uint64_t addr = (rng() % span) & ~uint64_t(3);
    const unsigned what = rng() % 100;
    if (what < 55) l->request(rd(addr));
    else if (what < 95) l->request(wr(addr));
    else if (what < 97) {
      bool was_dirty = false;
      l->coherence_invalidate(addr / c.line, &was_dirty);
    } else if (what < 99) {
      l->coherence_clean(addr / c.line);
    } else {
      l->flush_at(0);
      ASSERT_EQ(l->dirty_count(), 0u) << "after a flush, step " << step;
    }
    dirty_seen = std::max<uint64_t>(dirty_seen, l->dirty_count());
    if (step % 37 == 0) expect_agree(*l, step);
  }
  expect_agree(*l, 4000);
  EXPECT_GT(dirty_seen, 4u);  // the stream did make lines dirty
  below.seen.clear();
}

TEST(DirtyCount, ScannedSetsLru) { churn(cache("L1", 4096, 4, 64)); }
TEST(DirtyCount, ScannedSetsRandom) { churn(cache("L1", 4096, 4, 64, "random")); }
TEST(DirtyCount, OneWay) { churn(cache("L1", 2048, 1, 64)); }
TEST(DirtyCount, WideSetsMap) { churn(cache("L2", 32 * 64 * 4, 32, 64)); }  // > kScanWays: the line map
TEST(DirtyCount, WideSetsMapPlru) { churn(cache("L2", 32 * 64 * 4, 32, 64, "plru")); }
TEST(DirtyCount, SubBlocks) {
  CacheConfig c = cache("L1", 4096, 4, 64);
  c.subblock = 16;
  churn(c);
}

}  // namespace
}  // namespace ptosim::test
