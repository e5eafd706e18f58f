// Write policies, flush, line splitting, inclusion and 3C, with exact counts.
#include <gtest/gtest.h>

#include "tests/models/cache/cache_test_util.h"

using namespace ptosim;
using namespace ptosim::test;

TEST(WritePolicy, WriteBackAllocateFetchesAndWritesBackDirtyVictims) {
  CacheHierarchy h({cache("L1", 128, 2, 64)});  // one set, 2 ways
  h.access(wr(0));    // miss: fetch line 0, dirty
  h.access(wr(4));    // hit
  h.access(rd(64));   // miss
  h.access(rd(128));  // miss: evicts line 0 (LRU), dirty -> writeback
  const LevelStats& s = h.levels()[0]->stats();
  EXPECT_EQ(s.writes, 2u);
  EXPECT_EQ(s.write_misses, 1u);
  EXPECT_EQ(s.write_hits, 1u);
  EXPECT_EQ(s.reads, 2u);
  EXPECT_EQ(s.read_misses, 2u);
  EXPECT_EQ(s.evictions, 1u);
  EXPECT_EQ(s.writebacks, 1u);
  EXPECT_EQ(h.memory().stats().reads, 3u);   // three line fills
  EXPECT_EQ(h.memory().stats().writes, 1u);  // one writeback
  EXPECT_EQ(h.memory().stats().bytes_written, 64u);
  EXPECT_EQ(h.memory().stats().bytes_read, 192u);
}

TEST(WritePolicy, WriteBackNoAllocatePassesWriteMissesDown) {
  CacheConfig c = cache("L1", 128, 2, 64);
  c.write_allocate = false;
  CacheHierarchy h({c});
  h.access(wr(0, 8));  // miss, not allocated: an 8-byte write below
  h.access(rd(0));     // miss (not allocated before)
  h.access(wr(0));     // hit: dirty
  EXPECT_EQ(h.levels()[0]->stats().write_misses, 1u);
  EXPECT_EQ(h.levels()[0]->stats().read_misses, 1u);
  EXPECT_EQ(h.levels()[0]->stats().write_hits, 1u);
  EXPECT_EQ(h.memory().stats().writes, 1u);
  EXPECT_EQ(h.memory().stats().bytes_written, 8u);
  EXPECT_EQ(h.memory().stats().reads, 1u);
}

TEST(WritePolicy, WriteThroughSendsEveryWrite) {
  CacheConfig c = cache("L1", 128, 2, 64);
  c.write_back = false;
  CacheHierarchy h({c});
  h.access(wr(0));   // miss: fetch + write through
  h.access(wr(4));   // hit: write through
  h.access(rd(64));
  h.access(rd(128)); // evicts line 0: clean, no writeback
  EXPECT_EQ(h.memory().stats().writes, 2u);
  EXPECT_EQ(h.memory().stats().bytes_written, 8u);
  EXPECT_EQ(h.memory().stats().reads, 3u);
  EXPECT_EQ(h.levels()[0]->stats().writebacks, 0u);
  EXPECT_EQ(h.levels()[0]->stats().evictions, 1u);
}

TEST(WritePolicy, WriteThroughNoAllocate) {
  CacheConfig c = cache("L1", 128, 2, 64);
  c.write_back = false;
  c.write_allocate = false;
  CacheHierarchy h({c});
  h.access(wr(0));
  h.access(wr(0));
  EXPECT_EQ(h.levels()[0]->stats().write_misses, 2u);
  EXPECT_EQ(h.memory().stats().writes, 2u);
  EXPECT_EQ(h.memory().stats().reads, 0u);
}

TEST(Flush, WritesDirtyLinesLevelByLevel) {
  CacheHierarchy h({cache("L1", 256, 2, 64), cache("L2", 1024, 4, 64)});
  h.access(wr(0));
  h.access(wr(64));
  h.access(rd(128));
  h.flush();
  // L1 writes its two dirty lines into L2 (write hits there), then L2 writes
  // them to memory.
  EXPECT_EQ(h.levels()[0]->stats().writebacks, 2u);
  EXPECT_EQ(h.levels()[1]->stats().writes, 2u);
  EXPECT_EQ(h.levels()[1]->stats().write_hits, 2u);
  EXPECT_EQ(h.levels()[1]->stats().writebacks, 2u);
  EXPECT_EQ(h.memory().stats().writes, 2u);
  // A second flush has nothing left to do.
  h.flush();
  EXPECT_EQ(h.memory().stats().writes, 2u);
}

