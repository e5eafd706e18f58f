// The `cpu` core model (models/core/cpu_pipeline.h): a chain of dependent
// instructions advances one latency per link, independent ones overlap up
// to the dispatch width, the units' throughput and the reorder window, and
// a dependent load waits for the one its address came from. Expectations
// are closed forms of a fixed-latency hierarchy, exact up to the few
// cycles a pipeline takes to fill and drain.
#include <gtest/gtest.h>

#include "models/tlm/system.h"
#include "sim/config/config_loader.h"

namespace ptosim {
namespace {

// 1 GHz, 4-wide, FP add 4 cycles on 2 pipes; L1 4 cycles; DRAM 100 ns, fast.
std::string yaml(const std::string& core_extra = "", uint32_t rob = 64) {
  return "name: cpu\nclock: 1 GHz\n"
         "core: {model: cpu, issue_width: 4, max_outstanding: 16, rob_entries: " + std::to_string(rob) +
         ", loop_uops: 0" + core_extra +
         ", op_timing: {add: {latency: 4, throughput: 2}}}\n"
         "caches:\n"
         "  - {name: L1, size: 64 KiB, ways: 4, line: 64 B, latency: 4 cycles, bandwidth: 64 B/cycle, mshrs: 16}\n"
         "dram: {latency: 100 ns, bandwidth: 1000 GB/s}\n";
}

Compute add(uint32_t d0 = 0, uint32_t d1 = 0) {
  Compute c;
  c.flops = 1;
  c.scalar = 1;
  c.op_class = uint8_t(OpClass::Add);
  c.dep[0] = d0;
  c.dep[1] = d1;
  return c;
}

double cycles_of(const std::string& config, const std::function<void(EventSink&)>& producer) {
  System sys(parse_config(config, "test"));
  return sys.run(producer, RunOptions{}).num("cycles");
}

// (One simulation per process: each test elaborates one System.)
TEST(CpuCore, DependentAddsTakeTheirLatencyEach) {
  const uint32_t n = 1000;
  // Event k (numbered from 1) waits for event k - 1.
  const double c = cycles_of(yaml(), [&](EventSink& s) {
    for (uint32_t k = 1; k <= n; ++k) s.compute(add(k - 1));
  });
  EXPECT_GE(c, 4.0 * n);
  EXPECT_LE(c, 4.0 * n + 4);
}

TEST(CpuCore, IndependentAddsRunAtTheUnitsThroughput) {
  const uint32_t n = 1000;
  const double c = cycles_of(yaml(), [&](EventSink& s) {
    for (uint32_t k = 1; k <= n; ++k) s.compute(add());
  });
  EXPECT_GE(c, n / 2.0);  // two adds a cycle
  EXPECT_LE(c, n / 2.0 + 8);
}

TEST(CpuCore, FourChainsInterleavedOverlap) {
  // Four accumulators: event k waits for event k - 4, so four adds are in
  // flight: one latency per four adds.
  const uint32_t n = 1000;
  const double c = cycles_of(yaml(), [&](EventSink& s) {
    for (uint32_t k = 1; k <= n; ++k) s.compute(add(k > 4 ? k - 4 : 0));
  });
  EXPECT_GE(c, 4.0 * n / 4);
  EXPECT_LE(c, 4.0 * n / 4 + 8);
}

// A scalar op is timed for its dtype: float16 adds here take 6 cycles on
// one pipe, float32's 4 on two.
std::string half_yaml() {
  std::string y = yaml();
  const std::string f32 = "op_timing: {add: {latency: 4, throughput: 2}}";
  y.replace(y.find(f32), f32.size(), f32.substr(0, f32.size() - 1) + ", add.float16: {latency: 6, throughput: 1}}");
  return y;
}

TEST(CpuCore, AFloat16ChainTakesFloat16sLatency) {
  const uint32_t n = 1000;
  const double c = cycles_of(half_yaml(), [&](EventSink& s) {
    for (uint32_t k = 1; k <= n; ++k) {
      Compute h = add(k - 1);
      h.dtype = 1;  // float16
      s.compute(h);
    }
  });
  EXPECT_GE(c, 6.0 * n);
  EXPECT_LE(c, 6.0 * n + 6);
}

TEST(CpuCore, IndependentFloat16AddsRunAtFloat16sThroughput) {
  const uint32_t n = 1000;
  const double c = cycles_of(half_yaml(), [&](EventSink& s) {
    for (uint32_t k = 1; k <= n; ++k) {
      Compute h = add();
      h.dtype = 1;
      s.compute(h);
    }
  });
  EXPECT_GE(c, double(n));  // one a cycle
  EXPECT_LE(c, n + 8.0);
}

constexpr uint32_t kLines = 200;
constexpr double kMiss = 4 + 100 + 64.0 / 1000;  // L1, then DRAM

TEST(CpuCore, AChaseWaitsForEveryMiss) {
  const double chase = cycles_of(yaml(), [&](EventSink& s) {
    for (uint32_t k = 1; k <= kLines; ++k) {
      Access a{uint64_t(k) * 4096, 4, AccessKind::Read, kGlobalSpace, 0, 0};
      a.dep = k - 1;  // its address is the previous load's value
      s.access(a);
    }
  });
  EXPECT_NEAR(chase / (kLines * kMiss), 1.0, 0.02);
}

TEST(CpuCore, IndependentMissesOverlapInTheWindow) {
  const double free = cycles_of(yaml(), [&](EventSink& s) {
    for (uint32_t k = 1; k <= kLines; ++k)
      s.access(Access{uint64_t(k) * 4096, 4, AccessKind::Read, kGlobalSpace, 0, 0});
  });
  // 16 misses in flight (max_outstanding), so about kLines / 16 miss times.
  EXPECT_NEAR(free / (kLines * kMiss / 16), 1.0, 0.1);
}

// One miss (104 cycles), then 200 independent adds (2 a cycle). With 1024
// entries they all execute under the miss and retire after it, 4 a cycle;
// with 64, 63 execute under it and the other 137 wait for it to retire.
double miss_then_adds(uint32_t rob) {
  return cycles_of(yaml("", rob), [&](EventSink& s) {
    s.access(Access{0x100000, 4, AccessKind::Read, kGlobalSpace, 0, 0});
    for (int k = 0; k < 200; ++k) s.compute(add());
  });
}

TEST(CpuCore, AddsHideUnderAMissInALargeWindow) { EXPECT_NEAR(miss_then_adds(1024), 104 + 200 / 4.0, 3); }

TEST(CpuCore, ASmallWindowFillsBehindAMiss) { EXPECT_NEAR(miss_then_adds(64), 104 + 137 / 2.0 + 4, 4); }

TEST(CpuCore, AnAddWaitingForAMissDoesNotHoldBackLaterAdds) {
  // The add that waits for the miss (ready at 104) takes its unit then;
  // the 100 independent adds after it take earlier cycles (out of order),
  // so everything is done at 104 + 4 and retires 4 a cycle after the miss.
  const double c = cycles_of(yaml("", 1024), [&](EventSink& s) {
    s.access(Access{0x100000, 4, AccessKind::Read, kGlobalSpace, 0, 0});
    s.compute(add(1));
    for (int k = 0; k < 100; ++k) s.compute(add());
  });
  EXPECT_NEAR(c, 104 + 4 + 100 / 4.0, 3);
}

// store_fill_cycles through the real hierarchy: stores round-robin over 8
// lines that miss (a tile of the 8x8 blocked transpose: 8 stores a line),
// the core's fill clock told by the L1 (holds) and the miss's arrival. With
// the rule every store turns to a line that just came by a miss and drains
// 3 cycles apart; without it two a cycle. Stores along one fresh line pay
// once a line (the turn).
StatsNode store_tile(uint32_t fill_cycles, bool along) {
  std::string config = yaml(", store_request: rfo, store_ports: 2, sq_entries: 64" +
                                (fill_cycles ? ", store_fill_cycles: " + std::to_string(fill_cycles) +
                                                   ", store_fill_window: 400"
                                             : std::string()),
                            256);
  System sys(parse_config(config, "test"));
  return sys.run(
      [&](EventSink& s) {
        for (uint64_t k = 0; k < 64; ++k) {
          const uint64_t line = along ? k / 8 : k % 8, word = along ? k % 8 : k / 8;
          s.access(Access{0x10000 + line * 2048 + word * 4, 4, AccessKind::Write, kGlobalSpace, 0, 0});
        }
      },
      RunOptions{});
}

// (One System a test.) The queue's drain slots 3 cycles apart from the
// start, the lines there by ~104 cycles: the last store at ~3 x 64; two a
// cycle, the tile ends with its lines, ~104 + a few.
TEST(CpuCore, StoresTurningToFreshlyMissedLinesDrainAtStoreFillCycles) {
  const StatsNode with = store_tile(3, false);
  EXPECT_EQ(with.find_child("core")->u64("fill_stores"), 64u);
  EXPECT_GE(with.num("cycles"), 3 * 63.0);
  EXPECT_LE(with.num("cycles"), 3 * 64.0 + 8);
}

TEST(CpuCore, WithoutStoreFillCyclesTheTileDrainsTwoACycle) {
  const StatsNode without = store_tile(0, false);
  EXPECT_EQ(without.find_child("core")->find_child("fill_stores"), nullptr);
  EXPECT_LE(without.num("cycles"), 104 + 40.0);
}

TEST(CpuCore, StoresAlongOneFreshLinePayStoreFillCyclesOnceALine) {
  const StatsNode along = store_tile(3, true);
  EXPECT_EQ(along.find_child("core")->u64("fill_stores"), 8u);
  EXPECT_LE(along.num("cycles"), 104 + 3 * 8 + 32 + 8.0);
}

TEST(CpuCore, AStoreForwardsToTheLoadAfterIt) {
  // x = load; x = x + 1; store x; repeated on one address: the chain is
  // forwarding + add per iteration, the cache sees no load after the first.
  const uint32_t n = 100;
  System sys(parse_config(yaml(", forward_latency: 5"), "test"));
  const StatsNode root = sys.run(
      [&](EventSink& s) {
        uint32_t seq = 0, last = 0;
        for (uint32_t k = 0; k < n; ++k) {
          s.access(Access{0x40, 4, AccessKind::Read, kGlobalSpace, 0, 0});
          const uint32_t ld = ++seq;
          s.compute(add(ld));
          last = ++seq;
          Access w{0x40, 4, AccessKind::Write, kGlobalSpace, 0, 0};
          w.dep = last;
          s.access(w);
          ++seq;
        }
      },
      RunOptions{});
  EXPECT_GE(root.num("cycles"), n * (5.0 + 4));
  EXPECT_LE(root.num("cycles"), n * (5.0 + 4) + 120);
  EXPECT_EQ(root.find_child("core")->u64("forwarded_loads"), n - 1);
}

TEST(CpuCore, ALoopIterationDispatchesLoopUopsAndOneAStreamPastTheFirst) {
  // loop_uops 2 (counter, compare-and-branch); 100 iterations of 3 induction
  // streams: 2 + 2 instructions each, dispatched 4 a cycle.
  std::string y = yaml();
  y.replace(y.find("loop_uops: 0"), 12, "loop_uops: 2");
  System sys(parse_config(y, "test"));
  const StatsNode root = sys.run(
      [&](EventSink& s) {
        for (int k = 0; k < 100; ++k) {
          Compute c;
          c.op_class = uint8_t(OpClass::Int);
          c.scalar = 3;
          s.compute(c);
        }
      },
      RunOptions{});
  EXPECT_EQ(root.find_child("core")->u64("instructions"), 400u);
  EXPECT_GE(root.num("cycles"), 100.0);
  EXPECT_LE(root.num("cycles"), 100.0 + 2);
}

// store_request: rfo through the real hierarchy: a store whose data waits
// for a chain of adds has its line requested at dispatch; accesses running
// ahead into the same L1 set (4 ways) evict it before the store queue
// drains it. The drain requests it again (a second write access, a
// refetch) only if the loads (and their prefetches) alone filled the set
// at least its ways' times since:
// the other stores' lines land after it natively (a set's fills arrive in
// order). Into other sets, nothing is fetched again.
struct After {
  uint64_t addr;
  bool write;
};
void rfo_store_then(const std::vector<After>& after, uint64_t refetches, const std::string& l1_line = "") {
  std::string config = yaml(", store_request: rfo, sq_entries: 16", 256);
  if (!l1_line.empty()) {  // another L1 (its config line)
    const size_t a = config.find("  - {name: L1"), b = config.find('\n', a);
    config.replace(a, b - a, l1_line);
  }
  System sys(parse_config(config, "test"));
  const StatsNode root = sys.run(
      [&](EventSink& s) {
        uint32_t seq = 0;
        s.compute(add());  // a chain of 20 adds: the store's data at ~80 cycles
        ++seq;
        for (int k = 1; k < 20; ++k) s.compute(add(seq)), ++seq;
        Access w{0x0, 4, AccessKind::Write, kGlobalSpace, 0, 0};
        w.dep = seq;
        s.access(w);
        ++seq;
        for (const After& x : after) {
          s.access(Access{x.addr, 4, x.write ? AccessKind::Write : AccessKind::Read, kGlobalSpace, 0, 0});
          ++seq;
        }
      },
      RunOptions{});
  EXPECT_EQ(root.find_child("core")->u64("store_refetches"), refetches);
  const StatsNode* l1 = root.find_child("levels")->find_child("L1");
  ASSERT_NE(l1, nullptr);
  uint64_t writes = 1 + refetches;  // the refetch is a write access of its own
  for (const After& x : after) writes += x.write;
  EXPECT_EQ(l1->u64("writes"), writes);
  EXPECT_EQ(l1->u64("reads"), after.size() + 1 - writes + refetches);
}

// 64 KiB, 4 ways, 64 B lines: 256 sets, the store's set every 16 KiB.
std::vector<After> lines(int n, uint64_t apart, bool write, uint64_t from = 1) {
  std::vector<After> v;
  for (int k = 0; k < n; ++k) v.push_back({(from + k) * apart, write});
  return v;
}

TEST(CpuCore, RfoAStoreWhoseLineLoadsEvictedFetchesItAgain) { rfo_store_then(lines(8, 16384, false), 1); }

TEST(CpuCore, RfoAStoreWhoseLineStayedIsNotFetchedAgain) { rfo_store_then(lines(8, 64, false), 0); }

TEST(CpuCore, RfoAStoreWhoseLineOtherStoresEvictedIsNotFetchedAgain) { rfo_store_then(lines(8, 16384, true), 0); }

// A 2 KiB 8-way L1 (4 sets: the store's set every 256 B) with a stride
// prefetcher: seven loads down the set fill it four times, and from the
// fourth (the stride confirmed twice) each prefetches the next line there,
// which the next load hits: 4 demand and 4 prefetch fills, the ways' 8
// (without the prefetches' fills counted: none fetched again).
TEST(CpuCore, RfoThePrefetchesFillsCountWithTheLoads) {
  rfo_store_then(lines(7, 256, false), 1,
                 "  - {name: L1, size: 2 KiB, ways: 8, line: 64 B, latency: 4 cycles, bandwidth: 64 B/cycle, "
                 "mshrs: 16, prefetcher: stride, prefetch_distance: 1, prefetch_degree: 1}");
}

TEST(CpuCore, RfoFewerLoadFillsThanWaysDoNotCountAsTheEviction) {
  std::vector<After> v = lines(3, 16384, false);        // 3 loads' fills: fewer than 4 ways
  for (const After& x : lines(5, 16384, true, 4)) v.push_back(x);  // and 5 stores': the line has gone
  rfo_store_then(v, 0);
}

}  // namespace
}  // namespace ptosim
