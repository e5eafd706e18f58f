// The MESI directory of models/cache/coherence.h against a deliberately
// simple reference (maps of lines per core, a state per line, LRU lists),
// count for count on random multi-core traces, and exact counts on the
// hand-made patterns the docs describe (docs/CACHES.md, "Several cores").
#include <gtest/gtest.h>

#include <list>
#include <map>
#include <memory>
#include <random>
#include <set>

#include "models/cache/cache_level.h"
#include "models/cache/coherence.h"
#include "models/cache/memory_counter.h"
#include "tests/models/cache/cache_test_util.h"

namespace ptosim::test {
namespace {

constexpr uint32_t kLine = 64;

// ---- the reference ----

struct RefCounts {
  uint64_t hits = 0, misses = 0, coherence_misses = 0, invalidated = 0, evictions = 0, writebacks = 0;
};

// An LRU cache of lines: per set a list, most recent first.
struct RefCache {
  struct Line {
    uint64_t line;
    bool dirty;
  };
  RefCache(uint64_t size, uint32_t ways) : ways(ways), sets(size / kLine / ways) {}
  uint32_t ways;
  std::vector<std::list<Line>> sets;
  RefCounts n;
  std::set<uint64_t> lost;  // invalidated by another core, not missed since

  std::list<Line>& set_of(uint64_t line) { return sets[line % sets.size()]; }
  Line* find(uint64_t line) {
    for (Line& l : set_of(line))
      if (l.line == line) return &l;
    return nullptr;
  }
  void touch(uint64_t line) {
    auto& s = set_of(line);
    for (auto it = s.begin(); it != s.end(); ++it)
      if (it->line == line) return s.splice(s.begin(), s, it);
  }
  bool remove(uint64_t line, bool* dirty) {
    auto& s = set_of(line);
    for (auto it = s.begin(); it != s.end(); ++it)
      if (it->line == line) {
        *dirty = it->dirty;
        s.erase(it);
        return true;
      }
    return false;
  }
};

struct RefDirectory {
  std::set<int> holders;
  bool exclusive = false;
};

// N cores with k private levels each, one shared level, memory.
class RefSystem {
 public:
  RefSystem(int cores, const std::vector<std::pair<uint64_t, uint32_t>>& priv, std::pair<uint64_t, uint32_t> shared)
      : shared_(shared.first, shared.second), coh_(cores) {
    priv_.resize(cores);
    for (auto& p : priv_)
      for (auto [size, ways] : priv) p.emplace_back(size, ways);
  }

  void access(int c, uint64_t line, bool write) { level(c, 0, line, write, false, false); }

  CoherenceCounters coh(int c) const { return coh_[c]; }
  const RefCounts& priv(int c, size_t i) const { return priv_[c][i].n; }
  const RefCounts& shared() const { return shared_.n; }

 private:
  bool holds(int c, uint64_t line) {
    for (RefCache& l : priv_[c])
      if (l.find(line)) return true;
    return false;
  }

  // A request at core c's private level i (k: the directory, then the shared level).
  void level(int c, size_t i, uint64_t line, bool write, bool writeback, bool rfo) {
    if (i == priv_[c].size()) return directory(c, line, write, writeback, rfo);
    RefCache& l = priv_[c][i];
    if (RefCache::Line* hit = l.find(line)) {
      ++l.n.hits;
      l.touch(line);
      if (write) hit->dirty = true;
      if (write && !writeback) permission(c, line);
      return;
    }
    ++l.n.misses;
    if (l.lost.erase(line)) ++l.n.coherence_misses;
    std::optional<RefCache::Line> victim;
    auto& set = l.set_of(line);
    if (set.size() == l.ways) {
      victim = set.back();
      set.pop_back();
    }
    if (!writeback) level(c, i + 1, line, false, false, write || rfo);  // a writeback covers the line: no fetch
    set.push_front({line, write});
    if (writeback) {  // the core holds the line it wrote back (its entry may have gone meanwhile)
      RefDirectory& d = dir_[line];
      if (d.holders.insert(c).second) d.exclusive = d.holders.size() == 1;
    }
    if (write && !writeback) permission(c, line);
    if (victim) {
      ++l.n.evictions;
      if (victim->dirty) {
        ++l.n.writebacks;
        level(c, i + 1, victim->line, true, true, false);
      }
      left(c, victim->line);
    }
  }

