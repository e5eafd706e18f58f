// Functional warming (MemPort::warm, and CacheLevel::warm_run as run
// --sample calls it): after a stream warmed a hierarchy, the same later
// requests must find exactly what a hierarchy that served the stream in
// full finds — every count of the later part equal, for every registered
// policy and prefetcher and the write and inclusion variants.
#include <gtest/gtest.h>

#include <random>

#include "tests/models/cache/cache_test_util.h"
#include "tests/support/choices.h"

using namespace ptosim;
using namespace ptosim::test;

namespace {

// The counters a later unit measures, as one comparable vector.
std::vector<uint64_t> counts(const CacheHierarchy& h) {
  std::vector<uint64_t> v;
  for (auto& l : h.levels()) {
    const LevelStats& s = l->stats();
    for (uint64_t x : {s.reads, s.writes, s.read_misses, s.write_misses, s.evictions, s.writebacks, s.compulsory,
                       s.capacity, s.conflict, s.bytes_read, s.bytes_written, s.writeback_misses})
      v.push_back(x);
  }
  v.push_back(h.memory().stats().bytes_read);
  v.push_back(h.memory().stats().bytes_written);
  return v;
}

std::vector<uint64_t> minus(std::vector<uint64_t> a, const std::vector<uint64_t>& b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] -= b[i];
  return a;
}

// A stream with reuse at several distances, writes, and requests that
// straddle a line.
std::vector<MemRequest> stream(uint32_t seed, size_t n) {
  std::mt19937 rng(seed);
  std::vector<MemRequest> out;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t span = (rng() % 4 == 0) ? 64 * 1024 : 6 * 1024;
    const uint64_t addr = (rng() % span) & ~uint64_t(3);
    const uint64_t bytes = rng() % 16 == 0 ? 64 : 8;
    out.push_back(MemRequest{addr, bytes, rng() % 3 == 0, 0, 0});
  }
  return out;
}

uint64_t lines_of(const Access& a, uint64_t line) {
  const uint64_t bytes = a.bytes ? a.bytes : 1;
  return (a.addr + bytes - 1) / line - a.addr / line + 1;
}

// The first n requests of `s` through CacheLevel::warm_run, as run --sample
// warms between units: calls of a budget of 37 line requests, each ending
// with the access that reaches it, or before one of another space (every
// 100th here), which the caller warms itself.
void warm_in_runs(CacheLevel& first, const std::vector<MemRequest>& s, size_t n) {
  std::vector<Access> a(n);
  for (size_t i = 0; i < n; ++i) {
    a[i].addr = s[i].addr;
    a[i].bytes = s[i].bytes;
    a[i].kind = s[i].write ? (i % 2 ? AccessKind::Write : AccessKind::Fill) : (i % 2 ? AccessKind::Read : AccessKind::Misc);
    a[i].space = i % 100 == 99 ? 1 : 0;
  }
  const uint64_t line = first.config().line, budget = 37;
  size_t calls = 0;
  for (size_t i = 0; i < n;) {
    if (a[i].space != 0) {
      first.warm(s[i++]);
      continue;
    }
    uint64_t lines = 5;  // warm_run adds to it
    const size_t m = first.warm_run(a.data() + i, n - i, 0, budget, &lines);
    ASSERT_GT(m, 0u);
    uint64_t expect = 0;
    for (size_t k = i; k < i + m; ++k) expect += lines_of(a[k], line);
    EXPECT_EQ(lines, 5 + expect);
    if (expect >= budget) EXPECT_LT(expect - lines_of(a[i + m - 1], line), budget);  // not one access more
    else EXPECT_TRUE(i + m == n || a[i + m].space != 0);                              // stopped early only there
    i += m;
    ++calls;
  }
  EXPECT_GT(calls, n / 100);
}

