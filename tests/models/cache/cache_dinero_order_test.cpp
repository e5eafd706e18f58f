// The order in which a level sends requests below, and the Dinero IV
// conventions that decide what it sends: these choose what a lower level
// holds, so they change its counts (the golden suite checks the counts; this
// checks the sequences themselves, on hand-made cases).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "models/cache/memory_counter.h"
#include "tests/models/cache/cache_test_util.h"

namespace ptosim::test {
namespace {


TEST(DineroOrder, TheFillGoesBelowBeforeTheVictimsWriteback) {
  auto l1 = make_cache_level(cache("L1", 256, 2, 64));  // 2 sets x 2 ways
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(wr(0));
  l1->request(wr(128));  // set 0 full, both dirty
  below.seen.clear();
  l1->request(rd(256));  // set 0: evicts 0 (least recently used)
  EXPECT_EQ(below.seen, (Seq{"r 0x100 64", "w 0x0 64 wb"}));
}

TEST(DineroOrder, WriteThroughGoesBetweenTheFillAndTheWriteback) {
  CacheConfig c = cache("L1", 128, 2, 64);  // one set
  c.write_back = false;
  auto l1 = make_cache_level(c);
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(wr(8));
  EXPECT_EQ(below.seen, (Seq{"r 0x0 64", "w 0x8 4"}));
}

TEST(DineroOrder, AWriteOfTheWholeLineFetchesNothing) {
  auto l1 = make_cache_level(cache("L1", 256, 2, 64));
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(wr(64, 64));   // allocated, dirty, nothing fetched
  l1->request(wr(130, 64));  // straddles: two partial lines, both fetched
  l1->request(rd(64));       // a hit
  EXPECT_EQ(below.seen, (Seq{"r 0x80 64", "r 0xc0 64"}));
  EXPECT_EQ(l1->stats().write_misses, 3u);
  EXPECT_EQ(l1->stats().read_hits, 1u);
}

TEST(DineroOrder, AllocateNofetchAllocatesOnlyWholeLineWrites) {
  CacheConfig c = cache("L1", 256, 2, 64);
  c.allocate_nofetch = true;
  auto l1 = make_cache_level(c);
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(wr(0, 4));    // partial: not allocated, the write goes below
  l1->request(wr(64, 64));  // whole: allocated, no fetch
  l1->request(rd(0));       // miss (not allocated above)
  l1->request(rd(64));      // hit
  EXPECT_EQ(below.seen, (Seq{"w 0x0 4", "r 0x0 64"}));
  EXPECT_EQ(l1->stats().read_hits, 1u);
}

// write_allocate: fetch (an x86 core's read for ownership): a whole-line
// write reads its line first, as a partial one does; a writeback arriving
// from above still fetches nothing (it brings the whole line).
TEST(DineroOrder, AllocateFetchReadsEvenAWholeLineWrite) {
  CacheConfig c = cache("L1", 256, 2, 64);
  c.allocate_fetch_whole = true;
  auto l1 = make_cache_level(c);
  BelowRecorder below;
  l1->connect_below(&below);
  l1->request(wr(64, 64));  // whole: fetched first
  l1->request(wr(0, 4));    // partial: fetched, as always
  MemRequest wb = wr(128, 64);
  wb.writeback = true;
  l1->request(wb);          // a writeback from above: allocated, no fetch
  l1->request(rd(64));      // hits
  l1->request(rd(128));
  EXPECT_EQ(below.seen, (Seq{"r 0x40 64", "r 0x0 64"}));
  EXPECT_EQ(l1->stats().write_misses, 3u);
  EXPECT_EQ(l1->stats().read_hits, 2u);
}

// d4copyback's order: the last set first; in a set the least recently used
// (LRU) or the first filled (FIFO) line first.
TEST(DineroOrder, FlushGoesFromTheLastSetAndTheOldestLine) {
  for (const char* policy : {"lru", "fifo"}) {
    auto l1 = make_cache_level(cache("L1", 256, 2, 64, policy));
    BelowRecorder below;
    l1->connect_below(&below);
    for (uint64_t a : {0, 128, 192, 64}) l1->request(wr(a));  // set 0: 0, 128; set 1: 192, 64
    l1->request(rd(0));  // LRU: 0 becomes the most recent of set 0; FIFO: no change
    below.seen.clear();
    l1->flush();
    const Seq lru = {"w 0xc0 64 wb", "w 0x40 64 wb", "w 0x80 64 wb", "w 0x0 64 wb"};
    const Seq fifo = {"w 0xc0 64 wb", "w 0x40 64 wb", "w 0x0 64 wb", "w 0x80 64 wb"};
    EXPECT_EQ(below.seen, std::string(policy) == "lru" ? lru : fifo) << policy;
  }
}

// What the order changes: L2 holds one line. Fill first, the writeback of
// the L1 victim then misses L2 (Dinero IV); writeback first, it would hit.
TEST(DineroOrder, TheOrderDecidesTheLowerLevelsMisses) {
  CacheHierarchy h({cache("L1", 64, 1, 64), cache("L2", 64, 1, 64)});
  h.access(wr(0));   // L1 and L2 miss; L1 dirty
  h.access(rd(64));  // L2: fill of 64 (miss, evicts clean 0), then the writeback of 0 (miss, no fetch: whole line)
  const LevelStats& l2 = h.levels()[1]->stats();
  EXPECT_EQ(l2.reads, 2u);
  EXPECT_EQ(l2.read_misses, 2u);
  EXPECT_EQ(l2.writes, 1u);
  EXPECT_EQ(l2.write_misses, 1u);
  EXPECT_EQ(l2.writeback_requests, 1u);
  EXPECT_EQ(l2.writeback_misses, 1u);
  EXPECT_EQ(h.memory().stats().reads, 2u);
  EXPECT_EQ(h.memory().stats().writes, 0u);  // 0 is dirty in L2 now
}

// In time: the victim's writeback takes the port below after the fill, as
// it would drain from a writeback buffer, so a miss with a dirty victim is
// served as fast as one with a clean victim (sent first, the writeback's
// 64 B x 100 fs of port time would delay the fill).
uint64_t miss_time(bool dirty_victim) {
  MemoryCounter memory;
  auto l2 = make_cache_level(cache("L2", 4096, 4, 64));
  auto l1 = make_cache_level(cache("L1", 64, 1, 64));  // one line
  l2->set_timing(10000, 100.0);
  l1->set_timing(1000, 1.0);
  l2->connect_below(&memory);
  l1->connect_below(l2.get());
  l2->access(rd(0), 0);  // both lines in L2: the measured fill hits there
  l2->access(rd(64), 1000000);
  l1->access(dirty_victim ? wr(0) : rd(0), 2000000);
  const uint64_t t = 3000000;
  const uint64_t done = l1->access(rd(64), t);
  EXPECT_EQ(l2->stats().writes, dirty_victim ? 1u : 0u);
  return done - t;
}

TEST(DineroOrder, ADirtyVictimDoesNotDelayTheMiss) {
  const uint64_t clean = miss_time(false), dirty = miss_time(true);
  EXPECT_EQ(dirty, clean);
  EXPECT_EQ(clean, 1000u + 10000);  // L1's latency, then L2's: nothing waits for a port
}

TEST(DineroRecords, CopybackWritesTheLineBelowAtEveryLevel) {
  CacheHierarchy h({cache("L1", 256, 2, 64), cache("L2", 1024, 4, 128)});
  h.access(wr(0));
  h.control(AccessKind::Copyback, 4, 4);  // L1's line 0 into L2 (a hit there), then L2's line 0 to memory
  EXPECT_EQ(h.levels()[0]->stats().writebacks, 1u);
  EXPECT_EQ(h.levels()[1]->stats().write_hits, 1u);
  EXPECT_EQ(h.levels()[1]->stats().writebacks, 1u);
  EXPECT_EQ(h.memory().stats().writes, 1u);
  EXPECT_EQ(h.memory().stats().bytes_written, 128u);
  h.control(AccessKind::Copyback, 0, 0);  // the whole hierarchy: nothing is dirty any more
  h.flush();
  EXPECT_EQ(h.memory().stats().writes, 1u);
  // Neither record is a request of any level.
  EXPECT_EQ(h.levels()[0]->stats().accesses(), 1u);
}

TEST(DineroRecords, InvalidateDropsTheLineAtEveryLevelWithoutWritingIt) {
  CacheHierarchy h({cache("L1", 256, 2, 64), cache("L2", 1024, 4, 64)});
  h.access(wr(64));
  h.control(AccessKind::Invalidate, 64, 1);
  EXPECT_FALSE(h.levels()[0]->contains(64));
  EXPECT_FALSE(h.levels()[1]->contains(64));
  h.access(rd(64));  // misses at both levels again
  EXPECT_EQ(h.levels()[0]->stats().read_misses, 1u);
  EXPECT_EQ(h.levels()[1]->stats().read_misses, 2u);
  h.flush();
  EXPECT_EQ(h.memory().stats().writes, 0u);  // the dirty data was dropped
  h.access(wr(0));
  h.access(wr(128));
  h.control(AccessKind::Invalidate, 0, 0);  // everything
  EXPECT_FALSE(h.levels()[0]->contains(0));
  EXPECT_FALSE(h.levels()[0]->contains(128));
  EXPECT_FALSE(h.levels()[1]->contains(0));
}

}  // namespace
}  // namespace ptosim::test
