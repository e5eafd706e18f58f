// `slices:` (docs/CACHES.md, "Slices"): a shared level split by address into
// slices, each with its own port, so requests to different slices do not
// wait for each other while requests to one slice do; the hash spreads
// consecutive lines and page strides evenly; and no count depends on the
// slicing (timing only), checked on a random trace.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "tests/models/cache/cache_test_util.h"

using namespace ptosim;
using namespace ptosim::test;

namespace {

// Answers 1000 fs after a request arrives.
class FlatMemory : public MemPort {
 public:
  uint64_t access(const MemRequest&, uint64_t at) override { return at + 1000; }
};

// 64 KiB, 8-way, 64 B lines, `slices` slices; a hit takes 10 fs, the port 1 fs a byte.
struct Level {
  explicit Level(uint32_t slices) {
    CacheConfig c = cache("L3", 64 * 1024, 8, 64);
    c.slices = slices;
    level = make_cache_level(c);
    level->connect_below(&mem);
    level->set_timing(10, 1.0);
  }
  FlatMemory mem;
  std::unique_ptr<CacheLevel> level;
};

// Two lines of one slice and a line of another.
struct Lines {
  uint64_t a = 0, same = 0, other = 0;
};
Lines pick(const CacheLevel& l) {
  Lines x;
  for (uint64_t line = 1; !x.same || !x.other; ++line) {
    if (!x.same && l.slice_of(line) == l.slice_of(0)) x.same = line;
    if (!x.other && l.slice_of(line) != l.slice_of(0)) x.other = line;
  }
  return x;
}

TEST(Slices, DifferentSlicesServeAtOnceOneSliceInTurn) {
  Level l(4);
  const Lines x = pick(*l.level);
  // Warm the three lines, then read 64 B of each at the same time.
  for (uint64_t line : {x.a, x.same, x.other}) l.level->access(rd(line * 64, 64), 0);
  const uint64_t t = 1'000'000;
  // A hit starts when its port is free and takes the hit latency; its 64 B hold the port 64 fs.
  EXPECT_EQ(l.level->access(rd(x.a * 64, 64), t), t + 10);          // starts at once
  EXPECT_EQ(l.level->access(rd(x.other * 64, 64), t), t + 10);      // another slice: at once too
  EXPECT_EQ(l.level->access(rd(x.same * 64, 64), t), t + 64 + 10);  // the first's slice: after it
  Level one(1);
  for (uint64_t line : {x.a, x.same, x.other}) one.level->access(rd(line * 64, 64), 0);
  EXPECT_EQ(one.level->access(rd(x.a * 64, 64), t), t + 10);
  EXPECT_EQ(one.level->access(rd(x.other * 64, 64), t), t + 64 + 10);  // one port: in turn
}

TEST(Slices, TheHashSpreadsConsecutiveLinesAndPageStrides) {
  CacheConfig c = cache("L3", 64 * 1024, 8, 64);
  c.slices = 24;
  auto l = make_cache_level(c);
  for (uint64_t step : {uint64_t(1), uint64_t(64)}) {  // consecutive lines; 4 KiB apart
    std::map<uint32_t, int> per;
    const int n = 24 * 1000;
    for (int i = 0; i < n; ++i) ++per[l->slice_of(0x100000 + i * step)];
    EXPECT_EQ(per.size(), 24u) << step;
    for (auto [s, k] : per) {
      EXPECT_GE(k, 1000 * 0.75) << "stride " << step << " slice " << s;
      EXPECT_LE(k, 1000 * 1.25) << "stride " << step << " slice " << s;
    }
  }
}

TEST(Slices, CountsDoNotDependOnSlicing) {
  Level one(1), sliced(24);
  std::mt19937_64 rng(7);
  uint64_t t = 0, done_one = 0, done_sliced = 0;
  for (int i = 0; i < 200'000; ++i) {
    const uint64_t addr = (rng() % (256 * 1024)) & ~uint64_t(3);
    const MemRequest r = rng() % 4 == 0 ? wr(addr) : rd(addr);
    done_one = std::max(done_one, one.level->access(r, t));
    done_sliced = std::max(done_sliced, sliced.level->access(r, t));
    t += 2;  // faster than one port serves 4 B at 1 fs/B plus the misses: the port is contended
  }
  const LevelStats &a = one.level->stats(), &b = sliced.level->stats();
  EXPECT_GT(a.misses(), 10'000u);
  EXPECT_EQ(a.misses(), b.misses());
  EXPECT_EQ(a.accesses(), b.accesses());
  EXPECT_EQ(a.writebacks, b.writebacks);
  EXPECT_EQ(a.compulsory, b.compulsory);
  EXPECT_EQ(a.capacity, b.capacity);
  EXPECT_EQ(a.conflict, b.conflict);
  EXPECT_EQ(one.level->timing_stats().busy_fs, sliced.level->timing_stats().busy_fs);  // the same bytes moved
  EXPECT_LT(done_sliced, done_one);  // but less waiting
}

}  // namespace
