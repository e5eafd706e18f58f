// Prefetchers: the exact lines each one proposes on hand-made streams, what a
// level does with them (counts, useful / late / useless, MSHRs), and the two
// behaviours issue 11 asks of `stream`: most of a long sequential stream's
// L2 misses become hits, a random stream gets almost no prefetches.
#include <gtest/gtest.h>

#include <random>

#include "models/cache/prefetch/prefetcher.h"
#include "sim/config/config_loader.h"
#include "tests/models/cache/cache_test_util.h"
#include "tests/support/choices.h"

using namespace ptosim;
using namespace ptosim::test;

namespace {

PrefetchConfig pf(const std::string& name, uint32_t distance = 1, uint32_t degree = 1, uint32_t table = 16,
                  uint32_t subblocks = 1) {
  PrefetchConfig p;
  p.name = name;
  p.distance = distance;
  p.degree = degree;
  p.table = table;
  p.subblocks = subblocks;
  return p;
}

// The lines `p` proposes after a read of `line` (or, with `subblock`, of
// that sub-block at a level with sub-blocks).
std::vector<uint64_t> proposes(Prefetcher& p, uint64_t line, bool miss = true, bool first_use = false,
                               uint64_t subblock = ~0ull) {
  uint64_t out[kMaxPrefetchDegree];
  const uint32_t n = p.on_read(DemandRead{line, miss, first_use, subblock == ~0ull ? line : subblock}, out);
  return std::vector<uint64_t>(out, out + n);
}

using Lines = std::vector<uint64_t>;

CacheConfig with_prefetch(CacheConfig c, const PrefetchConfig& p) {
  c.prefetch = p;
  return c;
}

// A memory that answers `latency` fs after a request arrives.
class SlowMemory : public MemPort {
 public:
  explicit SlowMemory(uint64_t latency) : latency_(latency) {}
  uint64_t access(const MemRequest& r, uint64_t at) override {
    reads += !r.write;
    return at + latency_;
  }
  uint64_t reads = 0;

 private:
  uint64_t latency_;
};

}  // namespace

TEST(Prefetch, EveryRegisteredPrefetcherIsBuilt) {
  // The default leads the listing; every other name builds a prefetcher.
  const std::vector<std::string> names = registered(concepts::kPrefetcher);
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names[0], "none");
  EXPECT_EQ(make_prefetcher(pf("none")), nullptr);
  for (size_t i = 1; i < names.size(); ++i) EXPECT_NE(make_prefetcher(pf(names[i], 1, 1, 16, 4)), nullptr) << names[i];
  EXPECT_THROW(make_prefetcher(pf("forward")), InputError);
}

// Dinero IV's d4prefetch_loadforw and d4prefetch_subblock, with 4
// sub-blocks per line: line 2 holds sub-blocks 8..11.
TEST(Prefetch, LoadForwardStaysInTheLine) {
  auto p = make_prefetcher(pf("load_forward", 2, 1, 16, 4));
  EXPECT_TRUE(p->proposes_subblocks());
  EXPECT_EQ(proposes(*p, 2, true, false, 8), Lines{10});
  EXPECT_EQ(proposes(*p, 2, false, false, 9), Lines{11});
  EXPECT_EQ(proposes(*p, 2, true, false, 10), Lines{});  // 12 is in line 3
  EXPECT_EQ(proposes(*p, 2, false, false, 11), Lines{});
  auto whole = make_prefetcher(pf("load_forward"));  // one sub-block per line: never
  EXPECT_EQ(proposes(*whole, 5, true), Lines{});
}

TEST(Prefetch, SubblockWrapsAroundInTheLine) {
  auto p = make_prefetcher(pf("subblock", 3, 1, 16, 4));
  EXPECT_EQ(proposes(*p, 2, true, false, 8), Lines{11});
  EXPECT_EQ(proposes(*p, 2, false, false, 9), Lines{8});  // 12 wraps to 8
  EXPECT_EQ(proposes(*p, 2, false, false, 11), Lines{10});
  auto whole = make_prefetcher(pf("subblock"));  // one sub-block per line: the read's own line
  EXPECT_EQ(proposes(*whole, 5, true), Lines{5});
}

