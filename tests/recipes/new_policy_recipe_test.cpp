// The recipe "add a replacement policy" of docs/ARCHITECTURE.md, followed
// to the letter: the policy below is the header a contributor would write
// (models/cache/replacement/mru.h), ending in its one registration line,
// and nothing else in the tree knows about it. The config loader accepts
// its name, lists it among the choices, and the cache built from it counts
// exactly. Its own binary, so that the extra policy stays out of the
// choice lists the other tests assert.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ptosim::replacement {

// Most recently used: the victim is the way touched last.
class Mru {
 public:
  static constexpr bool kKnowsMru = false;
  static constexpr bool kRepeatHitIsNoop = true;
  Mru(uint64_t sets, uint32_t /*ways*/, uint64_t /*seed*/) : last_(sets, 0) {}
  void on_hit(uint64_t set, uint32_t way) { last_[set] = way; }
  void on_fill(uint64_t set, uint32_t way) { last_[set] = way; }
  uint32_t victim(uint64_t set) const { return last_[set]; }

 private:
  std::vector<uint32_t> last_;
};

}  // namespace ptosim::replacement

#include "models/cache/replacement/policy.h"
namespace ptosim::replacement {
PTOSIM_REGISTER(ReplacementConcept, Mru, "mru", 50, "most recently used: the way touched last is the victim",
                &make_level_with<Mru>);
}  // namespace ptosim::replacement

#include "models/cache/cache_level.h"
#include "models/cache/memory_counter.h"
#include "sim/config/config_loader.h"
#include "tests/recipes/recipe_checks.h"

namespace ptosim::test {
namespace {

TEST(NewPolicyRecipe, ConfigNamesItAndTheCacheCountsWithIt) {
  const HwConfig c = parse_config(
      "caches: [{name: L1, size: 256 B, ways: 4, line: 64 B, replacement: mru}]\n", "mru.yaml");
  ASSERT_EQ(c.caches[0].replacement, "mru");
  std::unique_ptr<CacheLevel> l1 = make_cache_level(c.caches[0]);
  MemoryCounter memory;
  l1->connect_below(&memory);
  // One set of 4 ways: lines 0..3 fill it, line 4 evicts line 3 (the most
  // recent), so line 3 misses again and evicts line 4; lines 0..2 stay.
  for (uint64_t line : {0, 1, 2, 3, 4, 3, 0, 1, 2}) l1->request(MemRequest{line * 64, 4, false, 0, 0});
  EXPECT_EQ(l1->stats().read_misses, 6u);
  EXPECT_EQ(l1->stats().read_hits, 3u);
}

TEST(NewPolicyRecipe, ErrorsListItAmongTheChoices) {
  expect_listed_last("caches: [{name: L1, size: 1 KiB, ways: 4, line: 64 B, replacement: lfu}]\n",
                     "1: caches[0].replacement", "lfu", concepts::kReplacement, "mru");
}

}  // namespace
}  // namespace ptosim::test
