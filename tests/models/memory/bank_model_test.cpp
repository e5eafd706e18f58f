// Scratchpad banks: contiguous transfers are conflict-free, strided ones
// serialise on the bank they hit most.
#include <gtest/gtest.h>

#include "models/memory/bank_model.h"

namespace ptosim {
namespace {

TEST(BankModel, ContiguousCostsCeilBytesOverBandwidth) {
  BankModel b(32, 4, 128);
  EXPECT_EQ(b.contiguous(128), 1u);
  EXPECT_EQ(b.contiguous(129), 2u);
  EXPECT_EQ(b.contiguous(4096), 32u);
  EXPECT_EQ(b.contiguous(1), 1u);
  EXPECT_EQ(b.strided(0, 4, 1024, 4).cycles, 32u);
  EXPECT_EQ(b.strided(0, 4, 1024, 4).conflict_cycles, 0u);
}

TEST(BankModel, StrideOfAllBanksCostsBanksTimesConflictFree) {
  BankModel b(32, 4, 128);
  for (uint64_t count : {32u, 64u, 1024u}) {
    const uint64_t free = b.contiguous(count * 4);
    const BankCost c = b.strided(0, 4, count, 32 * 4);
    EXPECT_EQ(c.cycles, 32 * free) << count;
    EXPECT_EQ(c.conflict_cycles, 31 * free) << count;
    EXPECT_EQ(c.conflicted_waves, free) << count;
  }
}

TEST(BankModel, TwoWordStrideIsATwoWayConflict) {
  BankModel b(32, 4, 128);
  const BankCost c = b.strided(0, 4, 32, 8);
  EXPECT_EQ(c.cycles, 2u);
  EXPECT_EQ(c.conflict_cycles, 1u);
}

TEST(BankModel, OddStrideIsConflictFree) {
  BankModel b(32, 4, 128);
  const BankCost c = b.strided(12, 4, 64, 33 * 4);  // 33 is coprime with 32
  EXPECT_EQ(c.cycles, 2u);
  EXPECT_EQ(c.conflict_cycles, 0u);
}

TEST(BankModel, SameWordIsBroadcast) {
  BankModel b(32, 4, 128);
  const BankCost c = b.strided(64, 4, 32, 0);
  EXPECT_EQ(c.cycles, 1u);
  EXPECT_EQ(c.conflict_cycles, 0u);
}

TEST(BankModel, WideElementsSpanBanks) {
  BankModel b(32, 4, 128);
  // 8-byte elements at a 256-byte stride: 16 per wave, all on banks 0 and 1.
  const BankCost c = b.strided(0, 8, 16, 256);
  EXPECT_EQ(c.cycles, 16u);
  EXPECT_EQ(c.conflict_cycles, 15u);
}

TEST(BankModel, UnbankedPortNeverConflicts) {
  BankModel b(1, 4, 64);
  EXPECT_EQ(b.strided(0, 4, 64, 4096).cycles, 4u);
  EXPECT_EQ(b.strided(0, 4, 64, 4096).conflict_cycles, 0u);
}

TEST(BankModel, NonPowerOfTwoBanks) {
  BankModel b(31, 4, 124);
  EXPECT_EQ(b.strided(0, 4, 31, 31 * 4).cycles, 31u);
  EXPECT_EQ(b.strided(0, 4, 31, 32 * 4).cycles, 1u);
}

}  // namespace
}  // namespace ptosim
