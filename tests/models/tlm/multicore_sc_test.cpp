// Several cores (core.cores, pto.parallel): each core has its own issue
// slots and miss window on the shared hierarchy, and a barrier brings every
// core to the time the slowest is done. Expectations are closed forms of a
// fixed-latency hierarchy (no DRAM row buffer).
#include <gtest/gtest.h>

#include "models/tlm/system.h"
#include "sim/config/config_loader.h"

namespace ptosim {
namespace {

// 1 GHz; one outstanding miss per core; L1 2 cycles; DRAM 100 cycles and
// fast enough that two cores never queue on it.
std::string yaml(uint32_t cores) {
  return "name: mc\nclock: 1 GHz\n"
         "core: {issue_width: 1, max_outstanding: 1, cores: " + std::to_string(cores) + "}\n"
         "caches:\n"
         "  - {name: L1, size: 4 KiB, ways: 4, line: 64 B, latency: 2 cycles, bandwidth: 64 B/cycle}\n"
         "dram: {latency: 100 ns, bandwidth: 1000 GB/s}\n";
}

constexpr double kMissCycles = 2 + 100 + 64.0 / 1000;  // L1 + DRAM latency + transfer

Access read(uint64_t addr, CoreId core) {
  Access a{addr, 4, AccessKind::Read, kGlobalSpace, 0, 0};
  a.core = core;
  return a;
}

// n distinct lines; access i on core i % cores.
StatsNode run(uint32_t cores, uint64_t n, bool barriers = true) {
  System sys(parse_config(yaml(cores), "test"));
  return sys.run(
      [&](EventSink& s) {
        if (barriers) s.barrier(true);
        for (uint64_t i = 0; i < n; ++i) s.access(read(i * 64, CoreId(i % cores)));
        if (barriers) s.barrier(false);
      },
      RunOptions{});
}

// (One simulation per process: each test elaborates one System.)
TEST(MultiCore, OneCoreExposesEveryMiss) {
  const uint64_t n = 1000;
  EXPECT_NEAR(run(1, n).num("cycles") / (double(n) * kMissCycles), 1.0, 0.01);
}

TEST(MultiCore, TwoCoresOverlapTheirExposedMisses) {
  const uint64_t n = 1000;
  const StatsNode two = run(2, n);
  EXPECT_NEAR(two.num("cycles") / (double(n / 2) * kMissCycles), 1.0, 0.01);
  // The hierarchy is shared and sees the same stream as with one core.
  const StatsNode* core = two.find_child("core");
  ASSERT_NE(core, nullptr);
  EXPECT_EQ(core->u64("accesses"), n);
  EXPECT_EQ(core->u64("cores"), 2u);
  EXPECT_EQ(core->u64("barriers"), 2u);
  const StatsNode* per = core->find_child("per_core");
  ASSERT_NE(per, nullptr);
  ASSERT_EQ(per->children.size(), 2u);
  EXPECT_EQ(per->children[0].u64("accesses"), n / 2);
  EXPECT_EQ(per->children[1].u64("accesses"), n / 2);
  EXPECT_EQ(two.find_child("levels")->find_child("L1")->u64("read_misses"), n);
}

// Core 0 misses 100 times; then core 1 misses 100 times, after a barrier or not.
StatsNode phases(bool barrier) {
  System sys(parse_config(yaml(2), "test"));
  return sys.run(
      [&](EventSink& s) {
        s.barrier(true);
        for (uint64_t i = 0; i < 100; ++i) s.access(read(i * 64, 0));
        if (barrier) s.barrier(true);
        for (uint64_t i = 100; i < 200; ++i) s.access(read(i * 64, 1));
        s.barrier(false);
      },
      RunOptions{});
}

TEST(MultiCore, BarrierMakesTheLaterPhaseWait) {
  const StatsNode with = phases(true);
  EXPECT_NEAR(with.num("cycles") / (200 * kMissCycles), 1.0, 0.01);
  const StatsNode& c1 = with.find_child("core")->find_child("per_core")->children[1];
  EXPECT_NEAR(c1.num("barrier_wait_cycles") / (100 * kMissCycles), 1.0, 0.01);
}

TEST(MultiCore, WithoutABarrierCoresStartTogether) {
  EXPECT_NEAR(phases(false).num("cycles") / (100 * kMissCycles), 1.0, 0.01);
}

TEST(MultiCore, ComputeRunsOnItsOwnCore) {
  // 3200 flops at 32 flops/cycle = 100 cycles on each of two cores, in parallel.
  System sys(parse_config(yaml(2), "test"));
  const StatsNode root = sys.run(
      [&](EventSink& s) {
        Compute c;
        c.flops = 3200;
        s.compute(c);
        c.core = 1;
        s.compute(c);
      },
      RunOptions{});
  EXPECT_NEAR(root.num("cycles"), 100.0, 1e-9);
  EXPECT_EQ(root.find_child("core")->u64("flops"), 6400u);
}

TEST(MultiCore, AnAccessOfAMissingCoreIsAnError) {
  System sys(parse_config(yaml(2), "test"));
  try {
    sys.run([&](EventSink& s) { s.access(read(0, 2)); }, RunOptions{});
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("access by core 2 but the config has 2 core(s)"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ptosim
