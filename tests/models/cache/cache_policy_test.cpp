// Exact hit/miss/eviction sequences for each replacement policy.
#include <gtest/gtest.h>

#include <vector>

#include "tests/models/cache/cache_test_util.h"
#include "models/cache/replacement/srrip.h"

using namespace ptosim;
using namespace ptosim::test;

namespace {

// One set of `ways` 64 B lines: line n lives at address n * 64.
CacheHierarchy one_set(uint32_t ways, const std::string& policy) {
  return CacheHierarchy({cache("L1", 64ull * ways, ways, 64, policy)});
}

// Runs a sequence of line numbers; returns "h"/"m" per access.
std::string run(CacheHierarchy& h, const std::vector<int>& lines) {
  std::string out;
  for (int l : lines) {
    uint64_t before = h.levels()[0]->stats().misses();
    h.access(rd(uint64_t(l) * 64));
    out += h.levels()[0]->stats().misses() > before ? 'm' : 'h';
  }
  return out;
}

}  // namespace

TEST(Replacement, LruEvictsLeastRecentlyUsed) {
  auto h = one_set(2, "lru");
  // A B A C: C evicts B (A was used more recently); A hits; B misses and
  // evicts C, not A.
  EXPECT_EQ(run(h, {0, 1, 0, 2, 0, 1, 0}), "mmhmhmh");
  EXPECT_EQ(h.levels()[0]->stats().evictions, 2u);
}

TEST(Replacement, LruUpdatesOnWriteHits) {
  auto h = one_set(2, "lru");
  h.access(rd(0));
  h.access(rd(64));
  h.access(wr(0));   // write hit makes line 0 most recent
  h.access(rd(128)); // evicts line 1
  EXPECT_TRUE(h.levels()[0]->contains(0));
  EXPECT_FALSE(h.levels()[0]->contains(64));
}

TEST(Replacement, FifoIgnoresHits) {
  auto h = one_set(2, "fifo");
  // A B A C: C evicts A (first in), although A was just used.
  EXPECT_EQ(run(h, {0, 1, 0, 2, 0, 1}), "mmhmmm");
}

TEST(Replacement, RandomIsSeededAndRepeatable) {
  std::vector<int> seq;
  for (int i = 0; i < 2000; ++i) seq.push_back((i * 7919) % 13);
  auto a = one_set(4, "random");
  auto b = one_set(4, "random");
  EXPECT_EQ(run(a, seq), run(b, seq));
  CacheConfig other = cache("L1", 256, 4, 64, "random");
  other.seed = 99;
  CacheHierarchy c({other});
  EXPECT_NE(run(a, seq), run(c, seq));
}

TEST(Replacement, TreePlruFourWays) {
  auto h = one_set(4, "plru");
  // Fill 0..3 (ways 0..3). Tree after touching way 3: root points left, left
  // node points to way 0's sibling side... victim is way 0 (line 0).
  EXPECT_EQ(run(h, {0, 1, 2, 3}), "mmmm");
  EXPECT_EQ(run(h, {4}), "m");  // evicts line 0
  EXPECT_FALSE(h.levels()[0]->contains(0));
  // Touch 1: path to way 1 points away from it; the victim is now way 2 or 3's
  // side: after filling 4 into way 0 and touching 1, the root points right and
  // the right node (last touched way 3) points at way 2.
  EXPECT_EQ(run(h, {1, 5}), "hm");
  EXPECT_FALSE(h.levels()[0]->contains(2 * 64));
  EXPECT_TRUE(h.levels()[0]->contains(3 * 64));
}

TEST(Replacement, TreePlruOddWays) {
  // 3 ways: root splits [0,1) | [1,3).
  auto h = one_set(3, "plru");
  EXPECT_EQ(run(h, {0, 1, 2}), "mmm");  // last touched way 2 -> root points left
  EXPECT_EQ(run(h, {3}), "m");          // evicts way 0 (line 0)
  EXPECT_FALSE(h.levels()[0]->contains(0));
  EXPECT_EQ(run(h, {4}), "m");          // root now right; node [1,3) points away from 2 -> way 1
  EXPECT_FALSE(h.levels()[0]->contains(64));
}

