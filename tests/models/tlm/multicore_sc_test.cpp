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

// A core far ahead in time, then a core that lags it, outside a parallel
// loop (issued in stream order, as a din trace of several cores is): core 0
// brings W into the shared L2 and lets it go from its private L1, computes a
// million cycles, then misses X and lets it go too. Core 1, still near time
// 0, reads W (an L2 hit) and X (an L2 line whose fill core 0 asked for a
// million cycles later). Each is served at core 1's own time: the L2 port in
// a free gap of its past, X as long after as core 0's fill took (before
// 2026-12-06 each waited ~1M cycles, for core 0's busy-until and fill).
TEST(MultiCore, ALaggingCoreIsServedAtItsOwnTime) {
  System sys(parse_config("name: mc\nclock: 1 GHz\n"
                          "core: {issue_width: 1, max_outstanding: 1, cores: 2}\n"
                          "caches:\n"
                          "  - {name: L1, size: 128 B, ways: 1, line: 64 B, latency: 2 cycles, bandwidth: 64 B/cycle}\n"
                          "  - {name: L2, size: 4 KiB, ways: 4, line: 64 B, latency: 10 cycles, bandwidth: 64 B/cycle}\n"
                          "dram: {latency: 100 ns, bandwidth: 1000 GB/s}\n",
                          "test"));
  const uint64_t w = 0x0, x = 0x1000, evict = 0x80;  // L1 set 0 each (two sets of one way)
  const StatsNode root = sys.run(
      [&](EventSink& s) {
        s.access(read(w, 0));
        s.access(read(w + evict, 0));  // W leaves core 0's L1; the L2 keeps it
        Compute c;
        c.flops = 32'000'000;  // 1M cycles at 32 flops a cycle
        s.compute(c);
        s.access(read(x, 0));
        s.access(read(x + evict, 0));  // and X
        s.access(read(w, 1));
        s.access(read(x, 1));
      },
      RunOptions{});
  const StatsNode* l2 = root.find_child("levels")->find_child("L2");
  ASSERT_NE(l2, nullptr);
  // Counts do not depend on the timing: core 0's four lines miss, core 1's two hit.
  EXPECT_EQ(l2->u64("demand_misses"), 4u);
  EXPECT_EQ(l2->u64("reads"), 6u);
  // Four misses of ~112 cycles (10 + 100 + the transfers), W's hit (10) and X (~112).
  EXPECT_LT(l2->num("avg_latency_cycles"), 120.0);
  EXPECT_GT(root.num("cycles"), 1e6);  // core 0's compute
}

// A din trace of two cores where core 0 is 5,003 misses ahead: core 0's
// lines, then three of core 1's, in stream order (no parallel loop). Core
// 1's misses reach the DRAM at its own time, near 0, long after core 0's
// requests took the data bus (and the banks) up to ~590k cycles. With the
// DRAM in arrival order (before 2026-12-07) each of core 1's misses waited
// for that: ~590k stall cycles with the simple model, ~140k with the
// detailed one. Now the bus and the banks keep calendars (several cores)
// and core 1 waits only for its own misses, one at a time.
StatsNode lagging_core_at_dram(const std::string& dram) {
  System sys(parse_config("name: lag\nclock: 1 GHz\n"
                          "core: {issue_width: 1, max_outstanding: 1, cores: 2}\n"
                          "caches:\n"
                          "  - {name: L1, size: 4 KiB, ways: 4, line: 64 B, latency: 2 cycles, bandwidth: 64 B/cycle}\n"
                          "  - {name: L2, size: 64 KiB, ways: 8, line: 64 B, latency: 10 cycles, bandwidth: 64 B/cycle}\n"
                          "dram: " + dram + "\n",
                          "test"));
  return sys.run(
      [&](EventSink& s) {
        for (uint64_t i = 0; i < 5003; ++i) s.access(read(0x100000 + i * 64, 0));
        for (uint64_t i = 0; i < 3; ++i) s.access(read(0x4000000 + i * 64, 1));
      },
      RunOptions{});
}

// `miss_cycles`: what one of core 0's misses takes; `core1_bound`: core
// 1's stall cycles at most (the two misses it waits for, and a margin).
void expect_core1_served_at_its_time(const StatsNode& root, double miss_cycles, double core1_bound) {
  // Every line is new: each level misses every access, whatever the timing.
  EXPECT_EQ(root.find_child("levels")->find_child("L2")->u64("demand_misses"), 5006u);
  EXPECT_EQ(root.find_child("levels")->find_child("DRAM")->u64("reads"), 5006u);
  const StatsNode& per = *root.find_child("core")->find_child("per_core");
  EXPECT_EQ(per.children[1].u64("accesses"), 3u);
  EXPECT_EQ(per.children[1].u64("window_stalls"), 2u);  // its 2nd and 3rd miss wait for the one before
  // Core 0 runs ~5,000 misses one after another; core 1 waits for two of its own.
  EXPECT_GT(per.children[0].num("stall_cycles"), 4000 * miss_cycles);
  EXPECT_LT(per.children[1].num("stall_cycles"), core1_bound);
}

TEST(MultiCore, ALaggingCoreIsServedAtItsOwnTimeByTheSimpleDram) {
  // A miss: L1 2 + L2 10 + DRAM 100 + 64 B at 10 GB/s (6.4) = 118.4 cycles.
  expect_core1_served_at_its_time(lagging_core_at_dram("{timing: simple, latency: 100 ns, bandwidth: 10 GB/s}"),
                                  118.4, 2 * 118.4 + 10);
}

TEST(MultiCore, ALaggingCoreIsServedAtItsOwnTimeByTheDetailedDram) {
  // The default DDR4-3200 channel (tRP = tRCD = tCL = 13.75 ns, a burst
  // 2.5 ns). Core 0's misses stream through open rows: ~28 cycles each
  // (L1 + L2 + tCL + a burst) once a row is open. Core 1's three lines
  // share a row: the first finds the row core 0 left open in that bank
  // (rows stay in arrival order), a conflict: 12 + 3 x 13.75 + 2.5 ~ 56
  // cycles; then row hits, ~28.
  const StatsNode root = lagging_core_at_dram("{timing: detailed}");
  expect_core1_served_at_its_time(root, 27, 56 + 28 + 10);
  const StatsNode& dram = *root.find_child("levels")->find_child("DRAM");
  EXPECT_EQ(dram.u64("row_hits") + dram.u64("row_misses") + dram.u64("row_conflicts"), 5006u);  // a line a burst
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