  void shared_access(uint64_t line, bool write) {
    RefCache& l = shared_;
    if (RefCache::Line* hit = l.find(line)) {
      ++l.n.hits;
      l.touch(line);
      if (write) hit->dirty = true;
      return;
    }
    ++l.n.misses;
    auto& set = l.set_of(line);
    std::optional<RefCache::Line> victim;
    if (set.size() == l.ways) {
      victim = set.back();
      set.pop_back();
    }
    set.push_front({line, write});
    if (victim) {
      ++l.n.evictions;
      if (victim->dirty) ++l.n.writebacks;
    }
  }

  void invalidate_others(int c, uint64_t line, RefDirectory& d) {
    for (int o : std::set<int>(d.holders)) {
      if (o == c) continue;
      d.holders.erase(o);
      bool had = false, dirty = false;
      for (RefCache& l : priv_[o]) {
        bool dd = false;
        if (l.remove(line, &dd)) {
          had = true;
          dirty |= dd;
          ++l.n.invalidated;
          l.lost.insert(line);
        }
      }
      if (!had) continue;
      ++coh_[c].invalidations_sent;
      ++coh_[o].invalidations_received;
      if (dirty) {
        ++coh_[o].snoop_writebacks;
        shared_access(line, true);
      }
    }
  }

  void directory(int c, uint64_t line, bool write, bool writeback, bool rfo) {
    if (writeback) return shared_access(line, true);
    ++coh_[c].requests;
    RefDirectory& d = dir_[line];
    if (!write && !rfo) {
      bool from_peer = false;
      for (int o : std::set<int>(d.holders)) {
        if (o == c) continue;
        if (!holds(o, line)) {
          d.holders.erase(o);
          continue;
        }
        if (!d.exclusive) continue;
        ++coh_[c].interventions;
        bool dirty = false;
        for (RefCache& l : priv_[o])
          if (RefCache::Line* x = l.find(line)) dirty |= std::exchange(x->dirty, false);
        if (dirty) {
          ++coh_[o].snoop_writebacks;
          shared_access(line, true);
        }
        from_peer = true;
      }
      d.holders.insert(c);
      d.exclusive = d.holders.size() == 1;
      if (from_peer) {  // the owner's copy serves the fill: the shared level is not read
        ++coh_[c].cache_to_cache;
        return;
      }
      return shared_access(line, false);
    }
    const bool owned = rfo && d.exclusive && d.holders.size() == 1 && !d.holders.count(c);
    const uint64_t sent = coh_[c].invalidations_sent;
    invalidate_others(c, line, d);
    d.holders = {c};
    d.exclusive = true;
    if (owned && coh_[c].invalidations_sent > sent) {
      ++coh_[c].cache_to_cache;
      return;
    }
    shared_access(line, write);
  }

  void permission(int c, uint64_t line) {
    RefDirectory& d = dir_[line];
    if (d.exclusive && d.holders.count(c)) return;
    const bool upgrade = d.holders.count(c) > 0;
    invalidate_others(c, line, d);
    if (upgrade) ++coh_[c].upgrades, ++coh_[c].requests;
    d.holders = {c};
    d.exclusive = true;
  }

  void left(int c, uint64_t line) {
    if (holds(c, line)) return;
    auto it = dir_.find(line);
    if (it == dir_.end()) return;
    it->second.holders.erase(c);
    if (it->second.holders.empty()) dir_.erase(it);
  }

