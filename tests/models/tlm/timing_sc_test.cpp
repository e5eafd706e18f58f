// Analytical timing checks on the whole system (issue 3): each expectation is
// a closed form of the configured latencies and bandwidths.
#include <gtest/gtest.h>

#include <random>

#include "models/tlm/constant_module.h"
#include "models/tlm/fill_extension.h"
#include "models/tlm/memory_factory.h"
#include "models/tlm/scratchpad_module.h"
#include "models/tlm/stride_extension.h"
#include "models/tlm/system.h"
#include "sim/config/config_loader.h"

namespace ptosim {
namespace {

// 2 GHz core; L1 4 cycles, L2 12 cycles; one DDR4-3200 channel (tCK 0.625 ns,
// 22-22-22 = 13.75 ns, burst of 8 = 2.5 ns = 5 core cycles).
std::string config_yaml(uint32_t max_outstanding, const std::string& extra_dram = "") {
  return "name: t\n"
         "clock: 2 GHz\n"
         "core: {issue_width: 4, max_outstanding: " + std::to_string(max_outstanding) + "}\n"
         "caches:\n"
         "  - {name: L1, size: 32 KiB, ways: 8, line: 64 B, latency: 4 cycles, bandwidth: 64 B/cycle}\n"
         "  - {name: L2, size: 256 KiB, ways: 8, line: 64 B, latency: 12 cycles, bandwidth: 32 B/cycle}\n"
         "dram: {timing: detailed, channels: 1, banks: 16, row_size: 8 KiB, bus_width: 64 bits,\n"
         "       data_rate: 3200 MT/s, burst_length: 8, tCL: 22, tRCD: 22, tRP: 22, tRAS: 52" + extra_dram + "}\n";
}

constexpr double kClock = 2e9;
constexpr double kPath = 4 + 12;                  // L1 + L2 hit latencies, cycles
constexpr double kT = 13.75e-9 * kClock;          // tCL = tRCD = tRP in cycles (27.5)
constexpr double kBurst = 2.5e-9 * kClock;        // 5 cycles
constexpr double kHit = kT + kBurst;              // tCL + burst
constexpr double kMiss = 2 * kT + kBurst;         // tRCD + tCL + burst
constexpr double kConflict = 3 * kT + kBurst;     // tRP + tRCD + tCL + burst
constexpr double kPeak = 25.6e9;                  // bytes / s

const StatsNode& level(const StatsNode& root, const std::string& name) {
  const StatsNode* levels = root.find_child("levels");
  EXPECT_NE(levels, nullptr);
  const StatsNode* n = levels ? levels->find_child(name) : nullptr;
  EXPECT_NE(n, nullptr) << name;
  static const StatsNode empty;
  return n ? *n : empty;
}

StatsNode run_reads(const std::string& yaml, const std::vector<uint64_t>& addrs, uint64_t bytes = 64) {
  System sys(parse_config(yaml, "test"));
  return sys.run(
      [&](EventSink& s) {
        for (uint64_t a : addrs) s.access(Access{a, bytes, AccessKind::Read, kGlobalSpace, 0, 0});
      },
      RunOptions{});
}

std::vector<uint64_t> sequential(uint64_t lines, uint64_t base = 0) {
  std::vector<uint64_t> v(lines);
  for (uint64_t i = 0; i < lines; ++i) v[i] = base + i * 64;
  return v;
}

TEST(Timing, UnloadedDramLatencyMatchesTheFormula) {
  // Row miss (bank idle), row hit (same row), row conflict (bank 0, row 1).
  const StatsNode root = run_reads(config_yaml(1), {0, 64, 1 << 17});
  const double expected = (kPath + kMiss) + (kPath + kHit) + (kPath + kConflict);
  EXPECT_NEAR(root.num("cycles"), expected, 1e-3);
  const StatsNode& d = level(root, "DRAM");
  EXPECT_EQ(d.u64("row_misses"), 1u);
  EXPECT_EQ(d.u64("row_hits"), 1u);
  EXPECT_EQ(d.u64("row_conflicts"), 1u);
  EXPECT_NEAR(d.num("avg_latency_cycles"), (kMiss + kHit + kConflict) / 3, 1e-3);
  EXPECT_DOUBLE_EQ(d.num("peak_bandwidth_bytes_per_s"), kPeak);
}

TEST(Timing, SequentialStreamReachesNinetyPercentOfPeak) {
  const uint64_t lines = (32ull << 20) / 64;
  const StatsNode root = run_reads(config_yaml(16), sequential(lines));
  const StatsNode& d = level(root, "DRAM");
  const double fraction = d.num("bandwidth_bytes_per_s") / d.num("peak_bandwidth_bytes_per_s");
  RecordProperty("dram_fraction_of_peak", std::to_string(fraction));
  std::printf("sequential: %.1f%% of peak, utilization %.3f, hits %llu misses %llu conflicts %llu\n", 100 * fraction,
              d.num("utilization"), (unsigned long long)d.u64("row_hits"), (unsigned long long)d.u64("row_misses"),
              (unsigned long long)d.u64("row_conflicts"));
  EXPECT_GE(fraction, 0.90);
  const StatsNode* channels = d.find_child("channels");
  ASSERT_NE(channels, nullptr);
  ASSERT_EQ(channels->children.size(), 1u);
  EXPECT_EQ(channels->children[0].u64("bytes"), lines * 64);
  EXPECT_EQ(channels->children[0].u64("row_hits"), d.u64("row_hits"));
}

TEST(Timing, RandomLineStreamLosesBandwidthToRowConflicts) {
  const uint64_t n = 200000;
  std::mt19937_64 rng(11);
  std::vector<uint64_t> addrs(n);
  for (auto& a : addrs) a = (rng() % (1ull << 24)) * 64;  // 1 GiB range
  const StatsNode root = run_reads(config_yaml(16), addrs);
  const StatsNode& d = level(root, "DRAM");
  const double fraction = d.num("bandwidth_bytes_per_s") / kPeak;
  const double requests = double(d.u64("reads"));
  const double conflicts = double(d.u64("row_conflicts"));
  std::printf("random: %.1f%% of peak, %.0f requests, %.0f conflicts, avg latency %.1f cycles\n", 100 * fraction,
              requests, conflicts, d.num("avg_latency_cycles"));
  EXPECT_GT(conflicts, 0.95 * requests);
  EXPECT_LT(fraction, 0.75);
  // Why: each conflict costs tRP + tRCD + tCL before its burst, and 16 misses
  // in flight cover at most 16 of them at a time (Little's law).
  const double seconds = root.num("seconds");
  const double latency_bound = requests / 16 * (kPath + kConflict) / kClock;
  EXPECT_GE(seconds, 0.98 * latency_bound);
}

TEST(Timing, OneOutstandingMissExposesEveryLatency) {
  const uint64_t n = 20000;
  const StatsNode root = run_reads(config_yaml(1), sequential(n));
  const StatsNode& d = level(root, "DRAM");
  const double hits = double(d.u64("row_hits")), misses = double(d.u64("row_misses")),
               conflicts = double(d.u64("row_conflicts"));
  ASSERT_EQ(hits + misses + conflicts, double(n));
  const double exact = double(n) * kPath + hits * kHit + misses * kMiss + conflicts * kConflict;
  const double cycles = root.num("cycles");
  std::printf("mlp1: %.1f cycles, exact %.1f, N x (L1+L2+tCL+burst) %.1f\n", cycles, exact, n * (kPath + kHit));
  EXPECT_NEAR(cycles / exact, 1.0, 0.02);
  EXPECT_NEAR(cycles / (double(n) * (kPath + kHit)), 1.0, 0.02);
}

TEST(Timing, SixteenOutstandingMissesAreBandwidthBound) {
  const uint64_t n = 20000;
  const StatsNode root = run_reads(config_yaml(16), sequential(n));
  const double bound = double(n) * 64 / kPeak * kClock;  // cycles at peak DRAM bandwidth
  std::printf("mlp16: %.1f cycles, bandwidth bound %.1f\n", root.num("cycles"), bound);
  EXPECT_GE(root.num("cycles"), bound);
  EXPECT_LT(root.num("cycles"), 1.10 * bound);
  EXPECT_GT(level(root, "DRAM").num("utilization"), 0.9);
}

TEST(Timing, L1ResidentLoopRunsAtL1PortBandwidth) {
  const uint64_t footprint = 16 << 10, passes = 200;
  System sys(parse_config(config_yaml(16), "test"));
  const StatsNode root = sys.run(
      [&](EventSink& s) {
        for (uint64_t p = 0; p < passes; ++p)
          for (uint64_t a = 0; a < footprint; a += 64) s.access(Access{a, 64, AccessKind::Read, kGlobalSpace, 0, 0});
      },
      RunOptions{});
  const StatsNode& l1 = level(root, "L1");
  const double cycles = root.num("cycles");
  const double bytes_per_cycle = double(footprint * passes) / cycles;
  std::printf("L1 loop: %.2f B/cycle (port 64), utilization %.3f\n", bytes_per_cycle, l1.num("utilization"));
  EXPECT_NEAR(bytes_per_cycle, 64.0, 64.0 * 0.03);
  EXPECT_EQ(l1.u64("read_misses"), footprint / 64);
}

// A scratchpad and constant memory are driven directly: b_transport never waits.
// BusyPort keeps a per-byte time in whole femtoseconds (500 ps / 128 B rounds),
// hence the 0.01-cycle tolerances.
constexpr double kTol = 0.01;
struct Payload {
  tlm::tlm_generic_payload t;
  StrideExtension stride;
  FillExtension fill;
  Payload() {
    t.set_extension(&stride);
    t.set_extension(&fill);
  }
  ~Payload() {
    t.clear_extension(&stride);
    t.clear_extension(&fill);
  }
  tlm::tlm_generic_payload& set(uint64_t addr, uint64_t bytes, bool write) {
    t.set_address(addr);
    t.set_data_length(unsigned(bytes));
    t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    return t;
  }
};

double cycles_of(tlm::tlm_fw_transport_if<>& m, tlm::tlm_generic_payload& t, double at_cycles = 0) {
  sc_core::sc_time d(at_cycles / kClock, sc_core::SC_SEC);
  m.b_transport(t, d);
  return d.to_seconds() * kClock - at_cycles;
}

TEST(Timing, ScratchpadStrideOfAllBanksCostsBanksTimesConflictFree) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
  MemoryConfig m;
  m.name = "shared";
  m.latency = 20;
  m.bandwidth = 128;
  m.banks = 32;
  m.bank_width = 4;
  ScratchpadModule sp("shared", m, kClock);
  Payload p;
  const uint64_t bytes = 4096;  // 1024 floats: 32 cycles at 128 B/cycle
  const double contiguous = cycles_of(sp, p.set(0, bytes, false)) - 20;
  EXPECT_NEAR(contiguous, 32, kTol);
  p.stride.elem_bytes = 4;
  p.stride.stride_bytes = 32 * 4;
  const double start = 1000;  // after the first transfer has left the port
  const double strided = cycles_of(sp, p.set(0, bytes, false), start) - 20;
  EXPECT_NEAR(strided / contiguous, 32, 1e-3);
  EXPECT_EQ(sp.conflict_cycles(), 31u * 32u);
  EXPECT_EQ(sp.bank_conflicts(), 32u);
  StatsNode levels{"levels", NodeKind::List, {}, {}};
  sp.report(levels, TagNames{}, 1e-6);
  EXPECT_EQ(levels.children[0].u64("conflict_cycles"), 31u * 32u);
  EXPECT_EQ(levels.children[0].u64("bank_conflicts"), 32u);
}

TEST(Timing, ConstantMemoryRefusesWritesAcceptsFillsAndBroadcasts) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
  HwConfig hw = parse_config("memories: [{name: constant, latency: 4 cycles, bandwidth: 64 B/cycle}]\n" +
                                  config_yaml(16), "test");
  const MemoryConfig* m = hw.memory("constant");
  ASSERT_NE(m, nullptr);
  std::unique_ptr<MemoryModule> mod = make_memory_module(*m, hw);
  ASSERT_NE(dynamic_cast<ConstantModule*>(mod.get()), nullptr);
  auto& c = static_cast<ConstantModule&>(*mod);
  Payload p;
  cycles_of(c, p.set(0x100, 4, true));
  EXPECT_EQ(p.t.get_response_status(), tlm::TLM_COMMAND_ERROR_RESPONSE);
  p.fill.fill = true;
  cycles_of(c, p.set(0, 256, true));
  EXPECT_EQ(p.t.get_response_status(), tlm::TLM_OK_RESPONSE);
  p.fill.fill = false;
  // Eight lanes read one address: one port transfer, seven broadcasts, all
  // done when the first is (latency 4 cycles + 4 B at 64 B/cycle).
  const double at = 100;
  const double first = cycles_of(c, p.set(0x40, 4, false), at);
  EXPECT_NEAR(first, 4 + 4.0 / 64, kTol);
  for (int lane = 1; lane < 8; ++lane) EXPECT_NEAR(cycles_of(c, p.set(0x40, 4, false), at + lane * 0.25), first - lane * 0.25, kTol);
  EXPECT_EQ(c.broadcasts(), 7u);
  StatsNode levels{"levels", NodeKind::List, {}, {}};
  c.report(levels, TagNames{}, 1e-6);
  const StatsNode& n = levels.children[0];
  EXPECT_EQ(n.kind, NodeKind::Constant);
  EXPECT_EQ(n.u64("broadcasts"), 7u);
  EXPECT_EQ(n.u64("fills"), 1u);
  EXPECT_EQ(n.u64("fill_bytes"), 256u);
  EXPECT_EQ(n.u64("reads"), 8u);
}

