// `pto-sim config host` on hand-made machine facts: the config it writes is
// a config, with the vendor's prefetchers per level (L1D stride, L2 stream,
// none below) and the L1D's fill spacing, measured when the column walk
// shows it, else the vendor's figure.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "sim/config/config_loader.h"
#include "sim/config/host_config.h"

namespace ptosim {
namespace {

HostFacts facts(const std::string& vendor) {
  HostFacts f;
  f.model = "test CPU";
  f.vendor = vendor;
  f.mhz = 3700;
  f.avx2 = true;
  f.cpus = 2;
  auto level = [](int l, uint64_t size, uint32_t ways) {
    HostCache c;
    c.level = l;
    c.type = l == 1 ? "Data" : "Unified";
    c.size = size;
    c.ways = ways;
    c.line = 64;
    c.shared_cpus = "0";
    return c;
  };
  f.caches = {level(1, 32 << 10, 8), level(2, 1 << 20, 8), level(3, 32 << 20, 16)};
  return f;
}

HwConfig written(const HostFacts& f, const HostMeasured& m = {}) {
  return parse_config(host_config_yaml(f, m), "<host>");
}

TEST(HostConfig, AmdGetsL1StrideL2StreamAndTheL1FillSpacing) {
  const HwConfig c = written(facts("AuthenticAMD"));
  ASSERT_EQ(c.caches.size(), 3u);
  EXPECT_EQ(c.caches[0].prefetch.name, "stride");
  EXPECT_EQ(c.caches[0].prefetch.distance, 4u);
  EXPECT_EQ(c.caches[0].prefetch.degree, 2u);
  EXPECT_EQ(c.caches[1].prefetch.name, "stream");
  EXPECT_EQ(c.caches[1].prefetch.distance, 16u);
  EXPECT_EQ(c.caches[1].prefetch.degree, 4u);
  EXPECT_EQ(c.caches[2].prefetch.name, "none");
  EXPECT_EQ(c.caches[0].prefetch.page, 4096u);  // prefetches stop at a page
  EXPECT_EQ(c.caches[1].prefetch.page, 4096u);
  EXPECT_EQ(c.caches[0].set_fill_cycles, 11u);
  EXPECT_EQ(c.caches[1].set_fill_cycles, 0u);
  EXPECT_EQ(c.caches[0].replacement, "plru");  // measured on a Zen 4 (host_config.cpp)
  EXPECT_EQ(c.caches[1].replacement, "lru");
  EXPECT_EQ(c.core.model, "cpu");
  // What bench/fidelity's calibration measured against: without it a run
  // on `config host`'s output predicts with stores sent at dispatch only.
  EXPECT_EQ(c.core.store_request, StoreRequest::Rfo);
  EXPECT_EQ(c.core.store_lines_per_cycle, 1u);  // measured on a Zen 4 (host_config.cpp)
}

// The register file is the ISA's architectural vector registers, which bound
// the lowering's micro-kernel as they bound a compiled one's: 16 ymm on an
// AVX2 host (a 6 x 2 block: 12 accumulators, 2 of B, 1 broadcast), 32 zmm
// with AVX-512, 16 xmm with SSE only.
TEST(HostConfig, TheRegisterFileIsTheArchitecturalVectorRegisters) {
  auto reg_bytes = [](const HwConfig& c) {
    for (const auto& m : c.memories)
      if (m.kind == MemoryKind::Register) return m.size;
    return uint64_t(0);
  };
  HostFacts f = facts("AuthenticAMD");
  EXPECT_EQ(reg_bytes(written(f)), 16u * 32u);
  f.avx512 = true;
  EXPECT_EQ(reg_bytes(written(f)), 32u * 64u);
  f.avx512 = f.avx2 = false;
  EXPECT_EQ(reg_bytes(written(f)), 16u * 16u);
}

TEST(HostConfig, IntelGetsTheStreamerAndNoFillSpacing) {
  const HwConfig c = written(facts("GenuineIntel"));
  EXPECT_EQ(c.caches[0].prefetch.name, "stride");
  EXPECT_EQ(c.caches[1].prefetch.name, "stream");
  EXPECT_EQ(c.caches[1].prefetch.distance, 20u);
  EXPECT_EQ(c.caches[1].prefetch.table, 32u);
  EXPECT_EQ(c.caches[1].prefetch.page, 4096u);
  EXPECT_EQ(c.core.store_lines_per_cycle, 0u);  // not measured on Intel
  EXPECT_EQ(c.core.store_request, StoreRequest::Drain);  // nor the early fetch
  EXPECT_EQ(c.caches[0].set_fill_cycles, 0u);
  EXPECT_EQ(c.caches[0].replacement, "lru");
}

HostMeasured measured(double one_set_ns, double spread_ns) {
  HostMeasured m;
  m.valid = true;
  m.clock_hz = 4e9;
  m.level_ns = {1, 4, 15, 80};
  m.stream_bytes_per_s = 20e9;
  m.one_set_ns = one_set_ns;
  m.spread_ns = spread_ns;
  return m;
}

TEST(HostConfig, AMeasuredOneSetWalkSetsTheSpacing) {
  // 2.5 ns at 4 GHz: 10 cycles a load in one set, 0.5 ns spread.
  EXPECT_EQ(written(facts("GenuineIntel"), measured(2.5, 0.5)).caches[0].set_fill_cycles, 10u);
  // Less than twice the spread walk: the sets do not limit, no spacing.
  EXPECT_EQ(written(facts("AuthenticAMD"), measured(0.9, 0.5)).caches[0].set_fill_cycles, 0u);
}

TEST(HostConfig, TheStoringWalkSetsTheWritebackSpacing) {
  HostMeasured m = measured(2.5, 0.5);  // 10 cycles a load in one set
  m.one_set_store_ns = 3.75;            // 15 a store: a dirty victim adds 5
  EXPECT_EQ(written(facts("AuthenticAMD"), m).caches[0].writeback_spacing(), 5u);
  m.one_set_store_ns = 2.0;  // no slower than loading: nothing added
  EXPECT_EQ(written(facts("AuthenticAMD"), m).caches[0].writeback_spacing(), 0u);
  EXPECT_EQ(written(facts("AuthenticAMD")).caches[0].writeback_spacing(), 5u);  // not measured: AMD's figure
}

TEST(HostConfig, AMeasuredReplacementIsWrittenWithItsFit) {
  HostMeasured m = measured(2.5, 0.5);
  m.l1_replacement = "srrip";
  m.l1_replacement_fit = "measured (3 set patterns): srrip 0.2 cycles RMS (lru 3.0)";
  const std::string yaml = host_config_yaml(facts("GenuineIntel"), m);
  EXPECT_EQ(parse_config(yaml, "<host>").caches[0].replacement, "srrip");
  EXPECT_NE(yaml.find("# shared by CPUs 0; replacement measured (3 set patterns): srrip 0.2 cycles RMS"),
            std::string::npos);
  m.l1_replacement = "lru";  // measured LRU on an AMD: no key, the default
  EXPECT_EQ(written(facts("AuthenticAMD"), m).caches[0].replacement, "lru");
}

// sysfs's shared_cpu_list decides: a level only cpu0 (and its SMT
// siblings) uses is private, the first one shared wider and those below
// it are shared, and an unknown list leaves the default.
TEST(HostConfig, SharedCpuListGivesPrivateAndSharedLevels) {
  EXPECT_EQ(cpu_list_count("0"), 1u);
  EXPECT_EQ(cpu_list_count("0-3,8,10-11"), 7u);
  EXPECT_EQ(cpu_list_count("0,24"), 2u);
  EXPECT_EQ(cpu_list_count(""), 0u);
  EXPECT_EQ(cpu_list_count("3-1"), 0u);
  EXPECT_EQ(cpu_list_count("x"), 0u);
  HostFacts f = facts("GenuineIntel");
  f.smt_siblings = "0,24";
  f.caches[0].shared_cpus = "0,24";
  f.caches[1].shared_cpus = "0,24";
  f.caches[2].shared_cpus = "0-47";
  HwConfig c = written(f);
  EXPECT_EQ(c.caches[0].sharing, CacheSharing::Private);
  EXPECT_EQ(c.caches[1].sharing, CacheSharing::Private);
  EXPECT_EQ(c.caches[2].sharing, CacheSharing::Shared);
  f.smt_siblings = "";  // no SMT known: "0,24" is two cores
  c = written(f);
  EXPECT_EQ(c.caches[0].sharing, CacheSharing::Shared);
  EXPECT_EQ(c.caches[1].sharing, CacheSharing::Shared);
  f.caches[0].shared_cpus = "0";
  f.caches[1].shared_cpus = "0-3";
  f.caches[2].shared_cpus = "0";  // below a shared level: shared too
  c = written(f);
  EXPECT_EQ(c.caches[0].sharing, CacheSharing::Private);
  EXPECT_EQ(c.caches[1].sharing, CacheSharing::Shared);
  EXPECT_EQ(c.caches[2].sharing, CacheSharing::Shared);
  f.caches[1].shared_cpus = f.caches[2].shared_cpus = "";  // unknown: the defaults
  c = written(f);
  EXPECT_EQ(c.caches[1].sharing, CacheSharing::Shared);
}

// A VM without sysfs caches (this repository's AMD EPYC VM): the levels come
// from CPUID, which counts the threads sharing each; the L1D's count is one
// core's threads, so a level no wider is private and the first wider shared.
TEST(HostConfig, CpuidThreadCountsGivePrivateAndSharedLevels) {
  HostFacts f = facts("AuthenticAMD");
  f.smt_siblings = "0";  // what this VM's topology directory says
  const unsigned threads[3] = {2, 2, 16};
  for (int i = 0; i < 3; ++i) {
    f.caches[i].shared_cpus = "CPUID: " + std::to_string(threads[i]) + " threads";
    f.caches[i].sharing_threads = threads[i];
  }
  HwConfig c = written(f);
  EXPECT_EQ(c.caches[0].sharing, CacheSharing::Private);
  EXPECT_EQ(c.caches[1].sharing, CacheSharing::Private);
  EXPECT_EQ(c.caches[2].sharing, CacheSharing::Shared);
  f.caches[1].sharing_threads = 4;  // an L2 of two cores (a cluster's)
  c = written(f);
  EXPECT_EQ(c.caches[1].sharing, CacheSharing::Shared);
  EXPECT_EQ(c.caches[2].sharing, CacheSharing::Shared);
  f.caches[0].sharing_threads = f.caches[1].sharing_threads = 1;  // no SMT
  f.smt_siblings = "";
  c = written(f);
  EXPECT_EQ(c.caches[0].sharing, CacheSharing::Private);
  EXPECT_EQ(c.caches[1].sharing, CacheSharing::Private);
  EXPECT_EQ(c.caches[2].sharing, CacheSharing::Shared);
  f.caches[1].shared_cpus = "0-3";  // a sysfs list, where there is one, wins
  c = written(f);
  EXPECT_EQ(c.caches[1].sharing, CacheSharing::Shared);
}

// An AMD VM whose CPUID has no cache-topology leaf (TOPOEXT hidden, leaf
// 0x8000001D empty) and no sysfs cache directory: the legacy leaves give no
// counts, and a Zen's L1D and L2 are one core's own.
TEST(HostConfig, ZenLegacyLeavesGivePrivateL1AndL2) {
  HostFacts f = facts("AuthenticAMD");
  f.family = 26;  // Zen 5
  f.smt_siblings = "0";
  for (HostCache& c : f.caches) c.shared_cpus = "CPUID (legacy leaves)", c.sharing_threads = 0;
  HwConfig c = written(f);
  EXPECT_EQ(c.caches[0].sharing, CacheSharing::Private);
  EXPECT_EQ(c.caches[1].sharing, CacheSharing::Private);
  EXPECT_EQ(c.caches[2].sharing, CacheSharing::Shared);
  f.family = 0x15;  // Bulldozer: a module's two cores share its L2; nothing is claimed
  c = written(f);
  EXPECT_EQ(c.caches[0].sharing, CacheSharing::Private);  // a first level's default
  EXPECT_EQ(c.caches[1].sharing, CacheSharing::Shared);
  f.family = 26;
  f.vendor = "GenuineIntel";  // not AMD's facts
  c = written(f);
  EXPECT_EQ(c.caches[1].sharing, CacheSharing::Shared);
}

TEST(HostConfig, CpuinfoGivesTheFamilyAndModelNumber) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("pto-host-facts-" + std::to_string(getpid()));
  const fs::path l1 = root / "sys/devices/system/cpu/cpu0/cache/index0";
  fs::create_directories(l1);
  fs::create_directories(root / "proc");
  auto put = [](const fs::path& p, const std::string& text) { std::ofstream(p) << text << "\n"; };
  put(l1 / "level", "1");
  put(l1 / "type", "Data");
  put(l1 / "size", "48K");
  put(l1 / "ways_of_associativity", "12");
  put(l1 / "coherency_line_size", "64");
  put(l1 / "shared_cpu_list", "0");
  fs::create_directories(root / "sys/devices/system/cpu/cpu0/topology");
  put(root / "sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0,8");
  put(root / "proc/cpuinfo",
      "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 207\n"
      "model name\t: Intel(R) Xeon(R) Processor\ncpu MHz\t\t: 2900.000");
  const HostFacts f = read_host_facts(root.string());
  fs::remove_all(root);
  EXPECT_EQ(f.family, 6);
  EXPECT_EQ(f.model_number, 207);
  EXPECT_EQ(f.model, "Intel(R) Xeon(R) Processor");
  ASSERT_EQ(f.caches.size(), 1u);
  EXPECT_EQ(f.caches[0].ways, 12u);
  EXPECT_EQ(f.smt_siblings, "0,8");
  EXPECT_EQ(written(f).caches[0].sharing, CacheSharing::Private);
  EXPECT_EQ(written(f).core.rob_entries, 512u);  // Golden Cove-class
}

TEST(HostConfig, AGoldenCoveClassModelGetsItsOwnCore) {
  HostFacts f = facts("GenuineIntel");
  f.family = 6;
  f.model_number = 0xCF;  // Emerald Rapids
  const HwConfig c = written(f);
  EXPECT_EQ(c.core.issue_width, 6u);
  EXPECT_EQ(c.core.rob_entries, 512u);
  EXPECT_EQ(c.core.sq_entries, 114u);
  EXPECT_EQ(c.core.load_ports, 3u);
  EXPECT_EQ(c.core.store_ports, 2u);
  EXPECT_EQ(c.core.max_outstanding, 16u);
  EXPECT_EQ(c.core.forward_latency, 0u);  // compiled loops keep a stored value in a register
  EXPECT_EQ(c.core.store_request, StoreRequest::Rfo);  // measured on an Emerald Rapids
  EXPECT_EQ(c.core.store_lines_per_cycle, 1u);
  EXPECT_DOUBLE_EQ(c.core.op_timing.at(OpClass::Add, 0).latency, 2);
  EXPECT_EQ(c.core.store_fill_cycles, 3u);  // measured on an Emerald Rapids (host_config.cpp)
  EXPECT_EQ(c.core.store_fill_window, 400u);
  f.model_number = 0x55;  // Skylake-SP / Cascade Lake: the Skylake-class table
  const HwConfig old = written(f);
  EXPECT_EQ(old.core.issue_width, 4u);
  EXPECT_EQ(old.core.store_request, StoreRequest::Drain);
  EXPECT_EQ(old.core.store_fill_cycles, 0u);
  EXPECT_DOUBLE_EQ(old.core.op_timing.at(OpClass::Add, 0).latency, 4);
}

TEST(HostConfig, MeasuredLatenciesReplaceTheTablesAndTheForwardIsOnlyNoted) {
  HostMeasured m = measured(2.5, 0.5);
  m.add = 1.92;
  m.mul = 4.0;
  m.div = 10.63;
  m.sqrt = 11.6;
  m.forward = 6.1;
  const std::string yaml = host_config_yaml(facts("AuthenticAMD"), m);
  const HwConfig c = parse_config(yaml, "<host>");
  EXPECT_DOUBLE_EQ(c.core.op_timing.at(OpClass::Add, 0).latency, 2);
  EXPECT_DOUBLE_EQ(c.core.op_timing.at(OpClass::Mul, 0).latency, 4);
  EXPECT_DOUBLE_EQ(c.core.op_timing.at(OpClass::Div, 0).latency, 11);
  EXPECT_DOUBLE_EQ(c.core.op_timing.at(OpClass::Sqrt, 0).latency, 12);
  EXPECT_DOUBLE_EQ(c.core.op_timing.at(OpClass::Fma, 0).latency, 4);  // not measured (no FMA): the table's
  EXPECT_EQ(c.core.forward_latency, 0u);
  EXPECT_NE(yaml.find("forward measured 6 cycles"), std::string::npos);
}

// The L1D keeps the vendor's fill buffers in flight; the measured spacing of
// a column walk's L1D misses (all L2 hits) is the L2 port's pace: a line
// per spacing, at most a vector a cycle.
TEST(HostConfig, TheL2PortAnswersALinePerMeasuredMissSpacing) {
  HostMeasured m = measured(2.5, 0.5);  // 4 GHz
  m.l2_miss_ns = 0.8;                   // 3.2 cycles apart: 64 B / 3.2 = 20 B a cycle
  HwConfig c = written(facts("AuthenticAMD"), m);
  EXPECT_EQ(c.core.max_outstanding, 24u);  // the vendor's fill buffers
  EXPECT_EQ(c.caches[0].mshrs, 24u);
  EXPECT_EQ(c.caches[1].mshrs, 48u);
  EXPECT_DOUBLE_EQ(c.caches[1].bandwidth, 20.0);
  EXPECT_DOUBLE_EQ(c.caches[0].bandwidth, 64.0);  // 2 vectors of AVX2
  EXPECT_DOUBLE_EQ(c.caches[2].bandwidth, 32.0);
  EXPECT_NE(host_config_yaml(facts("AuthenticAMD"), m).find("L1D misses hit here 3.2 cycles apart"), std::string::npos);
  m.l2_miss_ns = 0.1;  // 0.4 cycles: more than a vector a cycle is not written
  EXPECT_DOUBLE_EQ(written(facts("AuthenticAMD"), m).caches[1].bandwidth, 32.0);
  m.l2_miss_ns = 0;  // not measured: a vector a cycle
  EXPECT_DOUBLE_EQ(written(facts("AuthenticAMD"), m).caches[1].bandwidth, 32.0);
  EXPECT_EQ(written(facts("GenuineIntel"), m).core.max_outstanding, 12u);
}

TEST(HostConfig, TranscendentalsCostTheTimeTheirSequenceTookOnThisCore) {
  HostMeasured m = measured(2.5, 0.5);  // 4 GHz; facts(): AVX2, a float32 peak of 32 flops a cycle
  EXPECT_TRUE(written(facts("AuthenticAMD"), m).op_costs.empty());  // not timed: the table's
  m.exp_ns = 0.25;   // a cycle an element: 32 flops
  m.gelu_ns = 0.55;  // 2.2 cycles: 70.4, rounded
  const HwConfig c = written(facts("AuthenticAMD"), m);
  EXPECT_DOUBLE_EQ(c.op_costs.at("exp"), 32.0);
  EXPECT_DOUBLE_EQ(c.op_costs.at("gelu"), 70.0);
  EXPECT_EQ(c.op_costs.size(), 2u);  // tanh, sigmoid and softmax follow exp (sim/exec/op_table.h)
}

TEST(HostConfig, ASharedCoreIsSaidInTheConfig) {
  HostMeasured m = measured(2.5, 0.5);
  m.adds_per_cycle = 2.1;
  EXPECT_NE(host_config_yaml(facts("GenuineIntel"), m).find("WARNING: measured while another thread shared this core (2.1"),
            std::string::npos);
  m.adds_per_cycle = 3.6;
  EXPECT_EQ(host_config_yaml(facts("GenuineIntel"), m).find("WARNING"), std::string::npos);
}

TEST(HostConfig, TheCapacityLadderRunsFromTwiceL2ToTheLastLevel) {
  const std::vector<uint64_t> mib = {2, 3, 4, 6, 8, 12, 16, 24, 32};
  std::vector<uint64_t> want;
  for (uint64_t x : mib) want.push_back(x << 20);
  EXPECT_EQ(host_capacity_footprints(facts("AuthenticAMD")), want);
  HostFacts two = facts("AuthenticAMD");
  two.caches.pop_back();  // L1D and a 1 MiB L2: 64 KiB .. 1 MiB
  EXPECT_EQ(host_capacity_footprints(two), (std::vector<uint64_t>{64 << 10, 96 << 10, 128 << 10, 192 << 10,
                                                                   256 << 10, 384 << 10, 512 << 10, 768 << 10,
                                                                   1024 << 10}));
}

// A VM's neighbours fill the last level: the chase's hit share at each
// footprint (between the ladder's first latency and DRAM's) times the
// footprint is what stayed; the config carries the largest, to a MiB.
TEST(HostConfig, TheLastLevelGetsTheCapacityItsDataKeeps) {
  const HostFacts f = facts("AuthenticAMD");
  HostMeasured m = measured(2.5, 0.5);  // DRAM 80 ns
  EXPECT_EQ(effective_last_level_bytes(f, m), 0u);  // no ladder: not measured
  EXPECT_EQ(written(f, m).caches[2].size, 32u << 20);
  // All hits to 4 MiB, half at 6 (3 MiB kept), a quarter at 8 (2 MiB).
  m.capacity = {{2 << 20, 16}, {3 << 20, 16}, {4 << 20, 16}, {6 << 20, 48}, {8 << 20, 64}, {12 << 20, 80}};
  EXPECT_EQ(effective_last_level_bytes(f, m), 4u << 20);
  const HwConfig c = written(f, m);
  EXPECT_EQ(c.caches[2].size, 4u << 20);
  EXPECT_EQ(c.caches[2].ways, 16u);
  EXPECT_EQ(c.caches[1].size, 1u << 20);  // only the last level
  EXPECT_NE(host_config_yaml(f, m).find("size measured (chase ns at 2 MiB 16"), std::string::npos);
  // A random-replacement-like tail: 60 % hits at 8 MiB keep 4.8 MiB -> 5.
  m.capacity = {{2 << 20, 16}, {4 << 20, 40}, {8 << 20, 41.6}};
  EXPECT_EQ(effective_last_level_bytes(f, m), 5u << 20);
  // Hits all the way (a quiet machine): the nominal size, said as such.
  m.capacity = {{2 << 20, 16}, {16 << 20, 17}, {32 << 20, 18}};
  EXPECT_EQ(effective_last_level_bytes(f, m), 32u << 20);
}

}  // namespace
}  // namespace ptosim