TEST(Prefetch, DineroPoliciesCountInSubblocks) {
  auto always = make_prefetcher(pf("always", 3, 1, 16, 4));
  EXPECT_EQ(proposes(*always, 2, false, false, 10), Lines{13});  // into the next line
  auto next = make_prefetcher(pf("next_line", 1, 1, 16, 4));
  EXPECT_FALSE(next->proposes_subblocks());
  EXPECT_EQ(proposes(*next, 2, false, false, 10), Lines{3});
}

TEST(Prefetch, DineroPoliciesProposeTheLineDistanceAhead) {
  auto always = make_prefetcher(pf("always", 3));
  EXPECT_EQ(proposes(*always, 10, true), Lines{13});
  EXPECT_EQ(proposes(*always, 10, false), Lines{13});
  auto miss = make_prefetcher(pf("miss", 2));
  EXPECT_EQ(proposes(*miss, 10, true), Lines{12});
  EXPECT_EQ(proposes(*miss, 10, false, true), Lines{});
  auto tagged = make_prefetcher(pf("tagged"));
  EXPECT_EQ(proposes(*tagged, 10, true), Lines{11});
  EXPECT_EQ(proposes(*tagged, 11, false, true), Lines{12});  // first use of a prefetched line
  EXPECT_EQ(proposes(*tagged, 11, false, false), Lines{});
}

TEST(Prefetch, NextLineProposesDegreeLines) {
  auto p = make_prefetcher(pf("next_line", 2, 3));
  EXPECT_EQ(proposes(*p, 7, false), (Lines{9, 10, 11}));
}

TEST(Prefetch, StrideFindsInterleavedStreamsByAddress) {
  auto p = make_prefetcher(pf("stride", 1, 2));
  // Stream A: lines 0, 5, 10, 15 ... ; stream B: 1000, 997, 994 ... ; interleaved.
  EXPECT_EQ(proposes(*p, 0), Lines{});                 // A allocated
  EXPECT_EQ(proposes(*p, 5000), Lines{});              // B allocated (far from A)
  EXPECT_EQ(proposes(*p, 5), Lines{});                 // A: stride 5 learnt
  EXPECT_EQ(proposes(*p, 4997), Lines{});              // B: stride -3 learnt
  EXPECT_EQ(proposes(*p, 10), Lines{});                // A: confirmed once
  EXPECT_EQ(proposes(*p, 4994), Lines{});              // B: confirmed once
  EXPECT_EQ(proposes(*p, 10), Lines{});                // the same line again: nothing
  EXPECT_EQ(proposes(*p, 15), (Lines{20, 25}));        // A: confirmed twice, prefetching
  EXPECT_EQ(proposes(*p, 4991), (Lines{4988, 4985}));  // B
  EXPECT_EQ(proposes(*p, 20), (Lines{25, 30}));
}

// A repeat of the line the read before found again (the "same line again"
// branch) is ignored: Prefetcher::ignores says so, so that a level skips the
// call. The branch itself made its entry the most recent, which the repeats
// keep: the next new stream evicts the other entry.
TEST(Prefetch, StrideIgnoresRepeatsOfALineFoundAgain) {
  auto p = make_prefetcher(pf("stride", 1, 1, 2));
  for (uint64_t l : {0, 1, 2}) EXPECT_EQ(proposes(*p, l), Lines{});
  EXPECT_FALSE(p->ignores(2));                 // a predicted read: a repeat still scans
  EXPECT_EQ(proposes(*p, 3), Lines{4});        // A: stride 1 confirmed twice
  EXPECT_EQ(proposes(*p, 100000), Lines{});    // B allocated, the more recent entry
  EXPECT_FALSE(p->ignores(3));
  EXPECT_EQ(proposes(*p, 3), Lines{});         // A's line again: A the more recent
  EXPECT_TRUE(p->ignores(3));
  EXPECT_FALSE(p->ignores(4));
  EXPECT_EQ(proposes(*p, 3), Lines{});         // ignored
  EXPECT_TRUE(p->ignores(3));
  EXPECT_EQ(proposes(*p, 200000), Lines{});    // C takes B's entry, the least recent
  EXPECT_FALSE(p->ignores(3));
  EXPECT_EQ(proposes(*p, 4), Lines{5});        // A is still there
  EXPECT_EQ(proposes(*p, 100001), Lines{});    // B is not: it takes C's entry
  EXPECT_EQ(proposes(*p, 5), Lines{6});
}