TEST(Split, AccessesCrossingLinesArePerLine) {
  CacheHierarchy h({cache("L1", 1024, 2, 64)});
  h.access(rd(60, 8));     // bytes 60..67: lines 0 and 1
  h.access(rd(0, 256));    // lines 0..3
  const LevelStats& s = h.levels()[0]->stats();
  EXPECT_EQ(s.reads, 6u);
  EXPECT_EQ(s.read_misses, 4u);
  EXPECT_EQ(s.bytes_read, 264u);
}

TEST(LineSizes, LowerLevelWithLargerLines) {
  CacheHierarchy h({cache("L1", 256, 2, 64), cache("L2", 4096, 4, 512)});
  for (uint64_t a = 0; a < 1024; a += 64) h.access(rd(a));
  // 16 L1 misses -> 16 L2 reads of 64 B; two 512 B L2 lines -> 2 misses.
  EXPECT_EQ(h.levels()[1]->stats().reads, 16u);
  EXPECT_EQ(h.levels()[1]->stats().read_misses, 2u);
  EXPECT_EQ(h.memory().stats().bytes_read, 1024u);
}

TEST(LineSizes, LowerLevelWithSmallerLines) {
  CacheHierarchy h({cache("L1", 512, 2, 128), cache("L2", 4096, 4, 64)});
  h.access(rd(0));
  EXPECT_EQ(h.levels()[1]->stats().reads, 2u);  // one 128 B fill = two 64 B lines
  EXPECT_EQ(h.levels()[1]->stats().read_misses, 2u);
}

TEST(Inclusion, InclusiveLevelBackInvalidatesAbove) {
  CacheConfig l2 = cache("L2", 128, 2, 64);  // one set, 2 ways: smaller than L1
  l2.inclusive = true;
  CacheHierarchy h({cache("L1", 1024, 4, 64), l2});
  h.access(wr(0));    // L1 dirty line 0; L2 holds line 0
  h.access(rd(64));
  h.access(rd(128));  // L2 evicts line 0 -> L1 loses its dirty copy; written back
  EXPECT_FALSE(h.levels()[0]->contains(0));
  EXPECT_EQ(h.levels()[0]->stats().back_invalidations, 1u);
  EXPECT_EQ(h.levels()[1]->stats().writebacks, 1u);
  EXPECT_EQ(h.memory().stats().writes, 1u);
  h.access(rd(0));  // L1 misses again
  EXPECT_EQ(h.levels()[0]->stats().read_misses, 3u);
}

TEST(Inclusion, NonInclusiveKeepsUpperCopies) {
  CacheHierarchy h({cache("L1", 1024, 4, 64), cache("L2", 128, 2, 64)});
  h.access(rd(0));
  h.access(rd(64));
  h.access(rd(128));
  EXPECT_TRUE(h.levels()[0]->contains(0));
  EXPECT_EQ(h.levels()[0]->stats().back_invalidations, 0u);
}

TEST(ThreeC, CompulsoryCapacityConflict) {
  // Direct mapped, 2 sets: lines 0 and 2 conflict; a 2-line FA cache holds both.
  CacheHierarchy h({cache("L1", 128, 1, 64)});
  for (int l : {0, 2, 0}) h.access(rd(uint64_t(l) * 64));
  const LevelStats& s = h.levels()[0]->stats();
  EXPECT_EQ(s.compulsory, 2u);
  EXPECT_EQ(s.conflict, 1u);
  EXPECT_EQ(s.capacity, 0u);
  // Three distinct lines cycled through a 2-line cache: capacity misses.
  for (int l : {1, 3, 5, 1}) h.access(rd(uint64_t(l) * 64));
  EXPECT_EQ(s.compulsory, 5u);
  EXPECT_EQ(s.capacity, 1u);
  EXPECT_EQ(s.compulsory + s.capacity + s.conflict, s.misses());
}
