// The recipe "add a core model" of docs/ARCHITECTURE.md, followed to the
// letter: the class below is the file a contributor would write
// (models/core/fixed_core.cpp, copied from simple_core.cpp), ending in its
// one registration line, and nothing else in the tree knows about it. The
// config loader accepts its name and lists it among the choices, and a run
// through the whole System (core module, L1, DRAM) takes exactly the cycles
// the model says: a closed form, whatever the memory does. Its own binary,
// so that the extra model stays out of the choice lists the other tests
// derive; each case runs in its own process (gtest_discover_tests), as a
// process elaborates one simulation.
#include <gtest/gtest.h>

#include "models/core/core_timing.h"
#include "sim/common/time.h"

namespace ptosim {
namespace {

// A core of fixed costs: every line an access touches takes `kAccessCycles`
// of issue time and every flop one cycle, however long the memory takes
// (the accesses still reach the caches, which count them). It times every
// access itself, so it registers traits::kEveryAccess: without it a cache
// level would issue runs of accesses timed as `simple` times them.
class FixedCore final : public CoreTiming {
 public:
  static constexpr uint64_t kAccessCycles = 3;

  FixedCore(const CoreConfig&, double period_fs, uint32_t) : period_fs_(uint64_t(period_fs)) {}

  void access(CoreClock& k, uint32_t, const Access& a, CorePort& port) override {
    k.count(a.kind == AccessKind::Write || a.kind == AccessKind::Fill, a.bytes);
    for_each_piece(a, port, [&](uint64_t addr, uint64_t bytes) {
      uint64_t t = k.issue_at;
      port.send(addr, bytes, &t);
      ++k.line_requests;
      k.issue_at = t + kAccessCycles * period_fs_;
    });
  }

  void compute(CoreClock& k, uint32_t, const Compute& c) override {
    k.computed(c);
    const uint64_t busy = c.issued() * period_fs_;
    k.compute_fs += busy;
    k.issue_at += busy;
  }

  void report(StatsNode&) const override {}

 private:
  uint64_t period_fs_;
};

PTOSIM_REGISTER(CoreModelConcept, Fixed, "fixed", 50,
                "every access line 3 cycles and every flop one, whatever the memory does", make_core<FixedCore>,
                traits::kEveryAccess);

}  // namespace
}  // namespace ptosim

#include "models/tlm/system.h"
#include "sim/config/config_loader.h"
#include "tests/recipes/recipe_checks.h"

namespace ptosim::test {
namespace {

// 1 GHz (a cycle is 10^6 fs exactly); an L1 of 64 B lines in front of DRAM.
const std::string kConfig =
    "name: fixed\nclock: 1 GHz\ncore: {model: fixed, issue_width: 4, max_outstanding: 16}\n"
    "caches:\n  - {name: L1, size: 4 KiB, ways: 4, line: 64 B, latency: 4 cycles}\n"
    "dram: {latency: 100 ns, bandwidth: 100 GB/s}\n";

TEST(NewCoreModelRecipe, ARunTakesTheModelsCycles) {
  const HwConfig c = parse_config(kConfig, "fixed.yaml");
  ASSERT_EQ(c.core.model, "fixed");
  System sys(c);
  // 8 reads of 4 B in one line (1 miss, 7 hits), 4 writes of 128 B (two
  // lines each, 8 line requests: 8 misses), then 100 flops.
  const StatsNode root = sys.run(
      [](EventSink& s) {
        for (uint64_t i = 0; i < 8; ++i) s.access(Access{0x1000 + 4 * i, 4, AccessKind::Read, kGlobalSpace});
        for (uint64_t i = 0; i < 4; ++i) s.access(Access{0x2000 + 128 * i, 128, AccessKind::Write, kGlobalSpace});
        Compute k;
        k.flops = 100;
        s.compute(k);
      },
      RunOptions{});
  const uint64_t lines = 8 + 4 * 2;
  EXPECT_EQ(root.num("cycles"), double(lines * FixedCore::kAccessCycles + 100));
  const StatsNode* l1 = root.find_child("levels") ? root.find_child("levels")->find_child("L1") : nullptr;
  ASSERT_NE(l1, nullptr);
  EXPECT_EQ(l1->u64("reads"), 8u);
  EXPECT_EQ(l1->u64("writes"), 8u);
  EXPECT_EQ(l1->u64("read_misses"), 1u);
  EXPECT_EQ(l1->u64("write_misses"), 8u);
}

TEST(NewCoreModelRecipe, ErrorsListItAmongTheChoices) {
  expect_listed_last("core: {model: ooo}\n", "1: core.model", "ooo", concepts::kCoreModel, "fixed");
}

}  // namespace
}  // namespace ptosim::test