namespace ptosim {
namespace {

// The last level's port is one core's wide-load stream from it, in bytes a
// cycle at the measured clock (at most the L1D's two vectors), and DRAM's
// bandwidth the same stream from far past it; not measured, a vector a
// cycle and a typical 20 GB/s, each said so.
TEST(HostConfig, TheStreamsSetTheLastLevelPortAndDram) {
  HostMeasured m = measured(2.5, 0.5);  // 4 GHz, AVX2
  m.last_level_bytes_per_s = 102e9;     // 25.5 B a cycle
  m.last_level_footprint = 4 << 20;
  m.stream_bytes_per_s = 52.34e9;
  m.stream_footprint = 512ull << 20;
  m.stream_load_bytes = 32;
  const std::string yaml = host_config_yaml(facts("AuthenticAMD"), m);
  const HwConfig c = parse_config(yaml, "<host>");
  EXPECT_DOUBLE_EQ(c.caches[2].bandwidth, 25.5);
  EXPECT_DOUBLE_EQ(c.caches[0].bandwidth, 64.0);  // the others as before
  EXPECT_DOUBLE_EQ(c.dram.bandwidth, 52.3e9);     // to 0.1 GB/s
  EXPECT_NE(yaml.find("bandwidth measured: one core's stream of 32-byte loads over 4 MiB, 102 GB/s, its fastest run"),
            std::string::npos);
  EXPECT_NE(yaml.find("bandwidth: 52.3 GB/s   # measured: one core's stream of 32-byte loads over 512 MiB"),
            std::string::npos);
  m.last_level_bytes_per_s = 1e12;  // 250 B a cycle: not the last level's (the L1D's 64 at most)
  EXPECT_DOUBLE_EQ(written(facts("AuthenticAMD"), m).caches[2].bandwidth, 64.0);
  HostFacts two = facts("AuthenticAMD");
  two.caches.pop_back();  // no level below L2: the L2 port stays the column walk's
  m.l2_miss_ns = 0.8;
  EXPECT_DOUBLE_EQ(written(two, m).caches[1].bandwidth, 20.0);
  const std::string table = host_config_yaml(facts("AuthenticAMD"), HostMeasured{});
  EXPECT_DOUBLE_EQ(parse_config(table, "<host>").caches[2].bandwidth, 32.0);
  EXPECT_DOUBLE_EQ(parse_config(table, "<host>").dram.bandwidth, 20e9);
  EXPECT_NE(table.find("bandwidth a vector a cycle (not measured)"), std::string::npos);
  EXPECT_NE(table.find("bandwidth: 20 GB/s   # a typical figure (not measured)"), std::string::npos);
}

TEST(HostConfig, TheStreamFootprintsSitBetweenTheLastTwoLevelsAndFarPastTheLast) {
  HostFacts f = facts("AuthenticAMD");  // L2 1 MiB, L3 32 MiB
  EXPECT_EQ(host_last_level_stream_footprint(f), 4u << 20);  // four times L2
  f.caches[2].size = 4 << 20;
  EXPECT_EQ(host_last_level_stream_footprint(f), 2u << 20);  // half of L3, still twice L2
  f.caches[2].size = 3 << 20;
  EXPECT_EQ(host_last_level_stream_footprint(f), 0u);  // no room between the two
  f.caches.pop_back();
  EXPECT_EQ(host_last_level_stream_footprint(f), 0u);  // no third level
  EXPECT_EQ(host_dram_stream_footprint(facts("AuthenticAMD")), 512u << 20);
  f = facts("AuthenticAMD");
  f.caches[2].size = 256 << 20;  // a stacked-cache part
  EXPECT_EQ(host_dram_stream_footprint(f), 1ull << 30);
}

}  // namespace
}  // namespace ptosim