TEST(Replacement, SrripInsertsLongAndPromotesOnHit) {
  auto h = one_set(2, "srrip");
  // Fill 0, 1 (RRPV 2 each); hit 0 (RRPV 0). Miss 2: age until a 3 -> line 1
  // reaches 3 first; evict it.
  EXPECT_EQ(run(h, {0, 1, 0, 2}), "mmhm");
  EXPECT_TRUE(h.levels()[0]->contains(0));
  EXPECT_FALSE(h.levels()[0]->contains(64));
  // Now line 0 at RRPV 1, line 2 at RRPV 2. Miss 3: age once -> line 2 at 3: evict it.
  EXPECT_EQ(run(h, {3}), "m");
  EXPECT_TRUE(h.levels()[0]->contains(0));
  EXPECT_FALSE(h.levels()[0]->contains(128));
}

TEST(Replacement, NonPowerOfTwoSetsIndexByModulo) {
  // 3 sets x 2 ways: lines 0, 3, 6 share set 0.
  CacheHierarchy h({cache("L1", 3 * 2 * 64, 2, 64)});
  EXPECT_EQ(run(h, {0, 3, 6, 0}), "mmmm");
  EXPECT_EQ(run(h, {1, 2, 4, 5}), "mmmm");
  EXPECT_EQ(run(h, {1, 2, 4, 5, 6, 0}), "hhhhhh");
}

TEST(Replacement, FullyAssociative) {
  CacheHierarchy h({cache("L1", 4 * 64, 4, 64)});
  // Any four lines fit; the fifth evicts the least recent (line 0).
  EXPECT_EQ(run(h, {0, 17, 33, 1000, 0, 17, 33, 1000, 5, 17, 0}), "mmmmhhhhmhm");
}

// srrip beyond 16 ways (bitmaps per RRPV in a ring) against the scan it
// replaces, kept here as the reference: the same victims and RRPVs on
// random hits, fills and victim picks, including sets that keep hitting
// (so that a victim has to age them by 1, 2 or 3).
namespace {
struct ScanSrrip {
  uint32_t ways;
  std::vector<uint8_t> r;
  ScanSrrip(uint64_t sets, uint32_t w) : ways(w), r(sets * w, 3) {}
  uint32_t victim(uint64_t set) {
    uint8_t* p = &r[set * ways];
    for (;;) {
      for (uint32_t w = 0; w < ways; ++w)
        if (p[w] == 3) return w;
      for (uint32_t w = 0; w < ways; ++w) ++p[w];
    }
  }
};
}  // namespace

TEST(Replacement, WideSrripPicksAsTheScan) {
  for (uint32_t ways : {17u, 64u, 65u, 100u, 1024u}) {
    const uint64_t sets = 3;
    replacement::Srrip wide(sets, ways, 1);
    ScanSrrip ref(sets, ways);
    uint64_t x = 88172645463325252ull + ways;
    auto next = [&] {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      return x;
    };
    // A set's victim is asked for only once every way holds a line (the
    // array fills the lowest invalid way first): the wide form places a way
    // when it is first filled.
    for (uint64_t set = 0; set < sets; ++set)
      for (uint32_t w = 0; w < ways; ++w) {
        wide.on_fill(set, w);
        ref.r[set * ways + w] = 2;
      }
    for (int step = 0; step < 20000; ++step) {
      const uint64_t set = next() % sets;
      const uint32_t hot = 1 + uint32_t(next() % ways);  // hits go to the first `hot` ways: skewed RRPVs
      if (next() % 3) {
        const uint32_t way = uint32_t(next() % hot);
        wide.on_hit(set, way);
        ref.r[set * ways + way] = 0;
      } else {
        const uint32_t v = wide.victim(set);
        ASSERT_EQ(v, ref.victim(set)) << ways << " ways, step " << step;
        wide.on_fill(set, v);
        ref.r[set * ways + v] = 2;
      }
      if (step % 997 == 0) {  // braces: ASSERT_EQ is an if/else (-Wdangling-else)
        for (uint32_t w = 0; w < ways; ++w) ASSERT_EQ(wide.rrpv(set, w), ref.r[set * ways + w]);
      }
    }
  }
}