void expect_warm_equals_full(const std::vector<CacheConfig>& levels, uint32_t seed) {
  const std::vector<MemRequest> s = stream(seed, 6000);
  const size_t prefix = 4000;
  CacheHierarchy full(levels), warmed(levels), batched(levels);
  for (size_t i = 0; i < prefix; ++i) full.access(s[i]);
  for (size_t i = 0; i < prefix; ++i) warmed.levels().front()->warm(s[i]);
  warm_in_runs(*batched.levels().front(), s, prefix);
  EXPECT_EQ(counts(batched), counts(warmed));
  const std::vector<uint64_t> full0 = counts(full), warm0 = counts(warmed);
  // Warming meets the first touches the full run counts, each level's: a
  // sampled run adds them up over the stream (docs/SAMPLING.md).
  auto first_touches = [](const CacheHierarchy& h) {
    std::vector<uint64_t> v;
    for (auto& l : h.levels()) v.push_back(l->demand_compulsory());
    return v;
  };
  EXPECT_EQ(first_touches(warmed), first_touches(full));
  EXPECT_GT(first_touches(full).front(), 0u);
  EXPECT_EQ(first_touches(batched), first_touches(full));
  for (size_t i = prefix; i < s.size(); ++i) {
    full.access(s[i]);
    warmed.access(s[i]);
    batched.access(s[i]);
  }
  EXPECT_EQ(minus(counts(full), full0), minus(counts(warmed), warm0));
  EXPECT_EQ(minus(counts(full), full0), minus(counts(batched), warm0));
  EXPECT_EQ(first_touches(warmed), first_touches(full));
  EXPECT_EQ(first_touches(batched), first_touches(full));
  // Warming itself counts no request.
  EXPECT_EQ(warm0[0] + warm0[1], 0u);
}

class WarmPolicy : public ::testing::TestWithParam<std::string> {};

TEST_P(WarmPolicy, LaterRequestsSeeTheFullRunsContents) {
  expect_warm_equals_full({cache("L1", 2048, 4, 64, GetParam()), cache("L2", 16384, 8, 64, GetParam())}, 7);
}

INSTANTIATE_TEST_SUITE_P(Registered, WarmPolicy, ::testing::ValuesIn(registered(concepts::kReplacement)),
                         [](const auto& info) { return info.param; });

// Prefetchers train on the warming reads and their lines are filled, as in
// the full run (those that act within a line need sub-blocks, which
// warming refuses).
class WarmPrefetcher : public ::testing::TestWithParam<std::string> {};

TEST_P(WarmPrefetcher, LaterRequestsSeeTheFullRunsContents) {
  CacheConfig l1 = cache("L1", 2048, 4, 64), l2 = cache("L2", 16384, 8, 64);
  l1.prefetch.name = l2.prefetch.name = GetParam();
  l1.prefetch.degree = l2.prefetch.degree = 2;
  expect_warm_equals_full({l1, l2}, 5);
}

INSTANTIATE_TEST_SUITE_P(Registered, WarmPrefetcher,
                         ::testing::ValuesIn(registered(concepts::kPrefetcher, traits::kWithinLine)),
                         [](const auto& info) { return info.param; });

TEST(Warm, WriteThroughNoAllocateAndInclusiveLevels) {
  CacheConfig l1 = cache("L1", 1024, 2, 32);
  l1.write_back = false;
  l1.write_allocate = false;
  CacheConfig l2 = cache("L2", 8192, 4, 64);
  l2.inclusive = true;
  CacheConfig l3 = cache("L3", 32768, 512, 64);  // fully associative: one set
  expect_warm_equals_full({l1, l2, l3}, 11);
}

TEST(Warm, AWarmedLevelDiffersFromACold) {
  // The check above can fail: a cold hierarchy does not match the full run.
  const std::vector<MemRequest> s = stream(3, 6000);
  CacheHierarchy full({cache("L1", 2048, 4, 64)}), cold({cache("L1", 2048, 4, 64)});
  for (size_t i = 0; i < 4000; ++i) full.access(s[i]);
  const std::vector<uint64_t> full0 = counts(full);
  for (size_t i = 4000; i < s.size(); ++i) {
    full.access(s[i]);
    cold.access(s[i]);
  }
  EXPECT_NE(minus(counts(full), full0), counts(cold));
}

}  // namespace
