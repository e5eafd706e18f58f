// The `cpu` core's store queue (models/core/cpu_pipeline.h): a store's
// line is requested when the queue drains it — in program order, after it
// retires, one a cycle per store port — not when it dispatches; a load goes
// to memory when it executes, after the stores due by then, and a load that
// reads a waiting store's bytes without forwarding drains that store first.
// Hand-made event sequences on a 1 GHz core with a memory that records each
// request: the times are exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/models/core/cpu_test_core.h"

namespace ptosim {
namespace {

using test::kCycle;

struct Sent {
  std::string what;  // "load ADDR" or "store ID"
  uint64_t at;       // cycles
  bool operator==(const Sent& o) const { return what == o.what && at == o.at; }
};
std::ostream& operator<<(std::ostream& os, const Sent& s) { return os << s.what << " @" << s.at; }

struct Harness : test::CpuTestCore {
  std::vector<Sent> log;
  uint64_t store_latency = 0;  // cycles a store's line takes to arrive

  explicit Harness(uint32_t sq = 8, uint32_t store_ports = 1) {
    core.sq_entries = sq;
    core.store_ports = store_ports;
    core.forward_latency = 5;
    core.store_request = StoreRequest::Drain;
    start();
    p->set_store_writer([this](uint64_t id, uint64_t t) {
      log.push_back({"store " + std::to_string(id), t / kCycle});
      return t + store_latency * kCycle;
    });
  }
  void load(uint32_t seq, uint32_t dep, uint64_t addr, uint64_t bytes = 4) {
    p->load(k, seq, dep, addr, bytes, [&](uint64_t t) {
      log.push_back({"load " + std::to_string(addr), t / kCycle});
      return t + 4 * kCycle;
    });
  }
};

TEST(CpuStoreQueue, AStoreRequestsItsLineWhenItRetiresNotAtDispatch) {
  Harness h;
  h.value(1, 10);                  // its data: ready at cycle 10
  h.p->store(h.k, 2, 1, 0x100, 4, 7);
  EXPECT_TRUE(h.log.empty());      // dispatched at 0, but nothing sent yet
  EXPECT_EQ(h.p->stores_waiting(), 1u);
  h.p->settle();
  // Retires a cycle after its data (11), drains then.
  EXPECT_EQ(h.log, (std::vector<Sent>{{"store 7", 11}}));
  EXPECT_EQ(h.p->drained(), 11 * kCycle);
}

TEST(CpuStoreQueue, StoresDrainInOrderOneACyclePerStorePort) {
  for (uint32_t ports : {1u, 2u}) {
    Harness h(8, ports);
    // Four stores in one dispatch cycle: retired at cycle 1, drained at
    // 1, 2, 3, 4 with one port; 1 (two: half-cycle steps floor to 1, 2, 2, 3).
    for (uint32_t i = 0; i < 4; ++i) h.p->store(h.k, i + 1, 0, 0x1000 + 64 * i, 4, i);
    h.p->settle();
    if (ports == 1)
      EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 1}, {"store 1", 2}, {"store 2", 3}, {"store 3", 4}}));
    else
      EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 1}, {"store 1", 1}, {"store 2", 2}, {"store 3", 2}}));
  }
}

// store_lines_per_cycle: 1 (Zen 4): two ports, but one line a cycle; stores
// to the line of the store before still drain two a cycle.
TEST(CpuStoreQueue, OneLineACycleWithStoreLinesPerCycle) {
  for (bool pairs : {false, true}) {
    SCOPED_TRACE(pairs);
    Harness h(8, 2);
    h.core.store_lines_per_cycle = 1;
    h.p = std::make_unique<CpuPipeline>(h.core, double(kCycle));
    h.p->set_store_writer([&h](uint64_t id, uint64_t t) {
      h.log.push_back({"store " + std::to_string(id), t / kCycle});
      return t;
    });
    // Four stores in one dispatch cycle, retired at cycle 1: to four lines
    // they drain at 1, 2, 3, 4 (one port's pace); two to each of two lines
    // at 1, 1.5, 2, 2.5 (the ports' pace).
    for (uint32_t i = 0; i < 4; ++i) h.p->store(h.k, i + 1, 0, 0x1000 + 64 * (pairs ? i / 2 : i) + 4 * i, 4, i);
    h.p->settle();
    if (pairs)
      EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 1}, {"store 1", 1}, {"store 2", 2}, {"store 3", 2}}));
    else
      EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 1}, {"store 1", 2}, {"store 2", 3}, {"store 3", 4}}));
  }
}