  std::vector<std::vector<RefCache>> priv_;
  RefCache shared_;
  std::map<uint64_t, RefDirectory> dir_;
  std::vector<CoherenceCounters> coh_;
};

// ---- the fast model, wired as System wires it (without time) ----

struct FastSystem {
  FastSystem(int cores, const std::vector<std::pair<uint64_t, uint32_t>>& priv, std::pair<uint64_t, uint32_t> shared)
      : coherence(uint32_t(cores), kLine, 0, 0, 8) {
    shared_level = make_cache_level(cache("S", shared.first, shared.second, kLine));
    shared_level->connect_below(&memory);
    coherence.set_below(shared_level.get());
    levels.resize(cores);
    for (int c = 0; c < cores; ++c) {
      for (size_t i = 0; i < priv.size(); ++i) {
        CacheConfig cfg = cache("P" + std::to_string(i), priv[i].first, priv[i].second, kLine);
        cfg.sharing = CacheSharing::Private;
        levels[c].push_back(make_cache_level(cfg));
        coherence.add_level(CoreId(c), levels[c].back().get());
      }
      for (size_t i = 0; i < priv.size(); ++i)
        levels[c][i]->connect_below(i + 1 < priv.size() ? static_cast<MemPort*>(levels[c][i + 1].get())
                                                        : &coherence.port(CoreId(c)));
    }
  }
  void access(int c, uint64_t addr, uint64_t bytes, bool write) {
    levels[c][0]->access(MemRequest{addr, bytes, write, 1, 0}, 0);
  }
  Coherence coherence;
  std::unique_ptr<CacheLevel> shared_level;
  MemoryCounter memory;
  std::vector<std::vector<std::unique_ptr<CacheLevel>>> levels;
};

void expect_same(const RefCounts& r, const LevelStats& s, const std::string& where) {
  EXPECT_EQ(s.read_hits + s.write_hits, r.hits) << where;
  EXPECT_EQ(s.misses(), r.misses) << where;
  EXPECT_EQ(s.coherence, r.coherence_misses) << where;
  EXPECT_EQ(s.coherence_invalidations, r.invalidated) << where;
  EXPECT_EQ(s.evictions, r.evictions) << where;
  EXPECT_EQ(s.writebacks, r.writebacks) << where;
  // The fourth C completes the other three.
  EXPECT_EQ(s.compulsory + s.capacity + s.conflict + s.coherence, s.misses()) << where;
}

void differential(int cores, const std::vector<std::pair<uint64_t, uint32_t>>& priv, uint32_t seed) {
  const std::pair<uint64_t, uint32_t> shared{2048, 4};
  RefSystem ref(cores, priv, shared);
  FastSystem fast(cores, priv, shared);
  std::mt19937_64 rng(seed);
  uint64_t coherence_misses = 0;
  for (int n = 0; n < 20000; ++n) {
    const int c = int(rng() % uint64_t(cores));
    const uint64_t line = rng() % 40;  // a few lines more than the caches hold: evictions, sharing, ping-pong
    const uint64_t bytes = 1 + rng() % 8;
    const uint64_t offset = rng() % (kLine - bytes + 1);
    const bool write = rng() % 10 < 3;
    ref.access(c, line, write);
    fast.access(c, line * kLine + offset, bytes, write);
  }
  for (int c = 0; c < cores; ++c) {
    const std::string core = "seed " + std::to_string(seed) + " core " + std::to_string(c);
    for (size_t i = 0; i < priv.size(); ++i) {
      expect_same(ref.priv(c, i), fast.levels[c][i]->stats(), core + " level " + std::to_string(i));
      coherence_misses += fast.levels[c][i]->stats().coherence;
    }
    const CoherenceCounters& f = fast.coherence.counters(CoreId(c));
    const CoherenceCounters r = ref.coh(c);
    EXPECT_EQ(f.invalidations_sent, r.invalidations_sent) << core;
    EXPECT_EQ(f.invalidations_received, r.invalidations_received) << core;
    EXPECT_EQ(f.interventions, r.interventions) << core;
    EXPECT_EQ(f.upgrades, r.upgrades) << core;
    EXPECT_EQ(f.snoop_writebacks, r.snoop_writebacks) << core;
    EXPECT_EQ(f.requests, r.requests) << core;
    EXPECT_EQ(f.cache_to_cache, r.cache_to_cache) << core;
  }
  const LevelStats& s = fast.shared_level->stats();
  EXPECT_EQ(s.read_hits + s.write_hits, ref.shared().hits);
  EXPECT_EQ(s.misses(), ref.shared().misses);
  EXPECT_EQ(s.writebacks, ref.shared().writebacks);
  // The traces do share: the comparison covers every kind of action.
  EXPECT_GT(coherence_misses, 100u);
  const CoherenceCounters t = fast.coherence.total();
  EXPECT_GT(t.interventions, 100u);
  EXPECT_GT(t.upgrades, 100u);
  EXPECT_GT(t.snoop_writebacks, 100u);
  EXPECT_GT(t.cache_to_cache, 100u);
  EXPECT_EQ(t.invalidations_sent, t.invalidations_received);
}

TEST(Coherence, OnePrivateLevelAgreesWithReference) {
  for (uint32_t seed : {1u, 2u, 3u}) differential(4, {{512, 2}}, seed);
}

TEST(Coherence, TwoPrivateLevelsAgreeWithReference) {
  for (uint32_t seed : {4u, 5u}) differential(3, {{256, 2}, {1024, 2}}, seed);
  differential(8, {{256, 1}, {512, 4}}, 6);
}

// Two cores writing their own 4 bytes of one line in turn: after the first
// two writes every write invalidates the other core's copy, and each
// invalidation is false sharing (disjoint bytes).
TEST(Coherence, PingPongOnDisjointBytesIsFalseSharing) {
  FastSystem f(2, {{512, 2}}, {2048, 4});
  for (int i = 0; i < 10; ++i) {
    f.access(0, 0x1000, 4, true);
    f.access(1, 0x1004, 4, true);
  }
  const CoherenceCounters t = f.coherence.total();
  EXPECT_EQ(t.invalidations_sent, 19u);  // every write but the first takes the line from the other core
  EXPECT_EQ(t.snoop_writebacks, 19u);    // each copy taken was dirty
  EXPECT_EQ(t.upgrades, 0u);             // every write missed: a read for ownership, not an upgrade
  EXPECT_EQ(f.levels[0][0]->stats().coherence, 9u);
  EXPECT_EQ(f.levels[1][0]->stats().coherence, 9u);
  const std::vector<SharedLine> lines = f.coherence.false_sharing(5);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].line, 0x1000u / kLine);
  EXPECT_EQ(lines[0].false_invalidations, 19u);
  EXPECT_EQ(lines[0].true_invalidations, 0u);
  EXPECT_EQ(lines[0].tensors, std::vector<TagId>{1});
}