TEST(Timing, ConstantMemoryBackedByACacheMissesToDram) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
  HwConfig hw = parse_config(config_yaml(16) +
                                 "memories:\n  - {name: constant, size: 64 KiB, latency: 4 cycles, bandwidth: 64 B/cycle,"
                                 " backing: L1}\n",
                             "test");
  std::unique_ptr<MemoryModule> mod = make_memory_module(*hw.memory("constant"), hw);
  auto& c = static_cast<ConstantModule&>(*mod);
  ASSERT_NE(c.cache(), nullptr);
  Payload p;
  const double dram = kMiss;  // detailed DRAM: the unloaded row-miss latency
  EXPECT_NEAR(cycles_of(c, p.set(0, 4, false), 0), 4 + 4.0 / 64 + dram, kTol);
  EXPECT_NEAR(cycles_of(c, p.set(4, 4, false), 1000), 4 + 4.0 / 64, kTol);      // same line: hit
  EXPECT_NEAR(cycles_of(c, p.set(64, 4, false), 2000), 4 + 4.0 / 64 + dram, kTol);  // next line: miss
  StatsNode levels{"levels", NodeKind::List, {}, {}};
  c.report(levels, TagNames{}, 1e-6);
  const StatsNode& n = levels.children[0];
  EXPECT_EQ(n.u64("cache_hits"), 1u);
  EXPECT_EQ(n.u64("cache_misses"), 2u);
  EXPECT_EQ(n.u64("backing_reads"), 2u);
  EXPECT_EQ(n.u64("backing_bytes"), 128u);
}

}  // namespace
}  // namespace ptosim
