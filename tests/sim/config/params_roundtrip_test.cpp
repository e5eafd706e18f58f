// Every declared config key (sim/config/params.h: the models' PTOSIM_PARAMS
// and the shared keys of sim/config/shared_keys.h) survives `config show`:
// a config that sets the one key to its declared example (a value other
// than the default) loads, is written by to_yaml and loads again to the
// same value. A key that to_yaml loses comes back as its default and fails
// here; one it writes twice fails to load again (Config.ShowRoundTrips
// cannot see either: it compares to_yaml with itself). One config per key,
// so that keys whose examples exclude each other (a level's `slices` and
// `sharing: private`) are each checked. Also: each declaration is
// complete, and a bad value names file:line and key.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>

#include "sim/config/config_loader.h"
#include "sim/config/params.h"

using namespace ptosim;

namespace {

// The keys an example needs beside it (a check that spans keys).
const std::map<std::string, std::string> kExampleNeeds = {
    {"set_writeback_cycles", "set_fill_cycles: 5"},
    {"store_fill_window", "store_fill_cycles: 3"},  // shown only with a fill cost
};

// Where a section's keys go in a config, the keys it holds when the key
// under test is not one of them, and how to find the section once loaded.
template <class Cfg>
struct Frame {
  std::map<std::string, std::string> base;
  std::function<std::string(const std::string& lines)> wrap;
  std::function<const Cfg&(const HwConfig&)> section;
  const char* indent;
};

const char* const kOneLevel = "caches: [{size: 32 KiB, ways: 8, line: 64 B}]\n";

Frame<CoreConfig> core_frame() {
  return {{{"model", "cpu"}},
          [](const std::string& l) { return "core:\n" + l + kOneLevel; },
          [](const HwConfig& c) -> const CoreConfig& { return c.core; },
          "  "};
}
Frame<MemoryConfig> memory_frame() {
  return {{{"name", "buf"}},
          [](const std::string& l) { return "memories:\n  - " + l.substr(4) + kOneLevel; },
          [](const HwConfig& c) -> const MemoryConfig& { return c.memories.at(0); },
          "    "};
}
// The level under test is the second, shared by default (so `slices` may
// be set) and with lines no larger than the first's (so `inclusive` may).
const std::map<std::string, std::string> kLevelBase = {
    {"name", "L2"}, {"size", "256 KiB"}, {"ways", "8"}, {"line", "64 B"}, {"replacement", "random"}, {"prefetcher", "stride"}};
std::string two_levels(const std::string& l) { return "caches:\n  - {size: 32 KiB, ways: 8, line: 64 B}\n  - " + l.substr(4); }
Frame<CacheConfig> cache_frame() {
  return {kLevelBase, two_levels, [](const HwConfig& c) -> const CacheConfig& { return c.caches.at(1); }, "    "};
}
Frame<PrefetchConfig> prefetch_frame() {
  return {kLevelBase, two_levels, [](const HwConfig& c) -> const PrefetchConfig& { return c.caches.at(1).prefetch; },
          "    "};
}
Frame<DramConfig> dram_frame() {
  return {{{"timing", "detailed"}},
          [](const std::string& l) { return kOneLevel + std::string("dram:\n") + l; },
          [](const HwConfig& c) -> const DramConfig& { return c.dram; },
          "  "};
}
// Two cores with a private first level: the directory exists, so config
// show writes coherence.
Frame<CoherenceConfig> coherence_frame() {
  return {{},
          [](const std::string& l) {
            return "core: {cores: 2}\ncaches:\n  - {size: 32 KiB, ways: 8, line: 64 B}\n"
                   "  - {size: 1 MiB, ways: 16, line: 64 B}\ncoherence:\n" + l;
          },
          [](const HwConfig& c) -> const CoherenceConfig& { return c.coherence; },
          "  "};
}

template <class Cfg>
void expect_each_key_kept(const Frame<Cfg>& f) {
  ASSERT_FALSE(Params<Cfg>::all().empty()) << param_section<Cfg>();
  for (const Param<Cfg>& p : Params<Cfg>::all()) {
    const std::string key = std::string(param_section<Cfg>()) + "." + p.key;
    SCOPED_TRACE(key);
    std::map<std::string, std::string> keys = f.base;
    keys[p.key] = p.example_text();
    // name first: the loader reads it first and frames put it on the list item's line
    std::string lines = keys.count("name") ? f.indent + std::string("name: ") + keys["name"] + "\n" : "";
    for (const auto& [k, v] : keys)
      if (k != "name") lines += f.indent + k + ": " + v + "\n";
    if (auto n = kExampleNeeds.find(p.key); n != kExampleNeeds.end()) lines += f.indent + n->second + "\n";
    const std::string text = f.wrap(lines);
    HwConfig a, b;
    ASSERT_NO_THROW(a = parse_config(text, "example.yaml")) << text;
    const std::string yaml = to_yaml(a);
    ASSERT_NO_THROW(b = parse_config(yaml, "shown.yaml")) << "config show wrote a config that does not load:\n" << yaml;
    EXPECT_NE(p.format(f.section(a)), p.default_text()) << "the example '" << p.example_text() << "' is the default";
    EXPECT_EQ(p.format(f.section(b)), p.format(f.section(a))) << "config show lost or changed it:\n" << yaml;
  }
}

}  // namespace

TEST(ModelParams, EachSectionDeclaresKeys) {
  EXPECT_GE(Params<CoreConfig>::all().size(), 15u);     // issue_width, max_outstanding, vector_bytes, cores; cpu's 11
  EXPECT_EQ(Params<MemoryConfig>::all().size(), 9u);    // every memory key but name
  EXPECT_GE(Params<CacheConfig>::all().size(), 15u);    // a level's 14, random replacement's seed
  EXPECT_GE(Params<PrefetchConfig>::all().size(), 4u);  // distance, degree, table, page
  EXPECT_GE(Params<DramConfig>::all().size(), 17u);     // simple's 2, detailed's 15
  EXPECT_EQ(Params<CoherenceConfig>::all().size(), 2u); // latency, message_bytes
}

TEST(ModelParams, EveryDeclaredKeyRoundTripsThroughConfigShow) {
  expect_each_key_kept(core_frame());
  expect_each_key_kept(memory_frame());
  expect_each_key_kept(cache_frame());
  expect_each_key_kept(prefetch_frame());
  expect_each_key_kept(dram_frame());
  expect_each_key_kept(coherence_frame());
}
TEST(ModelParams, ABadValueNamesFileLineAndKey) {
  const std::string head = "caches: [{name: L1, size: 32 KiB, ways: 8, line: 64 B}]\n";
  auto error_of = [](const std::string& text) {
    try {
      parse_config(text, "bad.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(head + "dram:\n  timing: detailed\n  channels: 0\n"),
            "bad.yaml:4: dram.channels: expected a whole number from 1 to 256, got '0'");
  EXPECT_EQ(error_of(head + "core:\n  model: cpu\n  store_request: later\n"),
            "bad.yaml:4: core.store_request: 'later' is not one of dispatch | drain | rfo");
  EXPECT_EQ(error_of("caches:\n  - {name: L1, size: 32 KiB, ways: 8, line: 64 B,\n     prefetch_page: 3 KiB}\n"),
            "bad.yaml:3: caches[0].prefetch_page: page size 3 KiB is not a power of two");
  EXPECT_EQ(error_of(head + "dram: {data_rate: 3200 Hz}\n"),
            "bad.yaml:2: dram.data_rate: bad unit 'Hz' in '3200 Hz' (expected MT/s or GT/s)");
}
