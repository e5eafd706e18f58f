#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "sim/common/registry.h"
#include "sim/config/config_loader.h"

using namespace ptosim;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Expects parse_config(text) to fail with exactly `message`.
void expect_error(const std::string& text, const std::string& message) {
  try {
    parse_config(text, "cfg.yaml");
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), message) << text;
  }
}

}  // namespace

TEST(Config, MinimalConfigGetsEveryDefault) {
  HwConfig c = parse_config("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]", "min.yaml");
  ASSERT_EQ(c.caches.size(), 1u);
  EXPECT_EQ(c.caches[0].sets(), 64u);
  EXPECT_EQ(c.caches[0].replacement, "lru");
  EXPECT_TRUE(c.caches[0].write_back);
  EXPECT_TRUE(c.caches[0].write_allocate);
  EXPECT_FALSE(c.caches[0].inclusive);
  EXPECT_DOUBLE_EQ(c.clock_hz, 2e9);
  EXPECT_EQ(c.core.max_outstanding, 16u);
  EXPECT_EQ(c.spaces.at("global"), "L1");
  // Only the memories a config names exist (no invented scratchpads).
  EXPECT_TRUE(c.memories.empty());
  EXPECT_EQ(c.spaces.count("shared"), 0u);
  EXPECT_EQ(c.space_names(), std::vector<std::string>{"global"});
  EXPECT_EQ(c.core.model, "simple");
  HwConfig m = parse_config("memories: [{name: constant}]\ncaches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]",
                            "min.yaml");
  ASSERT_NE(m.memory("constant"), nullptr);
  EXPECT_TRUE(m.memory("constant")->read_only);
  EXPECT_EQ(m.spaces.at("constant"), "constant");
  EXPECT_EQ(m.space_names().front(), "global");
}

TEST(Config, DefaultIsTheShippedFile) {
  EXPECT_EQ(default_config_text(), read_file(PTOSIM_SOURCE_DIR "/configs/default.yaml"));
  HwConfig c = default_config();
  EXPECT_EQ(c.name, "default");
  EXPECT_EQ(c.caches.size(), 2u);
}

TEST(Config, ShippedConfigsParse) {
  for (const char* name : {"default", "xeon-gold-6248r", "gpu-sm", "npu", "tiny"}) {
    SCOPED_TRACE(name);
    HwConfig c = load_config_file(std::string(PTOSIM_SOURCE_DIR "/configs/") + name + ".yaml");
    EXPECT_FALSE(c.caches.empty());
  }
  HwConfig x = load_config_file(PTOSIM_SOURCE_DIR "/configs/xeon-gold-6248r.yaml");
  ASSERT_EQ(x.caches.size(), 3u);
  EXPECT_EQ(x.caches[2].size, 37486592u);
  EXPECT_EQ(x.caches[2].ways, 11u);
  EXPECT_EQ(x.caches[2].sets(), 53248u);  // not a power of two
  EXPECT_EQ(x.dram.channels, 6u);
  HwConfig npu = load_config_file(PTOSIM_SOURCE_DIR "/configs/npu.yaml");
  EXPECT_NE(npu.memory("l0a"), nullptr);
  EXPECT_EQ(npu.caches[0].line, 512u);
  EXPECT_TRUE(npu.space_id("ub").has_value());
}

// Dinero IV's -walloc f: allocate only a write of the whole line.
TEST(Config, WriteAllocateNofetch) {
  HwConfig c = parse_config(
      "caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B, write_allocate: nofetch},\n"
      "         {name: L2, size: 256 KiB, ways: 8, line: 64 B, write_allocate: false}]",
      "nofetch.yaml");
  EXPECT_TRUE(c.caches[0].write_allocate);
  EXPECT_TRUE(c.caches[0].allocate_nofetch);
  EXPECT_FALSE(c.caches[1].write_allocate);
  EXPECT_FALSE(c.caches[1].allocate_nofetch);
  const std::string y = to_yaml(c);
  EXPECT_NE(y.find("write_allocate: nofetch"), std::string::npos) << y;
}

TEST(Config, ShowRoundTrips) {
  for (const char* name : {"default", "xeon-gold-6248r", "gpu-sm", "npu", "tiny"}) {
    SCOPED_TRACE(name);
    HwConfig a = load_config_file(std::string(PTOSIM_SOURCE_DIR "/configs/") + name + ".yaml");
    std::string y = to_yaml(a);
    HwConfig b = parse_config(y, "shown.yaml");
    EXPECT_EQ(to_yaml(b), y);
  }
}

