// The recipe "add a DRAM timing model" of docs/ARCHITECTURE.md, followed to
// the letter: the class below is the file a contributor would write
// (models/dram/fixed_dram.cpp; its header folded in here), ending in its one
// registration line, and nothing else in the tree knows about it. The
// config loader accepts its name and lists it among the choices, and the
// model the config names times requests as written. Its own binary, so
// that the extra model stays out of the choice lists the other tests derive.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/dram/dram_timing.h"
#include "sim/common/units.h"

namespace ptosim {
namespace {

// A fixed-latency DRAM with no bus: every request takes `latency` from its
// arrival, however many overlap (an upper bound on what a memory can do).
class FixedDram final : public DramTiming {
 public:
  explicit FixedDram(const DramConfig& c) : latency_(fs_from_seconds(c.latency_ns * 1e-9)) {}
  Fs access(Fs arrive, uint64_t, uint64_t, bool) override {
    busy_ += latency_;
    return arrive + latency_;
  }
  double peak_bandwidth() const override { return 0; }  // unbounded: no bus
  Fs busy() const override { return busy_; }
  Fs idle_miss() const override { return latency_; }
  void report(StatsNode&, double) const override {}

 private:
  Fs latency_;
  Fs busy_ = 0;
};

PTOSIM_REGISTER(DramModelConcept, Fixed, "fixed", 50, "a fixed latency, no bus: overlapping requests do not wait",
                make_dram<FixedDram>);

}  // namespace
}  // namespace ptosim

#include "sim/config/config_loader.h"
#include "tests/recipes/recipe_checks.h"

namespace ptosim::test {
namespace {

TEST(NewDramModelRecipe, ConfigNamesItAndItTimesRequests) {
  const HwConfig c = parse_config("caches: [{size: 1 KiB, ways: 2, line: 64 B}]\ndram: {timing: fixed, latency: 50 ns}\n", "fixed.yaml");
  ASSERT_EQ(c.dram.timing, "fixed");
  std::unique_ptr<DramTiming> d = make_dram_timing(c.dram);
  const Fs ns = fs_from_seconds(1e-9);
  // Two requests at once both end 50 ns later: there is no bus to share.
  EXPECT_EQ(d->access(0, 0, 64, false), 50 * ns);
  EXPECT_EQ(d->access(0, 64, 64, true), 50 * ns);
  EXPECT_EQ(d->idle_miss(), 50 * ns);
  EXPECT_EQ(d->busy(), 100 * ns);
}

TEST(NewDramModelRecipe, ErrorsListItAmongTheChoices) {
  expect_listed_last("caches: [{size: 1 KiB, ways: 2, line: 64 B}]\ndram: {timing: hbm}\n", "2: dram.timing", "hbm",
                     concepts::kDramTiming, "fixed");
}

}  // namespace
}  // namespace ptosim::test
