// DetailedDram against the closed-form timings it implements (docs/TIMING.md).
#include <gtest/gtest.h>

#include <random>

#include "models/dram/detailed_dram.h"
#include "sim/config/config_loader.h"

namespace ptosim {
namespace {

// DDR4-3200, one 64-bit channel: tCK 0.625 ns, 22-22-22, tRAS 52 clocks.
DramConfig ddr4(uint32_t channels = 1, const std::string& mapping = "ro-ba-ra-ch-co") {
  DramConfig c;
  c.timing = "detailed";
  c.channels = channels;
  c.ranks = 1;
  c.banks = 16;
  c.row_size = 8192;
  c.bus_width = 64;
  c.data_rate = 3200e6;
  c.burst_length = 8;
  c.tCL = c.tRCD = c.tRP = 13.75;
  c.tRAS = 32.5;
  c.mapping = mapping;
  return c;
}

constexpr double ns = 1e-9;
// The model keeps time in Fs; these tests state its formulas in seconds.
double at(DramTiming& d, double arrive_s, uint64_t addr, uint64_t bytes, bool write) {
  return fs_to_seconds(d.access(fs_from_seconds(arrive_s), addr, bytes, write));
}
constexpr double kBurst = 8 / 3200e6;  // 2.5 ns

TEST(DramAddressMap, DefaultMappingSlicesBits) {
  DramConfig c = ddr4();
  DramAddressMap m(c, 64);
  // [5:0] offset, [12:6] column, [16:13] bank, [63:17] row.
  const uint64_t addr = (uint64_t(0x1234) << 17) | (uint64_t(5) << 13) | (uint64_t(99) << 6) | 17;
  DramCoord d = m.decode(addr);
  EXPECT_EQ(d.row, 0x1234u);
  EXPECT_EQ(d.bank, 5u);
  EXPECT_EQ(d.column, 99u);
  EXPECT_EQ(d.channel, 0u);
  EXPECT_EQ(d.rank, 0u);
  EXPECT_EQ(m.describe(), "[5:0] burst offset, [12:6] co, (no bits) ch, (no bits) ra, [16:13] ba, [63:17] ro");
}

TEST(DramAddressMap, ChannelBelowColumnInterleavesBursts) {
  DramConfig c = ddr4(2, "ro-ba-ra-co-ch");
  DramAddressMap m(c, 64);
  EXPECT_EQ(m.decode(0).channel, 0u);
  EXPECT_EQ(m.decode(64).channel, 1u);
  EXPECT_EQ(m.decode(128).channel, 0u);
  EXPECT_EQ(m.decode(128).column, 1u);
  EXPECT_EQ(m.decode(63).channel, 0u);  // the burst offset never splits
}

TEST(DramAddressMap, InnerRowFieldHasSixteenBits) {
  DramConfig c = ddr4(2, "ch-ro-ba-ra-co");
  DramAddressMap m(c, 64);
  const uint64_t channel_bit = uint64_t(1) << (13 + 4 + 16);
  EXPECT_EQ(m.decode(channel_bit - 1).channel, 0u);
  EXPECT_EQ(m.decode(channel_bit - 1).row, 0xffffu);
  EXPECT_EQ(m.decode(channel_bit).channel, 1u);
  EXPECT_EQ(m.decode(channel_bit).row, 0u);
}

TEST(DramAddressMap, RowSmallerThanBurstIsAnError) {
  DramConfig c = ddr4();
  c.row_size = 32;
  EXPECT_THROW(DramAddressMap(c, 64), InputError);
}

TEST(DetailedDram, PeakBandwidthIsChannelsTimesBusTimesRate) {
  EXPECT_DOUBLE_EQ(DetailedDram(ddr4(1)).peak_bandwidth(), 25.6e9);
  EXPECT_DOUBLE_EQ(DetailedDram(ddr4(4)).peak_bandwidth(), 4 * 25.6e9);
  EXPECT_DOUBLE_EQ(ddr4(4).peak_bandwidth(), 4 * 25.6e9);
}

TEST(DetailedDram, UnloadedLatenciesMatchTheFormulas) {
  DetailedDram d(ddr4());
  const double miss = (13.75 + 13.75) * ns + kBurst;            // tRCD + tCL + burst
  const double hit = 13.75 * ns + kBurst;                       // tCL + burst
  const double conflict = (13.75 * 3) * ns + kBurst;            // tRP + tRCD + tCL + burst
  EXPECT_NEAR(at(d, 0, 0, 64, false), miss, 1e-15);
  double t = 1e-6;
  EXPECT_NEAR(at(d, t, 64, 64, false) - t, hit, 1e-15);            // same row
  t = 2e-6;
  EXPECT_NEAR(at(d, t, 1 << 17, 64, false) - t, conflict, 1e-15);  // bank 0, row 1
  t = 3e-6;
  EXPECT_NEAR(at(d, t, 1 << 13, 64, true) - t, miss, 1e-15);       // bank 1 idle; writes alike
  const DramChannelStats s = d.totals();
  EXPECT_EQ(s.row_hits, 1u);
  EXPECT_EQ(s.row_misses, 2u);
  EXPECT_EQ(s.row_conflicts, 1u);
  EXPECT_EQ(s.bytes, 256u);
}

TEST(DetailedDram, ConflictWaitsForTRasSinceActivate) {
  DetailedDram d(ddr4());
  at(d, 0, 0, 64, false);  // ACT at 0
  // Arrives at 1 ns: precharge cannot start before tRAS = 32.5 ns.
  const double done = at(d, 1 * ns, 1 << 17, 64, false);
  EXPECT_NEAR(done, (32.5 + 13.75 * 3) * ns + kBurst, 1e-15);
}

TEST(DetailedDram, LargeRequestIsSplitIntoBursts) {
  DetailedDram d(ddr4());
  EXPECT_NEAR(at(d, 0, 0, 256, false), 27.5 * ns + 4 * kBurst, 1e-15);
  EXPECT_EQ(d.totals().bursts, 4u);
  EXPECT_EQ(d.totals().row_misses, 1u);
  EXPECT_EQ(d.totals().row_hits, 3u);
}

TEST(DetailedDram, ClosedPageMakesEveryRequestAMiss) {
  DramConfig c = ddr4();
  c.page_policy = PagePolicy::Closed;
  DetailedDram d(c);
  const double miss = 27.5 * ns + kBurst;
  EXPECT_NEAR(at(d, 0, 0, 64, false), miss, 1e-15);
  EXPECT_NEAR(at(d, 1e-6, 64, 64, false) - 1e-6, miss, 1e-15);         // same row: closed anyway
  EXPECT_NEAR(at(d, 2e-6, 1 << 17, 64, false) - 2e-6, miss, 1e-15);    // other row: no tRP exposed
  EXPECT_EQ(d.totals().row_misses, 3u);
  EXPECT_EQ(d.totals().row_conflicts, 0u);
  // Back to back to one bank: the auto-precharge (after tRAS) is exposed.
  DetailedDram e(c);
  at(e, 0, 0, 64, false);
  EXPECT_NEAR(at(e, 0, 64, 64, false), (32.5 + 13.75) * ns + miss, 1e-15);
}

TEST(DetailedDram, SequentialStreamReachesPeak) {
  DetailedDram d(ddr4());
  const uint64_t bytes = 64ull << 20;
  double done = 0;
  for (uint64_t a = 0; a < bytes; a += 64) done = std::max(done, at(d, 0, a, 64, false));
  const double achieved = double(bytes) / done;
  EXPECT_GT(achieved, 0.99 * d.peak_bandwidth());
  EXPECT_NEAR(fs_to_seconds(d.busy()) / done, achieved / d.peak_bandwidth(), 1e-9);
  const DramChannelStats s = d.totals();
  EXPECT_EQ(s.row_hits + s.row_misses + s.row_conflicts, bytes / 64);
  EXPECT_EQ(s.row_misses + s.row_conflicts, bytes / 8192);  // one activate per row
}

TEST(DetailedDram, RandomLinesConflictAndLoseBandwidth) {
  DetailedDram d(ddr4());
  std::mt19937_64 rng(7);
  const uint64_t n = 100000;
  double done = 0;
  for (uint64_t i = 0; i < n; ++i) done = std::max(done, at(d, 0, (rng() % (1ull << 24)) * 64, 64, false));
  const DramChannelStats s = d.totals();
  EXPECT_GT(double(s.row_conflicts), 0.99 * double(n));
  // Every conflict holds its bank for at least tRP + tRCD + tCL of the one
  // channel's 16 banks, and bursts leave in arrival order: far from peak.
  const double bank_bound = double(s.row_conflicts) * (13.75 * 3) * ns / 16;
  EXPECT_GE(done, bank_bound);
  EXPECT_LT(double(n * 64) / done, 0.5 * d.peak_bandwidth());
}

TEST(DetailedDram, ChannelsServeInParallel) {
  DetailedDram d(ddr4(2, "ro-ba-ra-co-ch"));
  const uint64_t bytes = 16ull << 20;
  double done = 0;
  for (uint64_t a = 0; a < bytes; a += 64) done = std::max(done, at(d, 0, a, 64, false));
  EXPECT_GT(double(bytes) / done, 0.99 * d.peak_bandwidth());
  ASSERT_EQ(d.channels().size(), 2u);
  EXPECT_EQ(d.channels()[0].bytes, bytes / 2);
  EXPECT_EQ(d.channels()[1].bytes, bytes / 2);
  StatsNode n{"DRAM", NodeKind::Dram, {}, {}};
  d.report(n, done);
  EXPECT_EQ(n.u64("row_hits") + n.u64("row_misses") + n.u64("row_conflicts"), bytes / 64);
  const StatsNode* table = n.find_child("channels");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->kind, NodeKind::Table);
  ASSERT_EQ(table->children.size(), 2u);
  EXPECT_EQ(table->children[1].name, "ch1");
  EXPECT_EQ(table->children[1].u64("bytes"), bytes / 2);
  EXPECT_GT(table->children[1].num("utilization"), 0.99);
}

TEST(DetailedDram, RefreshClosesRowsAndBlocksTheRank) {
  DramConfig c = ddr4();
  c.tREFI = 7800;
  c.tRFC = 350;
  DetailedDram d(c);
  at(d, 0, 0, 64, false);
  // Arrives 10 ns into the refresh at tREFI: waits for its end, then the row is closed.
  const double t = 7810 * ns;
  EXPECT_NEAR(at(d, t, 64, 64, false), (7800 + 350) * ns + 27.5 * ns + kBurst, 1e-12);
  EXPECT_EQ(d.totals().refreshes, 1u);
  EXPECT_EQ(d.totals().row_misses, 2u);
  // Long after: every elapsed refresh is counted, and an access between refreshes does not wait.
  const double later = 10 * 7800 * ns + 1000 * ns;
  EXPECT_NEAR(at(d, later, 64, 64, false) - later, 27.5 * ns + kBurst, 1e-12);
  EXPECT_EQ(d.totals().refreshes, 10u);
}

TEST(DetailedDram, RefreshCostsAboutTRfcOverTRefiOfAStream) {
  DramConfig c = ddr4();
  c.tREFI = 7800;
  c.tRFC = 350;
  DetailedDram d(c);
  const uint64_t bytes = 64ull << 20;
  double done = 0;
  for (uint64_t a = 0; a < bytes; a += 64) done = std::max(done, at(d, 0, a, 64, false));
  const double ratio = double(bytes) / done / d.peak_bandwidth();
  EXPECT_GT(ratio, 0.93);
  EXPECT_LT(ratio, 0.97);  // 1 - 350/7800 = 0.955
}

TEST(DetailedDram, DefaultConfigIsDetailedDdr4) {
  const HwConfig c = default_config();
  ASSERT_EQ(c.dram.timing, "detailed");
  std::unique_ptr<DramTiming> t = make_dram_timing(c.dram);
  EXPECT_DOUBLE_EQ(t->peak_bandwidth(), 25.6e9);
  EXPECT_NEAR(c.dram.tCL, 13.75, 1e-9);
  EXPECT_NEAR(c.dram.tREFI, 7800, 1e-9);
  EXPECT_NEAR(at(*t, 0, 0, 64, false), (13.75 + 13.75 + 2.5) * ns, 1e-15);
  // The round trip through `config show` keeps it.
  EXPECT_EQ(parse_config(to_yaml(c), "shown").dram.mapping, "ro-ba-ra-ch-co");
}

}  // namespace
}  // namespace ptosim