TEST(Config, Units) {
  HwConfig c = parse_config(
      "clock: 3 GHz\n"
      "caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B, latency: 4 cycles, bandwidth: 96 GB/s}]\n"
      "dram: {latency: 80 ns, bandwidth: 140 GB/s}\n",
      "u.yaml");
  EXPECT_DOUBLE_EQ(c.clock_hz, 3e9);
  EXPECT_EQ(c.caches[0].latency, 4u);
  EXPECT_DOUBLE_EQ(c.caches[0].bandwidth, 32);  // 96 GB/s at 3 GHz
  EXPECT_DOUBLE_EQ(c.dram.latency_ns, 80);
  EXPECT_DOUBLE_EQ(c.dram.bandwidth, 140e9);
}

TEST(Config, Errors) {
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B, colour: red}]",
               "cfg.yaml:1: caches[0].colour: unknown key");
  expect_error("caches:\n  - {name: L1, size: 32 KiB, ways: 8, line: 64 B}\nfoo: 1\n", "cfg.yaml:3: foo: unknown key");
  expect_error("caches:\n  - {name: L1, size: 32 KiBs, ways: 8, line: 64 B}\n",
               "cfg.yaml:2: caches[0].size: bad unit 'KiBs' in '32 KiBs' (expected a size in B, KB, KiB, MB, MiB, GB, GiB, TB, TiB)");
  expect_error("caches:\n  - {name: L1, ways: 8, line: 64 B}\n",
               "cfg.yaml:2: caches[0].size: missing (a cache needs size, ways and line)");
  expect_error("caches:\n  - {name: L1, size: 32 KiB, line: 64 B}\n",
               "cfg.yaml:2: caches[0].ways: missing (a cache needs size, ways and line)");
  expect_error("caches:\n  - {name: L1, size: 30000 B, ways: 8, line: 64 B}\n",
               "cfg.yaml:2: caches[0].size: size 30000 B is not divisible by ways x line (8 x 64 B)");
  expect_error("caches:\n  - {name: L1, size: 48 KiB, ways: 8, line: 48 B}\n",
               "cfg.yaml:2: caches[0].line: line size 48 B is not a power of two");
  expect_error("caches:\n  - {name: L1, size: 32 KiB, ways: 8, line: 128 B}\n"
               "  - {name: L2, size: 256 KiB, ways: 8, line: 64 B,\n     inclusion: inclusive}\n",
               "cfg.yaml:4: caches[1].inclusion: an inclusive level needs lines at least as large as those above "
               "(L1 has 128 B, L2 64 B)");
  expect_error("caches:\n  - {name: L1, size: 32 KiB, ways: 8, line: 64 B, replacement: mru}\n",
               "cfg.yaml:2: caches[0].replacement: 'mru' is not one of " + ChoiceLists::listing(concepts::kReplacement));
  expect_error("caches:\n  - {name: L1, size: 32 KiB, ways: 8, line: 64 B, write_allocate: maybe}\n",
               "cfg.yaml:2: caches[0].write_allocate: expected true, false, nofetch or fetch, got 'maybe'");
  expect_error("clock: 3 GHZ\ncaches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\n",
               "cfg.yaml:1: clock: bad unit 'GHZ' in '3 GHZ' (expected a frequency in Hz, kHz, KHz, MHz, GHz)");
  expect_error("name: x\n", "cfg.yaml:1: caches: missing (a config needs at least one cache level)");
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\ndram: {latency: 80}\n",
               "cfg.yaml:2: dram.latency: bad unit '' in '80' (expected a time in ps, ns, us, ms, s)");
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\nspaces: {global: L9}\n",
               "cfg.yaml:2: spaces.global: 'L9' is not a memory, cache or the DRAM of this config");
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\ncore: {issue_width: 0}\n",
               "cfg.yaml:2: core.issue_width: expected a whole number from 1 to 1024, got '0'");
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\ncore: {store_lines_per_cycle: 65}\n",
               "cfg.yaml:2: core.store_lines_per_cycle: expected a whole number from 0 to 64, got '65'");
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\ncore: {store_fill_cycles: 65}\n",
               "cfg.yaml:2: core.store_fill_cycles: expected a whole number from 0 to 64, got '65'");
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\ncore: {cores: 300}\n",
               "cfg.yaml:2: core.cores: at most 256 cores");
  expect_error("caches: [{name: L1, size: 32 KiB\n", "cfg.yaml:2:1: YAML syntax: end of map flow not found");
  // yaml-cpp would keep one of a repeated key and the first of several documents.
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B, ways: 4}]\n",
               "cfg.yaml:1: caches[0].ways: given twice");
  expect_error("name: a\ncaches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\nname: b\n", "cfg.yaml:3: name: given twice");
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\n---\nname: x\n",
               "cfg.yaml:3: a config is one YAML document, not several");
  // Counts that size the model's arrays have a maximum.
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\ncore: {max_outstanding: 1e9}\n",
               "cfg.yaml:2: core.max_outstanding: expected a whole number from 1 to 4096, got '1e9'");
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B, mshrs: 5000}]\n",
               "cfg.yaml:1: caches[0].mshrs: expected a whole number from 1 to 4096, got '5000'");
  expect_error("caches: [{name: L1, size: 16 GiB, ways: 1, line: 64 B}]\n",
               "cfg.yaml:1: caches[0].size: size 16 GiB is more than 2^24 lines of 64 B");
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\ndram: {burst_length: 536870913}\n",
               "cfg.yaml:2: dram.burst_length: expected a whole number from 1 to 1024, got '536870913'");
  expect_error("caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\ndram: {channels: 256, ranks: 64, banks: 8}\n",
               "cfg.yaml:2: dram: channels x ranks x banks is more than 65536 banks");
  expect_error("memories: [{name: ub, banks: 10000}]\ncaches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\n",
               "cfg.yaml:1: memories[0].banks: expected a whole number from 1 to 4096, got '10000'");
}

