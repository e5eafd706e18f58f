#pragma once
// The exact logic of one cache level, free of SystemC: splits requests into
// lines, looks them up, applies the write policy, sends fills, writebacks and
// write-throughs to the level below, back-invalidates the levels above when it
// is inclusive, and counts everything (with 3C classification of misses).
//
// This is the interface; cache_level_impl.h implements it once per
// replacement policy (so the per-line path is compiled with the policy
// inlined), and make_cache_level() picks the implementation by name.
#include <memory>
#include <string>
#include <vector>

#include "models/cache/level_stats.h"
#include "models/cache/mem_port.h"
#include "sim/config/hw_config.h"

namespace ptosim {

class CacheLevel : public MemPort {
 public:
  ~CacheLevel() override = default;

  void connect_below(MemPort* below) { below_ = below; }
  // Levels above this one (nearest first); an inclusive level invalidates their copies.
  void set_levels_above(std::vector<CacheLevel*> above) { above_ = std::move(above); }

  // request() (from MemPort) serves a read or write of any size.
  // Writes every dirty line below (ascending address order), counted as writebacks.
  virtual void flush() = 0;
  virtual bool contains(uint64_t addr) const = 0;
  // The hit fast path: serves a request that fits in one line, hits, and
  // needs nothing from below (not a write-through write), exactly as
  // request() would, and returns its slot; otherwise changes nothing and
  // returns false. last() describes request() calls only.
  virtual bool try_hit(const MemRequest& r, uint64_t* slot) = 0;

  // Per-line outcome of the last request, for the timing skin (slots of the
  // first kMaxRecorded lines: enough for any fill of a level above).
  static constexpr uint64_t kNoSlot = ~0ull;
  static constexpr uint32_t kMaxRecorded = 64;
  struct LastRequest {
    uint32_t lines = 0, misses = 0, recorded = 0;
    uint64_t slot[kMaxRecorded];
    uint32_t hit[kMaxRecorded];  // a flag; not bool (char stores alias everything)
  };
  const LastRequest& last() const { return last_; }

  const CacheConfig& config() const { return config_; }
  const LevelStats& stats() const { return stats_; }

 protected:
  explicit CacheLevel(const CacheConfig& config);
  virtual bool invalidate_line(uint64_t line, bool* was_dirty) = 0;
  // Invalidates the copies above of this level's `line`; true if one was dirty.
  bool invalidate_above(uint64_t line);
  void send_below(uint64_t addr, uint64_t bytes, bool write, TagId tensor, TagId region) {
    below_->request(MemRequest{addr, bytes, write, tensor, region});
  }

  CacheConfig config_;
  uint32_t line_shift_;
  MemPort* below_ = nullptr;
  std::vector<CacheLevel*> above_;
  LevelStats stats_;
  LastRequest last_;
};

// Throws std::invalid_argument for an unknown replacement policy.
std::unique_ptr<CacheLevel> make_cache_level(const CacheConfig& config);

}  // namespace ptosim
