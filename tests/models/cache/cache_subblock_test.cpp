// Sub-blocks (Dinero IV's -lN-Tsbsize) on hand-made sequences: what a level
// with sub-blocks sends below and in which order, how it counts sub-block
// and block misses, and the two prefetchers that act within a line. Each
// expectation is what Dinero IV's d4ref does (the golden suites check the
// counts on generated traces; this checks the sequences themselves).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/models/cache/cache_test_util.h"

namespace ptosim::test {
namespace {


// 64 B lines of four 16 B sub-blocks, one set of two ways unless told.
CacheConfig sub(uint64_t size = 128, uint32_t ways = 2) {
  CacheConfig c = cache("L1", size, ways, 64);
  c.subblock = 16;
  return c;
}

TEST(Subblocks, AMissFetchesTheTouchedSubblocksOnly) {
  auto l1 = make_cache_level(sub());
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(rd(0x14, 4));   // block miss: sub-block 1
  l1->request(rd(0x18, 4));   // hit
  l1->request(rd(0x2c, 8));   // sub-block miss: sub-blocks 2 and 3
  l1->request(rd(0x10, 40));  // sub-blocks 1..3, all valid: a hit
  EXPECT_EQ(below.seen, (Seq{"r 0x10 16", "r 0x20 32"}));
  const LevelStats& s = l1->stats();
  EXPECT_EQ(s.reads, 4u);
  EXPECT_EQ(s.read_misses, 2u);  // sub-block misses
  EXPECT_EQ(s.block_misses, 1u);
  EXPECT_EQ(s.compulsory, 2u);
  EXPECT_EQ(s.compulsory_blocks, 1u);
}

TEST(Subblocks, AMissRefetchesTouchedSubblocksThatAreValid) {
  auto l1 = make_cache_level(sub());
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(rd(0x10, 4));
  l1->request(rd(0x0c, 8));  // sub-blocks 0 (missing) and 1 (valid): both fetched, as Dinero IV
  EXPECT_EQ(below.seen, (Seq{"r 0x10 16", "r 0x0 32"}));
}

TEST(Subblocks, DirtySubblocksGoBelowAsRunsTheHighestFirst) {
  auto l1 = make_cache_level(sub(128, 2));
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(wr(0x00, 16));  // exact sub-block writes: nothing fetched
  l1->request(wr(0x10, 16));
  l1->request(wr(0x30, 16));
  l1->request(rd(0x40, 4));  // the second way
  below.seen.clear();
  l1->request(rd(0x80, 4));  // evicts line 0: runs 0x00-0x1f and 0x30-0x3f
  EXPECT_EQ(below.seen, (Seq{"r 0x80 16", "w 0x30 16 wb", "w 0x0 32 wb"}));
  EXPECT_EQ(l1->stats().writebacks, 1u);
}

TEST(Subblocks, TheFlushWritesRunsAndTheLineStaysClean) {
  auto l1 = make_cache_level(sub());
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(wr(0x08, 4));  // fetches sub-block 0, dirties it
  l1->request(wr(0x28, 4));  // sub-block 2
  below.seen.clear();
  l1->flush();
  l1->flush();
  EXPECT_EQ(below.seen, (Seq{"w 0x20 16 wb", "w 0x0 16 wb"}));
}

TEST(Subblocks, AWriteToAPresentLineNeedsNoWriteAllocate) {
  CacheConfig c = sub();
  c.write_allocate = false;
  auto l1 = make_cache_level(c);
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(wr(0x48, 4));  // block miss, no allocate: the write goes below
  l1->request(rd(0x04, 4));  // fetches sub-block 0
  l1->request(wr(0x28, 4));  // sub-block miss of a present line: valid and dirty, nothing below
  l1->request(rd(0x20, 4));  // a hit
  EXPECT_EQ(below.seen, (Seq{"w 0x48 4", "r 0x0 16"}));
  EXPECT_EQ(l1->stats().write_misses, 2u);
  EXPECT_EQ(l1->stats().block_misses, 2u);
  EXPECT_EQ(l1->stats().read_misses, 1u);
}

TEST(Subblocks, WriteThroughFetchesThenWritesThrough) {
  CacheConfig c = sub();
  c.write_back = false;
  auto l1 = make_cache_level(c);
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(wr(0x14, 4));   // fetch sub-block 1, then the write
  l1->request(wr(0x20, 16));  // covers sub-block 2: no fetch, the write
  EXPECT_EQ(below.seen, (Seq{"r 0x10 16", "w 0x14 4", "w 0x20 16"}));
}

TEST(Subblocks, NofetchAllocatesOnlyExactSubblockWrites) {
  CacheConfig c = sub();
  c.allocate_nofetch = true;
  auto l1 = make_cache_level(c);
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(wr(0x04, 4));   // not exact: no allocate, goes below
  l1->request(wr(0x10, 16));  // exact: allocated dirty, nothing fetched
  l1->request(rd(0x14, 4));   // a hit
  EXPECT_EQ(below.seen, (Seq{"w 0x4 4"}));
  EXPECT_EQ(l1->stats().read_misses, 0u);
}

TEST(Subblocks, SubblockAsLargeAsTheLineIsTheWholeLine) {
  CacheConfig c = cache("L1", 128, 2, 64);
  c.subblock = 64;
  EXPECT_FALSE(c.has_subblocks());
  auto l1 = make_cache_level(c);
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(rd(0x14, 4));
  EXPECT_EQ(below.seen, (Seq{"r 0x0 64"}));
}

TEST(Subblocks, LoadForwardFetchesTheNextSubblocksOfTheLine) {
  CacheConfig c = sub();
  c.prefetch.name = "load_forward";
  c.prefetch.distance = 1;
  c.prefetch.subblocks = 4;
  auto l1 = make_cache_level(c);
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(rd(0x10, 4));  // fetch 1, prefetch 2
  l1->request(rd(0x20, 4));  // a hit on the prefetched 2 (useful), prefetch 3
  l1->request(rd(0x30, 4));  // a hit; sub-block 4 is in the next line: nothing
  EXPECT_EQ(below.seen, (Seq{"r 0x10 16", "r 0x20 16", "r 0x30 16"}));
  EXPECT_EQ(l1->prefetch_stats().requests, 2u);
  EXPECT_EQ(l1->prefetch_stats().issued, 2u);
  EXPECT_EQ(l1->prefetch_stats().useful, 2u);
  EXPECT_EQ(l1->prefetch_stats().bytes, 32u);
}

TEST(Subblocks, SubblockPrefetchWrapsAroundInTheLine) {
  CacheConfig c = sub();
  c.prefetch.name = "subblock";
  c.prefetch.distance = 2;
  c.prefetch.subblocks = 4;
  auto l1 = make_cache_level(c);
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(rd(0x30, 4));  // fetch 3, prefetch 5 -> wraps to 1
  l1->request(rd(0x14, 4));  // hit (first use), prefetch 3: present
  EXPECT_EQ(below.seen, (Seq{"r 0x30 16", "r 0x10 16"}));
  EXPECT_EQ(l1->prefetch_stats().requests, 2u);
  EXPECT_EQ(l1->prefetch_stats().issued, 1u);
}

TEST(Subblocks, TaggedPrefetchesOnTheFirstUseOfAPrefetchedSubblock) {
  CacheConfig c = sub(256, 4);
  c.prefetch.name = "tagged";
  c.prefetch.distance = 1;
  c.prefetch.subblocks = 4;
  auto l1 = make_cache_level(c);
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(rd(0x00, 4));  // miss: prefetch 1
  l1->request(rd(0x04, 4));  // referenced already: nothing
  l1->request(rd(0x10, 4));  // first use of the prefetched 1: prefetch 2
  EXPECT_EQ(below.seen, (Seq{"r 0x0 16", "r 0x10 16", "r 0x20 16"}));
}

TEST(Subblocks, UnusedPrefetchedSubblocksAreUselessWhenTheLineLeaves) {
  CacheConfig c = sub(64, 1);  // one line
  c.prefetch.name = "load_forward";
  c.prefetch.distance = 1;
  c.prefetch.subblocks = 4;
  auto l1 = make_cache_level(c);
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(rd(0x00, 4));  // prefetch 1
  l1->request(rd(0x40, 4));  // evicts line 0 with sub-block 1 unused; prefetch 0x50
  EXPECT_EQ(l1->prefetch_stats().useless, 1u);
  EXPECT_EQ(l1->prefetch_stats().useful, 0u);
}

}  // namespace
}  // namespace ptosim::test