TEST(Prefetch, StrideTableSizeBoundsTheStreams) {
  // Three streams, a table of two: each new stream evicts the least recent
  // entry, so no stream is ever confirmed.
  auto p = make_prefetcher(pf("stride", 1, 1, 2));
  uint64_t proposed = 0;
  for (uint64_t i = 0; i < 50; ++i)
    for (uint64_t s = 0; s < 3; ++s) proposed += proposes(*p, s * 100000 + i * 7).size();
  EXPECT_EQ(proposed, 0u);
  auto q = make_prefetcher(pf("stride", 1, 1, 3));
  proposed = 0;
  for (uint64_t i = 0; i < 50; ++i)
    for (uint64_t s = 0; s < 3; ++s) proposed += proposes(*q, s * 100000 + i * 7).size();
  EXPECT_EQ(proposed, 3u * 47);  // each stream from its fourth read on
}

TEST(Prefetch, StreamRunsAheadByDistanceAtDegreePerRead) {
  auto p = make_prefetcher(pf("stream", 6, 4));
  EXPECT_EQ(proposes(*p, 100), Lines{});                              // allocated
  EXPECT_EQ(proposes(*p, 101), Lines{});                              // one step up
  EXPECT_EQ(proposes(*p, 102), (Lines{103, 104, 105, 106}));          // two steps: running
  EXPECT_EQ(proposes(*p, 103, false, true), (Lines{107, 108, 109}));  // up to 6 ahead of 103
  EXPECT_EQ(proposes(*p, 104, false, true), (Lines{110}));
  EXPECT_EQ(proposes(*p, 104, false, false), Lines{});  // a hit on a line not prefetched: no trigger
  // Descending, with a gap of two lines within the training window.
  EXPECT_EQ(proposes(*p, 900), Lines{});
  EXPECT_EQ(proposes(*p, 898), Lines{});
  EXPECT_EQ(proposes(*p, 897), (Lines{896, 895, 894, 893}));
}

TEST(Prefetch, LevelCountsPrefetchesApartFromDemand) {
  for (const char* name : {"always", "miss", "tagged"}) {
    SCOPED_TRACE(name);
    CacheHierarchy h({with_prefetch(cache("L1", 1024, 2, 64), pf(name))});
    h.access(rd(0));     // miss: every policy prefetches line 1
    h.access(rd(0));     // hit on a demand line: only `always`
    h.access(rd(0x40));  // first use of line 1: `always` and `tagged`
    const LevelStats& s = h.levels()[0]->stats();
    const PrefetchStats& p = h.levels()[0]->prefetch_stats();
    EXPECT_EQ(s.reads, 3u);
    EXPECT_EQ(s.read_misses, 1u);
    EXPECT_EQ(s.compulsory, 1u);
    EXPECT_EQ(p.useful, 1u);
    const std::string n = name;
    EXPECT_EQ(p.requests, n == "always" ? 3u : n == "tagged" ? 2u : 1u);
    EXPECT_EQ(p.issued, n == "miss" ? 1u : 2u);
    EXPECT_EQ(p.bytes, 64 * p.issued);
    EXPECT_EQ(h.memory().stats().reads, 1 + p.issued);  // fills go below as reads
    EXPECT_EQ(h.levels()[0]->contains(0x80), n != "miss");
  }
}

// prefetch_page: a proposal in another page than the read that proposed it
// is dropped (not looked up, not counted); within the page it is fetched.
TEST(Prefetch, PageBoundDropsProposalsInAnotherPage) {
  for (uint64_t page : {0ull, 4096ull}) {
    SCOPED_TRACE(page);
    PrefetchConfig p = pf("stride", 1, 2);  // distance 1, degree 2: L + s, L + 2s
    p.page = page;
    CacheHierarchy h({with_prefetch(cache("L1", 32768, 8, 64), p)});
    // A stride of 512 B (8 lines) from line 24: the stride is learnt at
    // line 32 and confirmed at 40 and 48, which proposes lines 56 (3.5 KiB,
    // the same page) and 64 (4 KiB, the next page).
    for (uint64_t a : {0x600, 0x800, 0xA00, 0xC00}) h.access(rd(a));
    const PrefetchStats& s = h.levels()[0]->prefetch_stats();
    EXPECT_EQ(s.requests, page ? 1u : 2u);
    EXPECT_TRUE(h.levels()[0]->contains(0xE00));
    EXPECT_EQ(h.levels()[0]->contains(0x1000), page == 0);
  }
}

