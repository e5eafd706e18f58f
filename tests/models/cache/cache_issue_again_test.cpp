// CacheLevel::issue_again (cache_level.h): a read of the line a one-core
// first level's last issue() hit, answered without the lookup. It must
// count and time the read exactly as issue() would, and decline whenever
// anything else reached the level in between or the hit was not one a
// repeat leaves unchanged. Two identical levels, one asked issue_again(),
// the other issue(), are compared field by field.
#include <gtest/gtest.h>

#include "models/cache/cache_level.h"
#include "models/core/completion_window.h"
#include "tests/models/cache/cache_test_util.h"

namespace ptosim {
namespace {

using test::cache;

constexpr uint64_t kCycle = 1'000'000;

// Below the level: every request takes 20 cycles.
struct SlowBelow : MemPort {
  uint64_t access(const MemRequest&, uint64_t at) override { return at + 20 * kCycle; }
};

struct Level {
  SlowBelow below;
  std::unique_ptr<CacheLevel> l1;
  CompletionWindow window{8};
  WindowStalls stalls;

  explicit Level(const std::string& prefetcher = "none") {
    CacheConfig c = cache("L1", 4096, 4, 64);
    c.prefetch.name = prefetcher;
    l1 = make_cache_level(c);
    l1->connect_below(&below);
    l1->set_timing(4 * kCycle, double(kCycle) / 64);
  }
  uint64_t issue(uint64_t addr, uint64_t t, bool write = false) {
    return l1->issue(MemRequest{addr, 4, write, 1, 2}, &t, window, stalls);
  }
  bool again(uint64_t addr, uint64_t t, uint64_t* done) { return l1->issue_again(addr, 4, 1, 2, t, done); }
};

void expect_same(const Level& a, const Level& b) {
  const LevelStats &s = a.l1->stats(), &z = b.l1->stats();
  EXPECT_EQ(s.reads, z.reads);
  EXPECT_EQ(s.read_hits, z.read_hits);
  EXPECT_EQ(s.read_misses, z.read_misses);
  EXPECT_EQ(s.bytes_read, z.bytes_read);
  const LevelTimingStats &t = a.l1->timing_stats(), &y = b.l1->timing_stats();
  EXPECT_EQ(t.busy_fs, y.busy_fs);
  EXPECT_EQ(t.latency_sum_fs, y.latency_sum_fs);
  EXPECT_EQ(t.requests, y.requests);
  EXPECT_EQ(t.merges, y.merges);
}

TEST(CacheIssueAgain, ARepeatOfTheLineJustHitCountsAndTimesAsIssueDoes) {
  Level a, b;
  for (Level* l : {&a, &b}) {
    l->issue(0x1000, 0);           // a miss: its fill arrives later
    l->issue(0x1004, 1 * kCycle);  // a hit merging with that fill
  }
  // Repeats, the first ones still merging with the fill, the later not.
  for (uint64_t i = 0; i < 10; ++i) {
    const uint64_t t = (2 + 4 * i) * kCycle, addr = 0x1008 + 4 * i;
    uint64_t done = 0;
    ASSERT_TRUE(a.again(addr, t, &done)) << i;
    EXPECT_EQ(done, b.issue(addr, t)) << i;
  }
  expect_same(a, b);
  EXPECT_GT(a.l1->timing_stats().merges, 2u);
  EXPECT_LT(a.l1->timing_stats().merges, 10u);
}

TEST(CacheIssueAgain, DeclinedAfterAnotherLineAWriteOrARequestFromAbove) {
  Level a;
  uint64_t done = 0;
  EXPECT_FALSE(a.again(0x1000, 0, &done));  // nothing hit yet
  a.issue(0x1000, 0);
  EXPECT_FALSE(a.again(0x1000, kCycle, &done));  // a miss is no hit
  a.issue(0x1000, 1000 * kCycle);
  EXPECT_FALSE(a.again(0x2000, 1001 * kCycle, &done));  // another line
  EXPECT_TRUE(a.again(0x1010, 1001 * kCycle, &done));
  a.issue(0x2000, 1002 * kCycle);
  EXPECT_FALSE(a.again(0x1000, 1003 * kCycle, &done));  // another line came between
  a.issue(0x1000, 2000 * kCycle);
  a.issue(0x1000, 2001 * kCycle, true);  // a write hit
  EXPECT_FALSE(a.again(0x1000, 2002 * kCycle, &done));
  a.issue(0x1000, 2003 * kCycle);
  a.l1->access(test::rd(0x3000), 2004 * kCycle);  // from above
  EXPECT_FALSE(a.again(0x1000, 2005 * kCycle, &done));
  a.issue(0x1000, 2006 * kCycle);
  a.l1->control(AccessKind::Invalidate, 0x1000, 64, 2007 * kCycle);
  EXPECT_FALSE(a.again(0x1000, 2008 * kCycle, &done));
}

TEST(CacheIssueAgain, NotWhileTheStridePrefetcherWouldTrainOnTheRead) {
  // The first hit of a line the prefetcher predicted trains it; only once
  // it ignores the line (a repeat of the line it just found again) may the
  // read skip it, and both levels must then agree on everything.
  Level a("stride"), b("stride");
  for (Level* l : {&a, &b})
    for (uint64_t i = 0; i < 8; ++i) l->issue(0x1000 + 64 * i, 1000 * kCycle * i);
  for (Level* l : {&a, &b}) l->issue(0x1000, 9000 * kCycle);
  // That hit was a new stride for the prefetcher's stream: not ignored.
  uint64_t done = 0;
  EXPECT_FALSE(a.again(0x1004, 9001 * kCycle, &done));
  for (Level* l : {&a, &b}) l->issue(0x1004, 9001 * kCycle);  // the same line again: ignored from now on
  EXPECT_TRUE(a.again(0x1008, 9002 * kCycle, &done));
  EXPECT_EQ(done, b.issue(0x1008, 9002 * kCycle));
  expect_same(a, b);
  EXPECT_EQ(a.l1->prefetch_stats().issued, b.l1->prefetch_stats().issued);
}

}  // namespace
}  // namespace ptosim