// Names become SystemC module names, report rows and space targets: each is
// distinct, plain, and not one the simulator has taken.
TEST(Config, NameErrors) {
  const std::string cache = "{size: 1 KiB, ways: 2, line: 64 B}";
  expect_error("caches: [{name: core, size: 1 KiB, ways: 2, line: 64 B}]\n",
               "cfg.yaml:1: caches[0].name: 'core' is the core's own name");
  expect_error("caches: [{name: \"L 1\", size: 1 KiB, ways: 2, line: 64 B}]\n",
               "cfg.yaml:1: caches[0].name: 'L 1': a name is letters, digits, '_' and '-'");
  expect_error("caches: [{name: a.b, size: 1 KiB, ways: 2, line: 64 B}]\n",
               "cfg.yaml:1: caches[0].name: 'a.b': a name is letters, digits, '_' and '-'");
  expect_error("caches: [{name: \"\", size: 1 KiB, ways: 2, line: 64 B}]\n",
               "cfg.yaml:1: caches[0].name: a name has 1 to 64 characters");
  expect_error("memories: [{name: global}]\ncaches: [" + cache + "]\n",
               "cfg.yaml:1: memories[0].name: 'global' is the space the caches serve");
  expect_error("caches: [{name: DRAM, size: 1 KiB, ways: 2, line: 64 B}]\n",
               "cfg.yaml:1: caches[0].name: name 'DRAM' is the DRAM's (the default name of `dram`)");
  expect_error("caches:\n  - " + cache + "\n  - {name: HBM, size: 4 KiB, ways: 2, line: 64 B}\ndram: {name: HBM}\n",
               "cfg.yaml:4: dram.name: name 'HBM' used twice");
  expect_error("memories: [{name: shared}]\ncaches: [" + cache + "]\ndram: {name: shared}\n",
               "cfg.yaml:3: dram.name: name 'shared' used twice");
  expect_error("memories: [{name: shared}]\ncaches: [{name: shared, size: 1 KiB, ways: 2, line: 64 B}]\n",
               "cfg.yaml:2: caches[0].name: name 'shared' used twice");
  EXPECT_EQ(parse_config("caches: [{name: L1-d_0, size: 1 KiB, ways: 2, line: 64 B}]\ndram: {name: HBM2e}\n", "c.yaml")
                .dram.name,
            "HBM2e");
}

TEST(Config, MissingFile) {
  try {
    load_config_file("/nonexistent/x.yaml");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/x.yaml: cannot open config file");
  }
}
