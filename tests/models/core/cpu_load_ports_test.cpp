// The `cpu` core's load ports (models/core/cpu_pipeline.h): a load takes
// the first cycle at or after its start with a free port, in program order,
// so a register block's loads, dispatched faster than the ports take them,
// queue up cycle by cycle, and a load ready early still takes an earlier
// free cycle than a load before it that waited. Slots::take goes on from
// where the take before stopped; these sequences check it lands where a
// walk from the start would. A 1 GHz core, four dispatched a cycle, with a
// memory that records when each load reaches it: the times are exact.
#include <gtest/gtest.h>

#include <vector>

#include "tests/models/core/cpu_test_core.h"

namespace ptosim {
namespace {

using test::kCycle;

struct Harness : test::CpuTestCore {
  std::vector<uint64_t> at;  // cycles each load reached memory, in program order

  explicit Harness(uint32_t load_ports) {
    core.load_ports = load_ports;
    core.rob_entries = 4096;
    core.lq_entries = 4096;
    start();
  }
  void load(uint32_t seq, uint32_t dep, uint64_t addr) {
    p->load(k, seq, dep, addr, 4, [&](uint64_t t) {
      at.push_back(t / kCycle);
      return t + 4 * kCycle;
    });
  }
};

TEST(CpuLoadPorts, LoadsReadyTogetherTakeTwoPortsACycleInOrder) {
  Harness h(2);
  for (uint32_t j = 0; j < 40; ++j) h.load(j + 1, 0, 64 * j);
  // Dispatched a quarter cycle apart, two a cycle: load j in cycle j / 2.
  std::vector<uint64_t> want;
  for (uint64_t j = 0; j < 40; ++j) want.push_back(j / 2);
  EXPECT_EQ(h.at, want);
}

TEST(CpuLoadPorts, AWalkStepsOverACycleALaterLoadTookEarly) {
  Harness h(1);
  h.value(1, 20);   // dispatched at 0, ready at 20
  h.load(2, 1, 0);  // its address: cycle 20's port
  for (uint32_t i = 0; i < 24; ++i) h.load(3 + i, 0, 64 * (i + 1));
  // Dispatched from 0.5 a quarter cycle apart, one a cycle: load i in cycle
  // i, but cycle 20 is taken, so from there one later.
  std::vector<uint64_t> want{20};
  for (uint64_t i = 0; i < 24; ++i) want.push_back(i < 20 ? i : i + 1);
  EXPECT_EQ(h.at, want);
}

TEST(CpuLoadPorts, ALoadReadyEarlyTakesAFreeCycleBeforeTheQueue) {
  Harness h(1);
  for (uint32_t i = 0; i < 12; ++i) h.load(1 + i, 0, 64 * i);  // cycles 0..11
  h.value(13, 30);                                             // dispatched at 3: ready at 33
  h.load(14, 13, 0x1000);                                      // cycle 33
  h.load(15, 0, 0x2000);                                       // ready at 3.5: the queue's next cycle, 12
  h.load(16, 13, 0x3000);                                      // at 33, which is taken: 34
  h.load(17, 0, 0x4000);                                       // 13
  EXPECT_EQ(h.at, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 33, 12, 34, 13}));
}

}  // namespace
}  // namespace ptosim