// store_fill_cycles: 3, store_fill_window: 400 (the Emerald Rapids VM's
// figures): a store that turns to another line, one that arrived by a miss
// within the window, drains 3 cycles after the store before; stores along
// one line, and stores to lines that arrived long ago, at the ports' pace.
TEST(CpuStoreQueue, StoresTurningToFreshlyMissedLinesDrainSlower) {
  for (uint32_t fill : {0u, 3u}) {
    SCOPED_TRACE(fill);
    Harness h(16, 2);
    h.core.store_fill_cycles = fill;
    h.core.store_fill_window = 400;
    h.p = std::make_unique<CpuPipeline>(h.core, double(kCycle));
    h.p->set_store_writer([&h](uint64_t id, uint64_t t) {
      h.log.push_back({"store " + std::to_string(id), t / kCycle});
      return t;
    });
    // Lines 0x1000 and 0x1040 arrived by a miss at cycle 0; 0x2000 long before
    // the window (it never missed as far as the clock knows).
    h.p->set_fill_clock([](uint64_t addr) -> uint64_t { return (addr >> 6) == 0x1000 >> 6 || (addr >> 6) == 0x1040 >> 6 ? 1 : 0; });
    const uint64_t addr[] = {0x1000, 0x1040, 0x1000, 0x1004, 0x2000, 0x2040};
    for (uint32_t i = 0; i < 6; ++i) h.p->store(h.k, i + 1, 0, addr[i], 4, i);
    h.p->settle();
    if (fill == 0)  // two ports: two a cycle from cycle 1
      EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 1}, {"store 1", 1}, {"store 2", 2}, {"store 3", 2},
                                          {"store 4", 3}, {"store 5", 3}}));
    else  // 0: a turn to a fresh line (3 after the queue's last drain, at 0), 1 and 2 turns again; 3 along
          // 2's line; 4 and 5 to lines that did not come by a miss
      EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 3}, {"store 1", 6}, {"store 2", 9}, {"store 3", 9},
                                          {"store 4", 10}, {"store 5", 10}}));
    EXPECT_EQ(h.p->stats().fill_stores, fill ? 3u : 0u);
  }
}

TEST(CpuStoreQueue, AFreshlyMissedLineIsOrdinaryOnceTheWindowHasPassed) {
  Harness h(16, 1);
  h.core.store_fill_cycles = 3;
  h.core.store_fill_window = 400;
  h.p = std::make_unique<CpuPipeline>(h.core, double(kCycle));
  h.p->set_store_writer([&h](uint64_t id, uint64_t t) {
    h.log.push_back({"store " + std::to_string(id), t / kCycle});
    return t;
  });
  h.p->set_fill_clock([](uint64_t) -> uint64_t { return 1; });  // every line arrived at fs 1
  h.value(1, 500);                                              // data ready at 500: past the window
  h.p->store(h.k, 2, 1, 0x1000, 4, 0);
  h.p->store(h.k, 3, 1, 0x1040, 4, 1);
  h.p->settle();
  EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 501}, {"store 1", 502}}));
  EXPECT_EQ(h.p->stats().fill_stores, 0u);
}

TEST(CpuStoreQueue, ALoadRunningAheadGoesToMemoryBeforeAStoreNotYetDrained) {
  Harness h;
  h.value(1, 30);
  h.p->store(h.k, 2, 1, 0x100, 4, 0);  // drains at 31
  h.load(3, 0, 0x2000);                // independent: executes at once
  h.load(4, 0, 0x3000);
  EXPECT_EQ(h.log, (std::vector<Sent>{{"load 8192", 0}, {"load 12288", 0}}));
  h.p->settle();
  EXPECT_EQ(h.log.back(), (Sent{"store 0", 31}));
}

TEST(CpuStoreQueue, ALoadAfterAStoreIsDueSeesTheStoreGoFirst) {
  Harness h;
  h.p->store(h.k, 1, 0, 0x100, 4, 0);  // retires at 1, drains at 1
  h.value(2, 20);
  h.load(3, 2, 0x2000);                // its address is ready at 20
  EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 1}, {"load 8192", 20}}));
  EXPECT_EQ(h.p->stores_waiting(), 0u);
}

TEST(CpuStoreQueue, ALoadReadingAWaitingStoresBytesDrainsItFirst) {
  Harness h;
  h.value(1, 30);
  h.p->store(h.k, 2, 1, 0x100, 8, 0);  // 8 bytes at 0x100, drains at 31
  h.p->store(h.k, 3, 1, 0x200, 4, 1);  // drains at 32
  h.load(4, 0, 0x104, 4);              // reads half of store 0: not forwarded
  EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 31}, {"load 260", 0}}));
  EXPECT_EQ(h.p->stores_waiting(), 1u);  // store 1 is not in its way
  EXPECT_EQ(h.p->stats().forwarded, 0u);
}

TEST(CpuStoreQueue, ALoadOfAWaitingStoresAddressIsForwardedWithoutMemory) {
  Harness h;
  h.value(1, 30);
  h.p->store(h.k, 2, 1, 0x100, 4, 0);
  h.load(3, 0, 0x100, 4);
  EXPECT_TRUE(h.log.empty());
  EXPECT_EQ(h.p->stats().forwarded, 1u);
  EXPECT_EQ(h.p->stores_waiting(), 1u);
}