// The same bytes: true sharing, not listed as false.
TEST(Coherence, PingPongOnSameBytesIsTrueSharing) {
  FastSystem f(2, {{512, 2}}, {2048, 4});
  for (int i = 0; i < 10; ++i) {
    f.access(0, 0x1000, 4, true);
    f.access(1, 0x1000, 4, true);
  }
  EXPECT_EQ(f.coherence.total().invalidations_sent, 19u);
  EXPECT_TRUE(f.coherence.false_sharing(5).empty());
}

// Readers share; a write by one of them is an upgrade that invalidates the
// others; a read of a line another core holds modified is an intervention.
TEST(Coherence, SharedReadersThenAWriter) {
  FastSystem f(3, {{512, 2}}, {2048, 4});
  f.access(0, 0x2000, 8, false);  // E
  f.access(1, 0x2000, 8, false);  // intervention on core 0 (clean): both S
  f.access(2, 0x2000, 8, false);  // S
  f.access(1, 0x2000, 8, true);   // upgrade: invalidates 0 and 2
  f.access(0, 0x2000, 8, false);  // coherence miss; intervention on core 1 (M): snoop writeback
  const CoherenceCounters t = f.coherence.total();
  EXPECT_EQ(f.coherence.counters(1).upgrades, 1u);
  EXPECT_EQ(f.coherence.counters(1).invalidations_sent, 2u);
  EXPECT_EQ(t.interventions, 2u);
  EXPECT_EQ(f.coherence.counters(1).snoop_writebacks, 1u);
  EXPECT_EQ(f.levels[0][0]->stats().coherence, 1u);
  EXPECT_EQ(f.levels[2][0]->stats().coherence_invalidations, 1u);
  // Lines nobody holds are forgotten: the directory tracks only resident lines.
  EXPECT_EQ(f.coherence.tracked_lines(), 1u);
}

