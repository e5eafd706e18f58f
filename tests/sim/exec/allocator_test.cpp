// The allocator's pools per core inside pto.parallel (allocator.h,
// docs/EXEC.md "Buffers per core"): a range freed by one core's iteration
// is reused by that core only, the pools return at the end of the loop, a
// bounded space full but for other cores' pools still serves, and with one
// core nothing changes.
#include <gtest/gtest.h>

#include "sim/exec/allocator.h"
#include "sim/exec/dtype.h"

using namespace ptosim;
using namespace ptosim::exec;

namespace {

// What the executor does for `iterations` iterations of a parallel loop on
// `cores` cores, each allocating a 256 B result and freeing it: the result's address per iteration.
std::vector<uint64_t> loop(SpaceAllocator& a, uint32_t cores, int iterations) {
  std::vector<uint64_t> at;
  a.begin_core_pools(cores);
  for (int i = 0; i < iterations; ++i) {
    a.set_core(CoreId(i % cores));
    const uint64_t x = a.allocate(256, "out");
    at.push_back(x);
    a.release(x);
  }
  a.set_core(0);
  a.end_core_pools();
  return at;
}

TEST(CorePools, EachCoreReusesOnlyWhatItFreed) {
  SpaceAllocator a("global", 0, 0x1000, 0, 64);
  const std::vector<uint64_t> at = loop(a, 4, 12);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(at[i] == at[j], i == j) << i << " " << j;  // four distinct buffers
  for (int i = 4; i < 12; ++i) EXPECT_EQ(at[i], at[i % 4]) << i;  // each core's again
  // After the loop the four ranges are free again: the next allocation is at the bottom.
  EXPECT_EQ(a.allocate(1024, "after"), 0x1000u);
  EXPECT_EQ(a.in_use(), 1024u);
}

// A loop variable's tensor is freed when the next iteration rebinds it,
// during another core's iteration: it goes back to the core that allocated it.
TEST(CorePools, ARangeGoesBackToTheCoreThatAllocatedIt) {
  SpaceAllocator a("global", 0, 0x1000, 0, 64);
  a.begin_core_pools(2);
  std::vector<uint64_t> at;
  uint64_t previous = 0;
  for (int i = 0; i < 6; ++i) {
    a.set_core(CoreId(i % 2));
    const uint64_t x = a.allocate(256, "out");
    if (previous) a.release(previous);  // the previous iteration's result, freed now
    previous = x;
    at.push_back(x);
  }
  for (int i = 2; i < 6; ++i) EXPECT_EQ(at[i], at[i - 2]) << i;  // each core's own buffer again
  EXPECT_NE(at[0], at[1]);
  a.end_core_pools();
}

TEST(CorePools, OneCoreIsTheSharedFreeList) {
  SpaceAllocator a("global", 0, 0x1000, 0, 64);
  const std::vector<uint64_t> at = loop(a, 1, 6);
  for (uint64_t x : at) EXPECT_EQ(x, 0x1000u);  // one buffer, as without pto.parallel
}

TEST(CorePools, ABoundedSpaceFullButForOtherCoresPoolsStillServes) {
  SpaceAllocator a("shared", 1, 0x1000, 512, 64);  // room for two 256 B results
  a.begin_core_pools(4);
  a.set_core(0);
  a.release(a.allocate(256, "a"));
  a.set_core(1);
  a.release(a.allocate(256, "b"));
  a.set_core(2);
  const uint64_t c = a.allocate(512, "c");  // only if the pools of cores 0 and 1 give their ranges back
  EXPECT_EQ(c, 0x1000u);
  a.end_core_pools();
}

TEST(CorePools, NestedLoopsKeepThePoolsToTheOutermostEnd) {
  SpaceAllocator a("global", 0, 0x1000, 0, 64);
  a.begin_core_pools(2);
  a.set_core(1);
  const uint64_t x = a.allocate(256, "x");
  a.release(x);
  a.begin_core_pools(2);
  a.end_core_pools();  // the inner loop ends: core 1 still keeps x's range
  a.set_core(0);
  EXPECT_NE(a.allocate(256, "y"), x);
  a.end_core_pools();
}

}  // namespace
