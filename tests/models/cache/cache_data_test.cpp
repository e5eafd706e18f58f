// --check-data's claim for the plain-C++ cache logic: levels that carry
// bytes return, on every read, the bytes of the last write to them, and after
// a flush the memory holds what a flat shadow memory holds — under every
// replacement, write, inclusion and prefetch policy, on random hierarchies and random
// traces with random data. And the test-only faults are caught, so the
// check can fail.
#include <gtest/gtest.h>

#include <random>

#include "sim/trace/data_check.h"
#include "models/cache/byte_store.h"
#include "tests/models/cache/cache_test_util.h"
#include "tests/support/choices.h"

using namespace ptosim;
using namespace ptosim::test;

namespace {

// Lines grow (or stay) downwards: an inclusive level below a level with
// larger lines loses data by design (docs/CACHES.md).
std::vector<CacheConfig> random_hierarchy(std::mt19937_64& rng, const std::string& policy) {
  std::vector<CacheConfig> levels;
  const int n = 1 + int(rng() % 3);
  uint32_t line = 16u << (rng() % 3);
  for (int i = 0; i < n; ++i) {
    CacheConfig c = cache("L" + std::to_string(i + 1), 0, 1 + uint32_t(rng() % 5), line, policy);
    c.size = (1 + rng() % 5) * c.ways * c.line;
    c.write_back = rng() % 3 != 0;
    c.write_allocate = rng() % 3 != 0;
    c.inclusive = i > 0 && rng() % 2 == 0;
    c.seed = rng() % 100;
    // Prefetched fills carry bytes too: every registered prefetcher takes
    // part but those within a line (sub-blocks, which --check-data does not model).
    static const std::vector<std::string> prefetchers = registered(concepts::kPrefetcher, traits::kWithinLine);
    c.prefetch.name = prefetchers[rng() % prefetchers.size()];
    c.prefetch.distance = 1 + uint32_t(rng() % 4);
    c.prefetch.degree = c.prefetch.name == "next_line" || c.prefetch.name == "stride" || c.prefetch.name == "stream"
                            ? 1 + uint32_t(rng() % 4)
                            : 1;
    levels.push_back(c);
    line <<= rng() % 2;
  }
  return levels;
}

std::string describe(const std::vector<CacheConfig>& levels) {
  std::string s;
  for (auto& c : levels)
    s += c.name + "{" + std::to_string(c.size) + "B " + std::to_string(c.ways) + "w " + std::to_string(c.line) + "B " +
         c.replacement + (c.write_back ? " wb" : " wt") + (c.write_allocate ? " alloc" : " noalloc") +
         (c.inclusive ? " incl" : "") + " pf=" + c.prefetch.name + "} ";
  return s;
}

// Between accesses the nearest level that holds a byte holds its newest
// value (nothing newer waits anywhere): "" or where it does not.
std::string nearest_copies_are_newest(CacheHierarchy& h, const ByteStore& shadow, uint64_t span, int op) {
  for (uint64_t a = 0; a < span; ++a) {
    uint8_t got = 0, want = 0;
    std::string who = "memory";
    bool held = false;
    for (auto& level : h.levels())
      if ((held = level->peek(a, &got))) {
        who = level->config().name;
        break;
      }
    if (!held) h.memory().store().read(a, 1, &got);
    shadow.read(a, 1, &want);
    if (got != want)
      return "after access " + std::to_string(op) + ": byte " + std::to_string(a) + " in " + who + " is stale";
  }
  return "";
}

// Runs `ops` random accesses with trace data; returns the first failure
// ("" if none): a read that differs from the shadow, or after the flush a
// memory byte that does.
std::string run_random(CacheHierarchy& h, std::mt19937_64& rng, int ops) {
  ByteStore shadow;
  const uint64_t span = 4096;  // small: lines are reused, evicted, written back
  std::vector<uint8_t> buf, want;
  uint64_t writes = 0;
  for (int i = 0; i < ops; ++i) {
    const uint64_t bytes = 1 + (rng() % 4 == 0 ? rng() % 200 : rng() % 8);
    const uint64_t addr = rng() % span;
    const bool write = rng() % 3 == 0;
    buf.resize(bytes);
    want.resize(bytes);
    if (write) {
      trace_bytes(addr, bytes, writes++, buf.data());
      shadow.write(addr, bytes, buf.data());
      h.access(MemRequest{addr, bytes, true, 0, 0, buf.data()});
    } else {
      h.access(MemRequest{addr, bytes, false, 0, 0, buf.data()});
      shadow.read(addr, bytes, want.data());
      if (first_difference(want.data(), buf.data(), bytes) != bytes)
        return data_mismatch("access " + std::to_string(i), "read", "global", addr, bytes, "the hierarchy", want.data(),
                             buf.data());
    }
    if (i % 100 == 99) {
      const std::string stale = nearest_copies_are_newest(h, shadow, span + 256, i);
      if (!stale.empty()) return stale;
    }
  }
  h.flush();
  buf.resize(span + 256);
  want.resize(span + 256);
  h.memory().store().read(0, span + 256, buf.data());
  shadow.read(0, span + 256, want.data());
  if (first_difference(want.data(), buf.data(), span + 256) != span + 256)
    return data_mismatch("after the flush", "memory image", "global", 0, span + 256, "memory", want.data(), buf.data());
  return "";
}

}  // namespace

