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

// Previous-line prefetching: a demand miss on line L proposes L - 1
// (a descending walk), nothing on a hit.
class PrevLine final : public Prefetcher {
 public:
  explicit PrevLine(const PrefetchConfig&) {}
  uint32_t on_read(const DemandRead& r, uint64_t* out) override {
    if (!r.miss || r.line == 0) return 0;
    out[0] = r.line - 1;
    return 1;
  }
};

}  // namespace

PTOSIM_REGISTER(PrefetcherConcept, PrevLine, "prev_line", 50, "line - 1 on a read miss", make_from_config<PrevLine>);

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
  CacheHierarchy h(c.caches);
  // Lines 5, 4 (prefetched by the miss on 5: a hit), 9 (miss: fetches 8), 8 (hit).
  for (uint64_t line : {5, 4, 9, 8}) h.access(MemRequest{line * 64, 4, false, 0, 0});
  const LevelStats& s = h.levels()[0]->stats();
  const PrefetchStats& p = h.levels()[0]->prefetch_stats();
  EXPECT_EQ(s.read_misses, 2u);
  EXPECT_EQ(s.read_hits, 2u);
  EXPECT_EQ(p.issued, 2u);
  EXPECT_EQ(p.useful, 2u);
  EXPECT_EQ(h.memory().stats().reads, 4u);  // two demand fills, two prefetch fills
}

TEST(NewPrefetcherRecipe, ErrorsListItAmongTheChoices) {
  expect_listed_last("caches: [{name: L1, size: 1 KiB, ways: 2, line: 64 B, prefetcher: next_page}]\n",
                     "1: caches[0].prefetcher", "next_page", concepts::kPrefetcher, "prev_line");
}

}  // namespace
}  // namespace ptosim::test