TEST(Prefetch, WritesDoNotTrainAndUselessLinesAreCounted) {
  // Direct-mapped, two sets: the prefetch of line 3 evicts the unused prefetched line 1.
  CacheHierarchy h({with_prefetch(cache("L1", 128, 1, 64), pf("miss"))});
  h.access(wr(0x100));  // write miss (line 4): no prefetch
  EXPECT_EQ(h.levels()[0]->prefetch_stats().requests, 0u);
  h.access(rd(0));     // line 0, set 0: evicts line 4; prefetches line 1 (set 1)
  h.access(rd(0x80));  // line 2, set 0: prefetches line 3, evicting line 1 unused
  const PrefetchStats& p = h.levels()[0]->prefetch_stats();
  EXPECT_EQ(p.issued, 2u);
  EXPECT_EQ(p.useless, 1u);
  EXPECT_EQ(p.useful, 0u);
  EXPECT_EQ(h.levels()[0]->stats().evictions, 3u);
  EXPECT_EQ(h.levels()[0]->stats().writebacks, 1u);  // the dirty line 4
}

TEST(Prefetch, InclusiveBackInvalidationOfAnUnusedPrefetchIsUseless) {
  // L1 prefetches line 1; the inclusive L2 (one line) then evicts it.
  CacheConfig l2 = cache("L2", 64, 1, 64);
  l2.inclusive = true;
  CacheHierarchy h({with_prefetch(cache("L1", 256, 4, 64), pf("miss")), l2});
  h.access(rd(0));
  EXPECT_EQ(h.levels()[0]->prefetch_stats().issued, 1u);
  EXPECT_FALSE(h.levels()[0]->contains(0));  // L2's fill of line 1 back-invalidated line 0
  EXPECT_EQ(h.levels()[0]->stats().back_invalidations, 1u);
  h.access(rd(0x1000));
  EXPECT_EQ(h.levels()[0]->stats().back_invalidations, 3u);  // line 1 (unused prefetch), then line 64
  EXPECT_EQ(h.levels()[0]->prefetch_stats().useless, 1u);
}

TEST(Prefetch, LatePrefetchesAndMshrs) {
  // Memory answers 1000 fs after a request; L1 hits take 1 fs, one MSHR.
  CacheConfig c = with_prefetch(cache("L1", 1024, 2, 64), pf("miss"));
  c.mshrs = 1;
  auto level = make_cache_level(c);
  SlowMemory mem(1000);
  level->connect_below(&mem);
  level->set_timing(1, 0);
  const uint64_t t0 = level->access(rd(0), 0);  // demand fill 1 -> 1001; the prefetch waits for the MSHR
  EXPECT_EQ(t0, 1001u);
  EXPECT_EQ(level->timing_stats().mshr_stalls, 1u);
  const uint64_t t1 = level->access(rd(0x40), 10);  // the prefetch (1001 -> 2001) is still on its way
  EXPECT_EQ(t1, 2001u);
  const PrefetchStats& p = level->prefetch_stats();
  EXPECT_EQ(p.useful, 1u);
  EXPECT_EQ(p.late, 1u);
  EXPECT_EQ(level->stats().read_hits, 1u);
  EXPECT_EQ(mem.reads, 2u);
}

TEST(Prefetch, StreamTurnsSequentialL2MissesIntoHits) {
  // 1 MiB read sequentially in 8 B steps through a 32 KiB L1 and a 256 KiB L2.
  auto l2 = cache("L2", 256 * 1024, 8, 64);
  uint64_t misses[2];
  for (int with = 0; with < 2; ++with) {
    CacheHierarchy h({cache("L1", 32 * 1024, 8, 64), with ? with_prefetch(l2, pf("stream", 16, 4)) : l2});
    for (uint64_t a = 0; a < (1u << 20); a += 8) h.access(rd(0x4000000 + a, 8));
    misses[with] = h.levels()[1]->stats().misses();
    if (with) {
      const PrefetchStats& p = h.levels()[1]->prefetch_stats();
      EXPECT_EQ(h.levels()[1]->stats().reads, 16384u);  // prefetches are not demand
      EXPECT_EQ(p.useful + misses[1], 16384u);          // every line but the first three was prefetched
      EXPECT_LE(p.issued - p.useful, 16u);              // the ones past the end, still resident
    }
  }
  EXPECT_EQ(misses[0], 16384u);
  EXPECT_EQ(misses[1], 3u);
  EXPECT_LE(misses[1] * 10, misses[0]);  // >= 90 % of the demand misses are now hits
}

