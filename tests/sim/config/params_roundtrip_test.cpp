// Every config key a model declares (sim/config/params.h) survives `config
// show`: a config that sets each one to its declared example (a value other
// than the default) loads, is written by to_yaml and loads again to the same
// value. A key that to_yaml loses comes back as its default and fails here
// (Config.ShowRoundTrips cannot see it: it compares to_yaml with itself).
// Also: each declaration is complete, and a bad value names file:line and key.
#include <gtest/gtest.h>

#include <string>

#include "sim/config/config_loader.h"
#include "sim/config/params.h"

using namespace ptosim;

namespace {

template <class Cfg>
std::string example_lines(const char* indent) {
  std::string s;
  for (const Param<Cfg>& p : Params<Cfg>::all()) s += indent + p.key + ": " + p.example + "\n";
  return s;
}

// Every declared key set to its example, under the choices that read them.
std::string every_example() {
  return "core:\n  model: cpu\n" + example_lines<CoreConfig>("  ") +
         "caches:\n  - name: L1\n    size: 32 KiB\n    ways: 8\n    line: 64 B\n    replacement: random\n"
         "    prefetcher: stride\n" +
         example_lines<CacheConfig>("    ") + example_lines<PrefetchConfig>("    ") +
         "dram:\n  timing: detailed\n" + example_lines<DramConfig>("  ");
}

// The example differs from the default, and the shown config gives it back.
template <class Cfg>
void expect_kept(const Cfg& set, const Cfg& shown, const std::string& yaml) {
  for (const Param<Cfg>& p : Params<Cfg>::all()) {
    SCOPED_TRACE(p.key);
    EXPECT_NE(p.format(set), p.default_text()) << "the example '" << p.example << "' is the default";
    EXPECT_EQ(p.format(shown), p.format(set)) << "config show lost or changed it:\n" << yaml;
  }
}

}  // namespace

TEST(ModelParams, EachSectionDeclaresKeys) {
  EXPECT_GE(Params<CoreConfig>::all().size(), 11u);     // the cpu model's pipeline
  EXPECT_GE(Params<CacheConfig>::all().size(), 1u);     // random replacement's seed
  EXPECT_GE(Params<PrefetchConfig>::all().size(), 4u);  // distance, degree, table, page
  EXPECT_GE(Params<DramConfig>::all().size(), 17u);     // simple's 2, detailed's 15
}

TEST(ModelParams, EveryDeclaredKeyRoundTripsThroughConfigShow) {
  const std::string text = every_example();
  const HwConfig a = parse_config(text, "examples.yaml");
  const std::string yaml = to_yaml(a);
  const HwConfig b = parse_config(yaml, "shown.yaml");
  expect_kept(a.core, b.core, yaml);
  expect_kept(a.caches[0], b.caches[0], yaml);
  expect_kept(a.caches[0].prefetch, b.caches[0].prefetch, yaml);
  expect_kept(a.dram, b.dram, yaml);
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
