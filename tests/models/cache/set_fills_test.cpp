// set_fill_cycles: a set takes one fill every that many cycles, a fill
// arrives no sooner than that after its set's previous one (the spacing
// measured on a Zen 4 L1D, docs/CACHES.md "Fills per set"); other sets and
// a level without it are not affected. Exact times of a flat memory.
#include <gtest/gtest.h>

#include "sim/config/config_loader.h"
#include "tests/models/cache/cache_test_util.h"

using namespace ptosim;
using namespace ptosim::test;

namespace {

// Answers 1000 fs after a request arrives.
class FlatMemory : public MemPort {
 public:
  uint64_t access(const MemRequest&, uint64_t at) override { return at + 1000; }
};

// 1 KiB, 4-way, 64 B lines: 4 sets, a set every 256 B. Hits take 1 fs;
// fills into one set 300 fs apart.
struct Level {
  // set_writeback_fs: what a dirty victim adds; ~0: the fill spacing (no key).
  explicit Level(uint64_t set_fill_fs, uint64_t set_writeback_fs = ~0ull) {
    level = make_cache_level(cache("L1", 1024, 4, 64));
    level->connect_below(&mem);
    level->set_timing(1, 0, set_fill_fs, set_writeback_fs == ~0ull ? set_fill_fs : set_writeback_fs);
  }
  uint64_t read(uint64_t addr, uint64_t at) { return level->access(rd(addr), at); }
  FlatMemory mem;
  std::unique_ptr<CacheLevel> level;
};

TEST(SetFills, FillsIntoOneSetArriveSpacedWhileLatenciesOverlap) {
  Level l(300);
  EXPECT_EQ(l.read(0, 0), 1001u);    // set 0
  EXPECT_EQ(l.read(256, 0), 1301u);  // set 0 again: one spacing after the first
  EXPECT_EQ(l.read(512, 0), 1601u);  // and again: the memory's latencies overlap
  EXPECT_EQ(l.read(64, 0), 1001u);   // set 1: not affected
  EXPECT_EQ(l.level->timing_stats().set_fill_stalls, 2u);
}

TEST(SetFills, FillsFurtherApartThanTheSpacingDoNotWait) {
  Level l(300);
  EXPECT_EQ(l.read(0, 0), 1001u);
  EXPECT_EQ(l.read(256, 400), 1401u);  // arrives 400 after the first
  EXPECT_EQ(l.level->timing_stats().set_fill_stalls, 0u);
}

TEST(SetFills, ADirtyVictimTakesASpacingOfItsOwn) {
  Level l(300);
  l.level->access(wr(0), 0);  // set 0, dirty; its fill arrives at 1001
  EXPECT_EQ(l.read(256, 0), 1301u);
  EXPECT_EQ(l.read(512, 0), 1601u);
  EXPECT_EQ(l.read(768, 0), 1901u);   // set 0 full (4 ways)
  EXPECT_EQ(l.read(1024, 0), 2201u);  // evicts line 0, dirty: its writeback leaves after this fill
  EXPECT_EQ(l.read(1280, 0), 2801u);  // evicts a clean line: one spacing after the writeback
  EXPECT_EQ(l.level->stats().writebacks, 1u);
  EXPECT_EQ(l.level->timing_stats().set_fill_stalls, 5u);
}

TEST(SetFills, ADirtyVictimAddsItsOwnSpacingWhenGiven) {
  Level l(300, 100);
  l.level->access(wr(0), 0);
  l.read(256, 0);
  l.read(512, 0);
  l.read(768, 0);                     // 1901
  EXPECT_EQ(l.read(1024, 0), 2201u);  // evicts line 0, dirty: +100 for its writeback
  EXPECT_EQ(l.read(1280, 0), 2601u);  // one fill spacing after that
  EXPECT_EQ(l.level->timing_stats().set_fill_stalls, 5u);
}

TEST(SetFills, NoSpacingByDefault) {
  Level l(0);
  EXPECT_EQ(l.read(0, 0), 1001u);
  EXPECT_EQ(l.read(256, 0), 1001u);
  EXPECT_EQ(l.read(512, 0), 1001u);
  EXPECT_EQ(l.level->timing_stats().set_fill_stalls, 0u);
}

TEST(SetFills, ConfigKeyAndItsBounds) {
  const HwConfig c = parse_config(
      "name: t\ncaches:\n  - {name: L1, size: 1 KiB, ways: 4, line: 64 B, set_fill_cycles: 11}\n", "t.yaml");
  EXPECT_EQ(c.caches.at(0).set_fill_cycles, 11u);
  EXPECT_EQ(c.caches.at(0).writeback_spacing(), 11u);  // no key: a dirty victim takes a fill's spacing
  const HwConfig w = parse_config(
      "name: t\ncaches:\n  - {name: L1, size: 1 KiB, ways: 4, line: 64 B, set_fill_cycles: 11, set_writeback_cycles: 7}\n",
      "t.yaml");
  EXPECT_EQ(w.caches.at(0).writeback_spacing(), 7u);
  try {
    parse_config("name: t\ncaches:\n  - {name: L1, size: 1 KiB, ways: 4, line: 64 B, set_writeback_cycles: 7}\n",
                 "t.yaml");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("t.yaml:3:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("set_writeback_cycles: needs set_fill_cycles"), std::string::npos) << e.what();
  }
  EXPECT_THROW(
      parse_config("name: t\ncaches:\n  - {name: L1, size: 1 KiB, ways: 4, line: 64 B, set_fill_cycles: 5000}\n",
                   "t.yaml"),
      InputError);
}

}  // namespace
