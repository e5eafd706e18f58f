// The fast cache logic against the simple reference model, on thousands of
// random small configurations and random traces: every counter must agree.
#include <gtest/gtest.h>

#include <random>

#include "tests/models/cache/cache_test_util.h"
#include "tests/models/cache/reference_cache.h"
#include "tests/support/choices.h"

using namespace ptosim;
using namespace ptosim::test;

namespace {

void expect_same(const LevelStats& a, const LevelStats& b, const std::string& where) {
  EXPECT_EQ(a.reads, b.reads) << where;
  EXPECT_EQ(a.writes, b.writes) << where;
  EXPECT_EQ(a.read_hits, b.read_hits) << where;
  EXPECT_EQ(a.write_hits, b.write_hits) << where;
  EXPECT_EQ(a.read_misses, b.read_misses) << where;
  EXPECT_EQ(a.write_misses, b.write_misses) << where;
  EXPECT_EQ(a.evictions, b.evictions) << where;
  EXPECT_EQ(a.writebacks, b.writebacks) << where;
  EXPECT_EQ(a.bytes_read, b.bytes_read) << where;
  EXPECT_EQ(a.bytes_written, b.bytes_written) << where;
  EXPECT_EQ(a.compulsory, b.compulsory) << where;
  EXPECT_EQ(a.capacity, b.capacity) << where;
  EXPECT_EQ(a.conflict, b.conflict) << where;
  EXPECT_EQ(a.back_invalidations, b.back_invalidations) << where;
  ASSERT_EQ(a.by_tensor().rows().size(), b.by_tensor().rows().size()) << where;
  for (size_t i = 0; i < a.by_tensor().rows().size(); ++i) {
    EXPECT_EQ(a.by_tensor().rows()[i].accesses, b.by_tensor().rows()[i].accesses) << where;
    EXPECT_EQ(a.by_tensor().rows()[i].misses, b.by_tensor().rows()[i].misses) << where;
    EXPECT_EQ(a.by_tensor().rows()[i].bytes, b.by_tensor().rows()[i].bytes) << where;
  }
}

CacheConfig random_level(std::mt19937_64& rng, int index, uint32_t min_line, uint32_t min_ways = 1) {
  // Every registered policy; one without a twin in the reference model
  // throws there (RefLevel), so a new policy cannot pass untested.
  static const std::vector<std::string> policies = registered(concepts::kReplacement);
  CacheConfig c;
  c.name = "L" + std::to_string(index + 1);
  c.line = std::max<uint32_t>(min_line / 2, 16u << (rng() % 4));  // 16..128 B
  c.ways = min_ways + uint32_t(rng() % 6) * (min_ways > 1 ? 5 : 1);
  uint64_t sets = 1 + rng() % 6;  // powers of two and not
  c.size = sets * c.ways * c.line;
  c.replacement = policies[rng() % policies.size()];
  c.write_back = rng() % 4 != 0;
  c.write_allocate = rng() % 3 != 0;
  c.allocate_nofetch = c.write_allocate && rng() % 5 == 0;
  c.inclusive = index > 0 && rng() % 3 == 0;
  c.seed = rng() % 100;
  return c;
}

// Random hierarchies of levels with 1 to 6 ways, or (wide) with 17 to 42,
// whose sets find lines through a map instead of a scan.
void run_differential(uint64_t seed, int rounds, uint32_t min_ways) {
  std::mt19937_64 rng(seed);
  for (int round = 0; round < rounds; ++round) {
    const int n = 1 + int(rng() % 3);
    std::vector<CacheConfig> configs;
    for (int i = 0; i < n; ++i) configs.push_back(random_level(rng, i, i ? configs.back().line : 16, min_ways));
    CacheHierarchy fast(configs);
    std::vector<std::unique_ptr<RefLevel>> ref;
    LevelStats ref_memory;
    for (auto& c : configs) ref.push_back(std::make_unique<RefLevel>(c));
    for (int i = 0; i < n; ++i) {
      if (i + 1 < n) ref[i]->below = ref[i + 1].get();
      ref[i]->memory = &ref_memory;
      for (int j = i - 1; j >= 0; --j) ref[i]->above.push_back(ref[j].get());
    }
    const uint64_t span = 64 + rng() % 4096;
    const int accesses = 200 + int(rng() % 400);
    for (int k = 0; k < accesses; ++k) {
      const uint64_t addr = rng() % span;
      const uint64_t bytes = rng() % 8 == 0 ? 1 + rng() % 300 : 1u << (rng() % 4);
      const bool write = rng() % 3 == 0;
      const TagId tensor = TagId(rng() % 3);
      if (rng() % 64 == 0) {  // Dinero IV's copyback and invalidate records, of one line or (size 0) all
        const bool invalidate = rng() % 2 == 0;
        const uint64_t size = rng() % 4 == 0 ? 0 : bytes;
        fast.control(invalidate ? AccessKind::Invalidate : AccessKind::Copyback, addr, size);
        ref[0]->control(invalidate, addr, size);
        continue;
      }
      fast.access(MemRequest{addr, bytes, write, tensor, 0});
      ref[0]->request(addr, bytes, write, tensor, 0);
    }
    if (round % 2) {
      fast.flush();
      for (auto& r : ref) r->flush();
    }
    for (int i = 0; i < n; ++i)
      expect_same(fast.levels()[i]->stats(), ref[i]->stats, "round " + std::to_string(round) + " level " + std::to_string(i));
    expect_same(fast.memory().stats(), ref_memory, "round " + std::to_string(round) + " memory");
    if (::testing::Test::HasFailure()) {
      for (auto& c : configs)
        ADD_FAILURE() << c.name << " size " << c.size << " ways " << c.ways << " line " << c.line << " " << c.replacement
                      << (c.write_back ? " wb" : " wt") << (c.allocate_nofetch ? " alloc-nofetch" : c.write_allocate ? " alloc" : " noalloc")
                      << (c.inclusive ? " inclusive" : "");
      return;
    }
  }
}

}  // namespace

TEST(CacheDifferential, RandomConfigsAndTraces) { run_differential(20261129, 3000, 1); }

TEST(CacheDifferential, WideSetsAndTraces) { run_differential(20261201, 1000, 17); }
