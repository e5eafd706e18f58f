// `config host --measure`'s plumbing without timing anything: a made-up
// probe's figures go through measured_from and the config writer, and each
// lands in the yaml key it belongs to, with the value it implies exactly.
#include "sim/cli/host_measured.h"

#include <gtest/gtest.h>

#include "sim/config/config_loader.h"

namespace ptosim::cli {
namespace {

HostFacts zen3_like() {
  HostFacts f;
  f.model = "test EPYC";
  f.vendor = "AuthenticAMD";
  f.family = 25;
  f.model_number = 1;
  f.mhz = 2445;
  f.avx2 = true;
  f.cpus = 2;
  // sysfs's levels on this Zen 3 VM: L1D and L2 one core's, the L3 both vCPUs'.
  const struct { int level; uint64_t size; uint32_t ways; const char* shared; } rows[] = {
      {1, 32 << 10, 8, "0"}, {2, 512 << 10, 8, "0"}, {3, 32 << 20, 16, "0-1"}};
  for (const auto& r : rows) {
    HostCache c;
    c.level = r.level, c.type = r.level == 1 ? "Data" : "Unified", c.size = r.size, c.ways = r.ways, c.line = 64;
    c.shared_cpus = r.shared;
    f.caches.push_back(c);
  }
  return f;
}

host::HostProbe probe() {
  host::HostProbe p;
  p.clock_hz = 3.2e9;
  p.latency = {{16 << 10, 1.25}, {256 << 10, 4.375}, {1 << 20, 15.625}, {256 << 20, 90.625}};
  p.dram_stream = {41.7e9, 32, 512ull << 20};
  p.last_level_stream = {80e9, 32, 2 << 20};  // 25 B a cycle at 3.2 GHz
  // The last level's ladder: the chase keeps 2 MiB, the stream 8 of 16 (time a byte half way to DRAM's).
  p.capacity = {{1 << 20, 12.5}, {2 << 20, 12.5}, {4 << 20, 90.625}, {16 << 20, 90.625}};
  p.capacity_stream = {{80e9, 32, 1 << 20}, {80e9, 32, 2 << 20}, {41.7e9, 32, 4 << 20},
                       {1 / (0.5 / 80e9 + 0.5 / 41.7e9), 32, 16 << 20}};
  return p;
}

TEST(HostMeasured, TheStreamsLandInTheLastLevelPortAndDramBandwidth) {
  const HostFacts f = zen3_like();
  const std::string yaml = host_config_yaml(f, measured_from(probe()));
  const HwConfig c = parse_config(yaml, "<host>");
  EXPECT_DOUBLE_EQ(c.clock_hz, 3.2e9);
  ASSERT_EQ(c.caches.size(), 3u);
  EXPECT_DOUBLE_EQ(c.caches[2].bandwidth, 25.0);
  EXPECT_DOUBLE_EQ(c.dram.bandwidth, 41.7e9);
  EXPECT_EQ(c.caches[2].size, 8u << 20);  // the stream ladder's, larger than the chase's 2 MiB
  // Latencies are each level's chase less the one above, in cycles: 4, 10, 36; DRAM 75 ns.
  EXPECT_EQ(c.caches[0].latency, 4u);
  EXPECT_EQ(c.caches[1].latency, 10u);
  EXPECT_EQ(c.caches[2].latency, 36u);
  EXPECT_DOUBLE_EQ(c.dram.latency_ns, 75.0);
  // Each figure says where it came from.
  EXPECT_NE(yaml.find("bandwidth measured: one core's stream of 32-byte loads over 2 MiB, 80 GB/s, its fastest run"),
            std::string::npos);
  EXPECT_NE(yaml.find("bandwidth: 41.7 GB/s   # measured: one core's stream of 32-byte loads over 512 MiB, 41.7 GB/s"),
            std::string::npos);
}

TEST(HostMeasured, ALastLevelStreamNotTakenKeepsTheTable) {
  host::HostProbe p = probe();
  p.last_level_stream = {};
  const std::string yaml = host_config_yaml(zen3_like(), measured_from(p));
  EXPECT_DOUBLE_EQ(parse_config(yaml, "<host>").caches[2].bandwidth, 32.0);  // a vector a cycle of AVX2
  EXPECT_NE(yaml.find("bandwidth a vector a cycle (not measured)"), std::string::npos);
}

}  // namespace
}  // namespace ptosim::cli
