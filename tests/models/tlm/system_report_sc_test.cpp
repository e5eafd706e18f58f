// Run-level report figures (flops, DRAM bytes, arithmetic intensity, the
// roofline) of a whole System, and the wiring of a constant memory's private
// cache (configs/gpu-sm.yaml). One System per test: one process per test.
#include <gtest/gtest.h>

#include <cstdio>

#include "models/tlm/system.h"
#include "sim/config/config_loader.h"

namespace ptosim {
namespace {

// 1 GHz, 32 flops/cycle (32 GFLOP/s peak); one write-back L1; a flat DRAM of
// 10 GB/s, so the ridge point is 3.2 flop/byte.
const char* kYaml =
    "name: t\n"
    "clock: 1 GHz\n"
    "core: {flops_per_cycle: 32}\n"
    "caches:\n"
    "  - {name: L1, size: 32 KiB, ways: 8, line: 64 B, latency: 4 cycles, bandwidth: 64 B/cycle}\n"
    "dram: {latency: 100 ns, bandwidth: 10 GB/s}\n";

constexpr double kPeakFlops = 32e9;
constexpr double kPeakDram = 10e9;

// Reads `read_bytes` from address 0, writes `write_bytes` at 1 MiB (write
// allocate: each line is fetched, then written back by the final flush), and
// computes `flops`.
StatsNode run(uint64_t read_bytes, uint64_t write_bytes, uint64_t flops) {
  System sys(parse_config(kYaml, "t"));
  RunOptions opt;
  opt.flush = true;
  return sys.run(
      [&](EventSink& s) {
        s.access(Access{0, read_bytes, AccessKind::Read, kGlobalSpace, 0, 0});
        if (write_bytes) s.access(Access{1 << 20, write_bytes, AccessKind::Write, kGlobalSpace, 0, 0});
        s.compute(Compute{flops, 0, 0});
      },
      opt);
}

void expect_roofline(const StatsNode& root, uint64_t flops, uint64_t dram_bytes) {
  EXPECT_EQ(root.u64("flops"), flops);
  EXPECT_EQ(root.u64("dram_bytes"), dram_bytes);
  const double ai = double(flops) / double(dram_bytes);
  EXPECT_DOUBLE_EQ(root.num("arithmetic_intensity"), ai);
  EXPECT_DOUBLE_EQ(root.num("peak_flops_per_s"), kPeakFlops);
  EXPECT_DOUBLE_EQ(root.num("peak_dram_bandwidth_bytes_per_s"), kPeakDram);
  const double achieved = double(flops) / root.num("seconds");
  EXPECT_DOUBLE_EQ(root.num("gflops_per_s"), achieved / 1e9);
  const StatsNode* roof = root.find_child("roofline");
  ASSERT_NE(roof, nullptr);
  EXPECT_EQ(roof->kind, NodeKind::Roofline);
  const double bound = std::min(kPeakFlops, ai * kPeakDram);
  EXPECT_DOUBLE_EQ(roof->num("bound_flops_per_s"), bound);
  EXPECT_DOUBLE_EQ(roof->num("achieved_fraction"), achieved / bound);
  EXPECT_LE(roof->num("achieved_fraction"), 1.0);  // no run beats its roofline
  std::printf("roofline: AI %.4g flop/B, bound %.4g flop/s (%s), achieved %.2f%%\n", ai, bound,
              std::get<std::string>(*roof->find("bound")).c_str(), 100 * roof->num("achieved_fraction"));
}

TEST(Report, ComputeBoundRun) {
  // 4 KiB read + 4 KiB written (fetched and written back): 12 KiB of DRAM
  // traffic; 10^6 flops: AI 81.4 flop/B, far right of the 3.2 ridge.
  const StatsNode root = run(4096, 4096, 1000000);
  expect_roofline(root, 1000000, 3 * 4096);
  const StatsNode& roof = *root.find_child("roofline");
  EXPECT_EQ(std::get<std::string>(*roof.find("bound")), "compute");
  EXPECT_DOUBLE_EQ(roof.num("bound_flops_per_s"), kPeakFlops);
  // Compute (31250 cycles) hides the 64 + 64 misses: close to the peak.
  EXPECT_GT(roof.num("achieved_fraction"), 0.9);
  // Simple DRAM timing still reports the row-buffer keys (as 0).
  const StatsNode& dram = root.find_child("levels")->children.back();
  for (const char* k : {"row_hits", "row_misses", "row_conflicts"}) {
    ASSERT_NE(dram.find(k), nullptr) << k;
    EXPECT_EQ(dram.u64(k), 0u);
  }
}

TEST(Report, MemoryBoundRun) {
  // 1 MiB read, 1000 flops: AI 1/1049 flop/B, the memory roof is ~9.5 MFLOP/s.
  const StatsNode root = run(1 << 20, 0, 1000);
  expect_roofline(root, 1000, 1 << 20);
  const StatsNode& roof = *root.find_child("roofline");
  EXPECT_EQ(std::get<std::string>(*roof.find("bound")), "memory");
  EXPECT_DOUBLE_EQ(roof.num("bound_flops_per_s"), 1000.0 / (1 << 20) * kPeakDram);
}

TEST(Report, RooflineSitsBetweenCoreAndLevels) {
  const StatsNode root = run(64, 0, 10);
  ASSERT_GE(root.children.size(), 3u);
  EXPECT_EQ(root.children[0].name, "core");
  EXPECT_EQ(root.children[1].name, "roofline");
  EXPECT_EQ(root.children[2].name, "levels");
}

std::string source_dir() { return PTOSIM_SOURCE_DIR "/"; }

TEST(Report, GpuSmConstantCacheIsNotInTheGlobalChain) {
  const HwConfig hw = load_config_file(source_dir() + "configs/gpu-sm.yaml");
  const SpaceId constant = *hw.space_id("constant");
  System sys(hw);
  const StatsNode root = sys.run(
      [&](EventSink& s) { s.access(Access{0x100, 4, AccessKind::Read, constant, 0, 0}); }, RunOptions{});
  const StatsNode& levels = *root.find_child("levels");
  std::vector<std::string> names;
  for (auto& l : levels.children) names.push_back(l.name);
  EXPECT_EQ(names, (std::vector<std::string>{"register", "shared", "constant", "L1", "L2", "HBM2"}));
  EXPECT_EQ(levels.find_child("constant")->kind, NodeKind::Constant);
  EXPECT_EQ(levels.find_child("constant")->u64("cache_misses"), 1u);
  // The miss pays latency 8 cycles + 4 B at 64 B/cycle + the flat 300 ns of
  // DRAM at 1.53 GHz, and none of it goes through L1, L2 or the HBM2 model.
  EXPECT_NEAR(root.num("cycles"), 8 + 4.0 / 64 + 300e-9 * 1.53e9, 1e-6);
  for (const char* n : {"L1", "L2", "HBM2"}) EXPECT_EQ(levels.find_child(n)->u64("reads"), 0u) << n;
  EXPECT_EQ(root.u64("dram_bytes"), 0u);
}

}  // namespace
}  // namespace ptosim