// Private lines of 32 B under a 64 B directory line: a write to one half
// takes both halves of the line from the other core (false sharing across
// the private lines), and a core holds the line while it holds either half.
TEST(Coherence, SmallerPrivateLinesShareTheDirectoryLine) {
  Coherence coh(2, 64, 0, 0, 8);
  auto shared = make_cache_level(cache("S", 2048, 4, 64));
  MemoryCounter memory;
  shared->connect_below(&memory);
  coh.set_below(shared.get());
  std::vector<std::unique_ptr<CacheLevel>> l1;
  for (CoreId c = 0; c < 2; ++c) {
    l1.push_back(make_cache_level(cache("L1", 512, 2, 32)));
    coh.add_level(c, l1.back().get());
    l1.back()->connect_below(&coh.port(c));
  }
  l1[0]->access(MemRequest{0x1000, 4, false, 1, 0}, 0);  // core 0: the low half
  l1[0]->access(MemRequest{0x1020, 4, false, 1, 0}, 0);  // and the high half
  l1[1]->access(MemRequest{0x1024, 4, true, 1, 0}, 0);   // core 1 writes the high half: both of core 0's go
  EXPECT_EQ(coh.counters(1).invalidations_sent, 1u);
  EXPECT_EQ(l1[0]->stats().coherence_invalidations, 2u);
  EXPECT_FALSE(l1[0]->contains(0x1000));
  EXPECT_FALSE(l1[0]->contains(0x1020));
  l1[0]->access(MemRequest{0x1000, 4, true, 1, 0}, 0);  // core 0 writes the low half back
  EXPECT_EQ(l1[0]->stats().coherence, 1u);
  EXPECT_EQ(coh.counters(0).invalidations_sent, 1u);
  const std::vector<SharedLine> lines = coh.false_sharing(5);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].false_invalidations, 2u);  // bytes 0x00-0x03 and 0x20-0x23 against 0x24-0x27: disjoint
}

// A line core 0 wrote, then read by core 1: the fill comes from core 0's
// copy (a cache-to-cache transfer): the round trip (request and
// intervention on the directory's port, the coherence latency) and the
// line over that port; the slow shared level is not read (its dirty bytes
// are still written to it, posted). A line no core owns comes from the
// shared level as before.
TEST(Coherence, AFillFromAnOwnerIsACacheToCacheTransfer) {
  // latency 1000 fs, 10 fs a byte on the directory's port, 8 B messages.
  Coherence coh(2, 64, 1000, 10, 8);
  auto shared = make_cache_level(cache("S", 4096, 4, 64));
  shared->set_timing(50'000, 0);  // a slow shared level: a peer transfer is much faster
  MemoryCounter memory;
  shared->connect_below(&memory);
  coh.set_below(shared.get());
  std::vector<std::unique_ptr<CacheLevel>> l1;
  for (CoreId c = 0; c < 2; ++c) {
    CacheConfig cfg = cache("L1", 512, 2, 64);
    cfg.sharing = CacheSharing::Private;
    l1.push_back(make_cache_level(cfg));
    l1.back()->set_timing(100, 0);
    coh.add_level(c, l1.back().get());
    l1.back()->connect_below(&coh.port(c));
  }
  l1[0]->access(MemRequest{0x1000, 4, true, 1, 0}, 0);  // core 0: M
  const uint64_t reads_before = shared->stats().reads;
  const uint64_t t = 1'000'000;
  // L1 hit latency 100; request + intervention + answer 24 B x 10 = 240; latency 1000; the line 64 B x 10 = 640.
  EXPECT_EQ(l1[1]->access(MemRequest{0x1000, 4, false, 1, 0}, t), t + 100 + 240 + 1000 + 640);
  EXPECT_EQ(coh.counters(1).cache_to_cache, 1u);
  EXPECT_EQ(coh.counters(1).interventions, 1u);
  EXPECT_EQ(coh.counters(0).snoop_writebacks, 1u);
  EXPECT_EQ(shared->stats().reads, reads_before);  // not read for the fill
  EXPECT_EQ(shared->stats().writes, 1u);            // core 0's dirty bytes: the snoop writeback
  // A line nobody holds: from the shared level, its 50,000 fs latency.
  EXPECT_GE(l1[1]->access(MemRequest{0x2000, 4, false, 1, 0}, t), t + 50'000);
  EXPECT_EQ(coh.counters(1).cache_to_cache, 1u);
}

TEST(Coherence, TouchMask) {
  EXPECT_EQ(touch_mask(0x1000, 4, 6), 0xfull);
  EXPECT_EQ(touch_mask(0x1004, 4, 6), 0xf0ull);
  EXPECT_EQ(touch_mask(0x1000, 64, 6), ~0ull);
  EXPECT_EQ(touch_mask(0x103f, 1, 6), 1ull << 63);
  EXPECT_EQ(touch_mask(0x1000, 2, 7), 1ull);  // 128 B lines: a bit per 2 bytes
}

}  // namespace
}  // namespace ptosim::test