TEST(Prefetch, StreamIssuesFewPrefetchesOnARandomStream) {
  auto l2 = with_prefetch(cache("L2", 256 * 1024, 8, 64), pf("stream", 16, 4));
  CacheHierarchy h({cache("L1", 32 * 1024, 8, 64), l2});
  // A sequential phase trains streams; then random lines over 64 MiB.
  for (uint64_t a = 0; a < (256u << 10); a += 64) h.access(rd(a));
  const PrefetchStats before = h.levels()[1]->prefetch_stats();
  std::mt19937_64 rng(3);
  const int n = 200000;
  for (int i = 0; i < n; ++i) h.access(rd((1ull << 30) + (rng() % (1u << 20)) * 64));
  const PrefetchStats& p = h.levels()[1]->prefetch_stats();
  const uint64_t issued = p.issued - before.issued;
  EXPECT_LE(issued, uint64_t(n) / 500);  // under 0.2 % of the random reads
  EXPECT_LE(p.useless, before.issued - before.useful + issued);
}

TEST(Prefetch, ConfigKeys) {
  HwConfig c = parse_config(
      "caches:\n"
      "  - {name: L1, size: 32 KiB, ways: 8, line: 64 B, prefetcher: tagged, prefetch_distance: 2}\n"
      "  - {name: L2, size: 256 KiB, ways: 8, line: 64 B, prefetcher: stream}\n"
      "  - {name: L3, size: 1 MiB, ways: 16, line: 64 B}\n",
      "pf.yaml");
  EXPECT_EQ(c.caches[0].prefetch.name, "tagged");
  EXPECT_EQ(c.caches[0].prefetch.distance, 2u);
  EXPECT_EQ(c.caches[1].prefetch.distance, 16u);  // stream's defaults
  EXPECT_EQ(c.caches[1].prefetch.degree, 4u);
  EXPECT_EQ(c.caches[2].prefetch.name, "none");
  HwConfig again = parse_config(to_yaml(c), "shown.yaml");
  EXPECT_EQ(again.caches[1].prefetch.name, "stream");
  EXPECT_EQ(again.caches[1].prefetch.distance, 16u);
  EXPECT_EQ(again.caches[0].prefetch.distance, 2u);
  auto error = [](const std::string& text) {
    try {
      parse_config(text, "cfg.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("caches:\n  - {name: L1, size: 32 KiB, ways: 8, line: 64 B,\n     prefetcher: streem}\n"),
            "cfg.yaml:3: caches[0].prefetcher: 'streem' is not one of " + ChoiceLists::listing(concepts::kPrefetcher));
  EXPECT_EQ(error("caches:\n  - {name: L1, size: 32 KiB, ways: 8, line: 64 B,\n     subblock: 48 B}\n"),
            "cfg.yaml:3: caches[0].subblock: sub-block size 48 B is not a power of two");
  EXPECT_EQ(error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B, subblock: 16 B, prefetcher: load_forward}]\n"),
            "no error");
  EXPECT_EQ(error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B, prefetcher: stream, prefetch_degree: 65}]\n"),
            "cfg.yaml:1: caches[0].prefetch_degree: expected a whole number from 1 to 64, got '65'");
  EXPECT_EQ(error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B, prefetcher: stride, prefetch_page: 3 KiB}]\n"),
            "cfg.yaml:1: caches[0].prefetch_page: page size 3 KiB is not a power of two");
  HwConfig paged = parse_config(
      "caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B, prefetcher: stride, prefetch_page: 4 KiB}]\n", "p.yaml");
  EXPECT_EQ(paged.caches[0].prefetch.page, 4096u);
  EXPECT_EQ(parse_config(to_yaml(paged), "shown.yaml").caches[0].prefetch.page, 4096u);  // config show keeps it
  EXPECT_EQ(error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B, prefetch_distance: 0}]\n"),
            "cfg.yaml:1: caches[0].prefetch_distance: expected a whole number from 1 to 4096, got '0'");
}