namespace ptosim {
namespace {

// The stream at the ladder's footprints can keep more than the chase says;
// the larger wins. Time a byte between the first point's (all hits) and the
// DRAM stream's gives the share that hit.
TEST(HostConfig, TheStreamLadderCanKeepMoreOfTheLastLevelThanTheChase) {
  const HostFacts f = facts("AuthenticAMD");  // nominal 32 MiB
  HostMeasured m = measured(2.5, 0.5);        // DRAM chase 80 ns
  m.capacity = {{2 << 20, 16}, {4 << 20, 16}, {8 << 20, 80}, {16 << 20, 80}};  // the chase: 4 MiB
  m.stream_bytes_per_s = 16e9;                                                  // 1/16 ns a byte
  m.capacity_stream = {{2 << 20, 64e9}, {4 << 20, 64e9}, {8 << 20, 64e9}, {16 << 20, 32e9}};
  // At 16 MiB 1/32 ns a byte: (1/16 - 1/32) / (1/16 - 1/64) = 2/3 hit, 10.67 MiB; at 8 MiB all, 8.
  EXPECT_EQ(effective_last_level_bytes(f, m), 11u << 20);
  const std::string yaml = host_config_yaml(f, m);
  EXPECT_EQ(parse_config(yaml, "<host>").caches[2].size, 11u << 20);
  EXPECT_NE(yaml.find("DRAM 80) and stream GB/s at 2 MiB 64 4 MiB 64 8 MiB 64 16 MiB 32, DRAM 16: of the nominal"),
            std::string::npos);
  m.capacity_stream = {{2 << 20, 64e9}, {4 << 20, 16e9}, {8 << 20, 16e9}, {16 << 20, 16e9}};  // the stream: 2 MiB
  EXPECT_EQ(effective_last_level_bytes(f, m), 4u << 20);  // the chase's
  m.stream_bytes_per_s = 0;  // no DRAM stream: the stream ladder has no reference
  m.capacity_stream = {{2 << 20, 64e9}, {16 << 20, 64e9}};
  EXPECT_EQ(effective_last_level_bytes(f, m), 4u << 20);
}

}  // namespace
}  // namespace ptosim
