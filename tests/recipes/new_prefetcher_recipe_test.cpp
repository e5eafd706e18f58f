// The recipe "add a prefetcher" of docs/ARCHITECTURE.md, followed to the
// letter: the class below is the file a contributor would write
// (models/cache/prefetch/prev_line.cpp), ending in its one registration
// line, and nothing else in the tree knows about it. The config loader
// accepts its name and lists it among the choices, and a level built with
// it fetches exactly what it proposes. Its own binary, so that the extra
// prefetcher stays out of the choice lists the other tests derive.
#include <gtest/gtest.h>

#include "models/cache/prefetch/prefetcher.h"

namespace ptosim::prefetch {
namespace {

// Previous-line prefetching: a demand miss on line L proposes L - distance
// (a descending walk), nothing on a hit.
class PrevLine final : public Prefetcher {
 public:
  explicit PrevLine(const PrefetchConfig& c) : distance_(c.distance) {}
  uint32_t on_read(const DemandRead& r, uint64_t* out) override {
    if (!r.miss || r.line < distance_) return 0;
    out[0] = r.line - distance_;
    return 1;
  }

 private:
  uint64_t distance_;
};

}  // namespace

// Its own default for a shared key: two lines back unless the config says otherwise.
PTOSIM_REGISTER(PrefetcherConcept, PrevLine, "prev_line", 50, "line - distance on a read miss",
                make_from_config<PrevLine>, defaults_to("prefetch_distance", 2));

}  // namespace ptosim::prefetch

#include "models/cache/hierarchy.h"
#include "sim/config/config_loader.h"
#include "tests/recipes/recipe_checks.h"

namespace ptosim::test {
namespace {

TEST(NewPrefetcherRecipe, ConfigNamesItAndTheLevelFetchesWhatItProposes) {
  const HwConfig c = parse_config(
      "caches: [{name: L1, size: 1 KiB, ways: 2, line: 64 B, prefetcher: prev_line}]\n", "prev.yaml");
  ASSERT_EQ(c.caches[0].prefetch.name, "prev_line");
  ASSERT_EQ(c.caches[0].prefetch.distance, 2u);  // its declared default
  CacheHierarchy h(c.caches);
  // Lines 5, 3 (prefetched by the miss on 5: a hit), 9 (miss: fetches 7), 7 (hit).
  for (uint64_t line : {5, 3, 9, 7}) h.access(MemRequest{line * 64, 4, false, 0, 0});
  const LevelStats& s = h.levels()[0]->stats();
  const PrefetchStats& p = h.levels()[0]->prefetch_stats();
  EXPECT_EQ(s.read_misses, 2u);
  EXPECT_EQ(s.read_hits, 2u);
  EXPECT_EQ(p.issued, 2u);
  EXPECT_EQ(p.useful, 2u);
  EXPECT_EQ(h.memory().stats().reads, 4u);  // two demand fills, two prefetch fills
}

TEST(NewPrefetcherRecipe, TheConfigOverridesItsDefault) {
  const HwConfig c = parse_config(
      "caches: [{name: L1, size: 1 KiB, ways: 2, line: 64 B, prefetcher: prev_line, prefetch_distance: 5}]\n",
      "prev.yaml");
  EXPECT_EQ(c.caches[0].prefetch.distance, 5u);
  EXPECT_EQ(c.caches[0].prefetch.degree, 1u);  // no default declared: the key's own
}

TEST(NewPrefetcherRecipe, ErrorsListItAmongTheChoices) {
  expect_listed_last("caches: [{name: L1, size: 1 KiB, ways: 2, line: 64 B, prefetcher: next_page}]\n",
                     "1: caches[0].prefetcher", "next_page", concepts::kPrefetcher, "prev_line");
}

}  // namespace
}  // namespace ptosim::test