// One case per registered replacement policy.
class CacheDataPolicy : public ::testing::TestWithParam<std::string> {};
INSTANTIATE_TEST_SUITE_P(Registered, CacheDataPolicy, ::testing::ValuesIn(registered(concepts::kReplacement)),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST_P(CacheDataPolicy, RandomHierarchiesKeepData) {
  std::mt19937_64 rng(15);
  const std::string& policy = GetParam();
  for (int round = 0; round < 150; ++round) {
    const std::vector<CacheConfig> levels = random_hierarchy(rng, policy);
    CacheHierarchy h(levels, true);
    const std::string failure = run_random(h, rng, 1500);
    ASSERT_EQ(failure, "") << describe(levels);
  }
}

TEST_P(CacheDataPolicy, EveryCombination) {
  // Two levels, each of write-back/through x allocate/not x (L2) inclusive/not.
  std::mt19937_64 rng(1515);
  const std::string& policy = GetParam();
  for (int bits = 0; bits < 32; ++bits) {
    CacheConfig l1 = cache("L1", 4 * 2 * 32, 2, 32, policy), l2 = cache("L2", 8 * 4 * 64, 4, 64, policy);
    l1.write_back = bits & 1;
    l1.write_allocate = bits & 2;
    l2.write_back = bits & 4;
    l2.write_allocate = bits & 8;
    l2.inclusive = bits & 16;
    CacheHierarchy h({l1, l2}, true);
    const std::string failure = run_random(h, rng, 3000);
    ASSERT_EQ(failure, "") << describe({l1, l2});
  }
}

TEST(CacheData, NormalLevelsKeepNoData) {
  CacheHierarchy h({cache("L1", 1024, 2, 64)});
  EXPECT_FALSE(h.levels()[0]->keeps_data());
  CacheHierarchy d({cache("L1", 1024, 2, 64)}, true);
  EXPECT_TRUE(d.levels()[0]->keeps_data());
}

TEST(CacheData, FaultsAreCaught) {
  for (CacheLevel::Fault fault : {CacheLevel::Fault::DropWriteback, CacheLevel::Fault::StaleFill}) {
    for (int level = 0; level < 2; ++level) {
      std::mt19937_64 rng(7 + level);
      CacheHierarchy h({cache("L1", 1024, 2, 64), cache("L2", 4096, 4, 64)}, true);
      h.levels()[size_t(level)]->set_fault(fault);
      EXPECT_NE(run_random(h, rng, 3000), "") << "fault " << int(fault) << " at L" << level + 1;
    }
  }
}

TEST(CacheData, PokeUpdatesEveryCopy) {
  // A host write (a tensor's initial values) reaches the lines that hold it
  // at every level and the memory, and counts nothing.
  CacheHierarchy h({cache("L1", 1024, 2, 64), cache("L2", 4096, 4, 64)}, true);
  uint8_t buf[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8] = {};
  h.access(MemRequest{0x100, 8, true, 0, 0, buf});
  const uint8_t host[4] = {9, 9, 9, 9};
  h.top()->poke(0x102, 4, host);
  h.access(MemRequest{0x100, 8, false, 0, 0, got});
  const uint8_t want[8] = {1, 2, 9, 9, 9, 9, 7, 8};
  EXPECT_EQ(first_difference(want, got, 8), 8u) << hex_bytes(got, 8, 0);
  h.flush();
  h.memory().store().read(0x100, 8, got);
  EXPECT_EQ(first_difference(want, got, 8), 8u) << hex_bytes(got, 8, 0);
  EXPECT_EQ(h.levels()[0]->stats().accesses(), 2u);
}