// A vector store (a 64 B line of a packed panel) forwards any narrower load
// inside it, as x86 does: a broadcast of the panel's fifth element right
// after the packing store does not wait for the store's line. A load that
// reaches past the store's end is not forwarded: the store drains first.
TEST(CpuStoreQueue, ALoadInsideAWaitingVectorStoreIsForwarded) {
  Harness h;
  h.value(1, 30);
  h.p->store(h.k, 2, 1, 0x100, 64, 0);
  h.load(3, 0, 0x110, 4);
  EXPECT_TRUE(h.log.empty());
  EXPECT_EQ(h.p->stats().forwarded, 1u);
  h.load(4, 0, 0x13e, 4);  // two bytes past the store
  EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 31}, {"load 318", 0}}));
  EXPECT_EQ(h.p->stats().forwarded, 1u);
}

TEST(CpuStoreQueue, AFullQueueWritesItsOldestBeforeTheNextStoreDispatches) {
  Harness h(2);
  h.store_latency = 50;  // each store's line arrives 50 cycles after its request
  h.p->store(h.k, 1, 0, 0x1000, 4, 0);  // drains at 1, written at 51
  h.p->store(h.k, 2, 0, 0x2000, 4, 1);  // drains at 2, written at 52
  EXPECT_TRUE(h.log.empty());
  h.p->store(h.k, 3, 0, 0x3000, 4, 2);  // takes store 0's entry: free at 51
  EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 1}}));
  EXPECT_EQ(h.p->stats().sq_stall_fs, 50 * kCycle + kCycle / 2);  // it was to dispatch at 0.5
  h.p->settle();
  // Store 2 retires at 52 (51 + a cycle), drains then, written at 102.
  EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 1}, {"store 1", 2}, {"store 2", 52}}));
  EXPECT_EQ(h.p->drained(), 102 * kCycle);
}

// store_request: rfo. Each store's line is requested at dispatch (arriving
// 20 cycles later); the queue still drains in order, and a store whose line
// has left the first level by then (`gone`) asks for it again (30 cycles)
// once the stores before it are written: the younger stores wait for it.
struct RfoHarness : Harness {
  std::vector<uint64_t> gone;  // ids whose line is evicted before they drain
  explicit RfoHarness(uint32_t sq = 8) : Harness(sq) {
    core.store_request = StoreRequest::Rfo;
    start();
    p->set_store_writer([this](uint64_t id, uint64_t t) {
      log.push_back({"store " + std::to_string(id), t / kCycle});
      return t + 20 * kCycle;
    });
    p->set_store_refetcher([this](uint64_t id, uint64_t t) {
      if (std::find(gone.begin(), gone.end(), id) == gone.end()) return CpuPipeline::kLineThere;
      log.push_back({"refetch " + std::to_string(id), t / kCycle});
      return t + 30 * kCycle;
    });
  }
  void three_stores() {  // in one dispatch cycle, one store port: sent at 0, 1, 2
    for (uint32_t i = 0; i < 3; ++i) p->store(k, i + 1, 0, 0x1000 * (i + 1), 4, i);
  }
};

TEST(CpuStoreQueue, RfoRequestsTheLineAtDispatchAndCommitsWhenItArrives) {
  RfoHarness h;
  h.three_stores();
  EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 0}, {"store 1", 1}, {"store 2", 2}}));
  EXPECT_EQ(h.p->stores_waiting(), 3u);
  h.p->settle();
  EXPECT_EQ(h.log.size(), 3u);                // every line stayed: nothing again
  EXPECT_EQ(h.p->drained(), 22 * kCycle);     // the last line's arrival, not delayed
  EXPECT_EQ(h.p->stats().store_refetches, 0u);
}

TEST(CpuStoreQueue, RfoAStoreWhoseLineWasEvictedWaitsForItAndTheYoungerStoresAfterIt) {
  RfoHarness h;
  h.gone = {1};
  h.three_stores();
  h.p->settle();
  // Store 0 is written at 20 (its line's arrival); store 1's line has gone:
  // requested again when the head reaches it (20), there at 50; store 2's
  // line stayed (there at 22) but it commits in order, at 50.
  EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 0}, {"store 1", 1}, {"store 2", 2}, {"refetch 1", 20}}));
  EXPECT_EQ(h.p->drained(), 50 * kCycle);
  EXPECT_EQ(h.p->stats().store_refetches, 1u);
}

TEST(CpuStoreQueue, RfoARefetchHoldsTheQueueEntryUntilTheLineIsBack) {
  RfoHarness h(1);
  h.gone = {0};
  h.p->store(h.k, 1, 0, 0x1000, 4, 0);  // sent at 0, drains at 1: gone, again at 1, back at 31
  h.p->store(h.k, 2, 0, 0x2000, 4, 1);  // the one entry is free at 31: dispatched then
  EXPECT_EQ(h.log, (std::vector<Sent>{{"store 0", 0}, {"refetch 0", 1}, {"store 1", 31}}));
  h.p->settle();
  EXPECT_EQ(h.p->drained(), 51 * kCycle);
}

}  // namespace
}  // namespace ptosim
