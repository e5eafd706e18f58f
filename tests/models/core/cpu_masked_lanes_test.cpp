// The `cpu` core times a tensor op's compute by the lanes it issues
// (Compute::issued): masked-off lanes of a block narrower than the vector
// take the vector unit as long as working ones, while the core's flops count
// only the work. On a 1 GHz core with 64 B vectors and a float32 peak of 64
// flops a cycle, the times are exact.
#include <gtest/gtest.h>

#include "tests/models/core/cpu_test_core.h"

namespace ptosim {
namespace {

using test::kCycle;

struct Core : test::CpuTestCore {
  Core() {
    core.vector_bytes = 64;
    core.flops_per_cycle = 64;
    start();
  }
  // A matmul step of `flops` work and `masked` idle lanes; returns the vector unit's busy time.
  uint64_t step(uint32_t seq, uint64_t flops, uint32_t masked) {
    Compute c;
    c.flops = flops;
    c.masked = masked;
    c.op_class = uint8_t(OpClass::Fma);
    const uint64_t before = k.compute_fs;
    p->compute(k, seq, c);
    return k.compute_fs - before;
  }
};

TEST(CpuMaskedLanes, HalfEmptyVectorsTakeAsLongAsFullOnes) {
  Core full, half;
  // 16 rows x 16 columns (full), 16 x 8 on 16-lane vectors (half masked): 16 FMAs either way.
  EXPECT_EQ(full.step(1, 512, 0), 8 * kCycle);
  EXPECT_EQ(half.step(1, 256, 256), 8 * kCycle);
  EXPECT_EQ(full.k.flops, 512u);
  EXPECT_EQ(half.k.flops, 256u);
  EXPECT_EQ(half.k.masked_flops, 256u);
  EXPECT_EQ(full.k.masked_flops, 0u);
  // Dispatch: 16 instructions at 4 a cycle either way.
  EXPECT_EQ(full.k.issue_at, half.k.issue_at);
}

}  // namespace
}  // namespace ptosim
