#pragma once
// The exact logic of one cache level, free of SystemC: splits requests into
// lines, looks them up, applies the write policy, sends fills, writebacks and
// write-throughs to the level below, back-invalidates the levels above when it
// is inclusive, and counts everything (with 3C classification of misses).
#include <memory>
#include <vector>

#include "models/cache/cache_array.h"
#include "models/cache/level_stats.h"
#include "models/cache/mem_port.h"
#include "models/cache/miss_classifier.h"
#include "sim/config/hw_config.h"

namespace ptosim {

class CacheLevel : public MemPort {
 public:
  explicit CacheLevel(const CacheConfig& config);

  void connect_below(MemPort* below) { below_ = below; }
  // Levels above this one (nearest first); an inclusive level invalidates their copies.
  void set_levels_above(std::vector<CacheLevel*> above) { above_ = std::move(above); }

  void request(const MemRequest& r) override;
  // Writes every dirty line below (ascending address order), counted as writebacks.
  void flush();

  // Per-line outcome of the last request, for the timing skin (slots of the
  // first kMaxRecorded lines: enough for any fill of a level above).
  static constexpr uint64_t kNoSlot = ~0ull;
  static constexpr uint32_t kMaxRecorded = 64;
  struct LastRequest {
    uint32_t lines = 0, misses = 0, recorded = 0;
    uint64_t slot[kMaxRecorded];
    bool hit[kMaxRecorded];
  };
  const LastRequest& last() const { return last_; }

  const CacheConfig& config() const { return config_; }
  const LevelStats& stats() const { return stats_; }
  bool contains(uint64_t addr) const { return array_->contains(addr >> line_shift_); }

 private:
  void access_line(uint64_t line, uint64_t bytes, const MemRequest& r);
  void evict(const ArrayResult& res);
  bool invalidate_above(uint64_t line);
  void send_below(uint64_t addr, uint64_t bytes, bool write, TagId tensor, TagId region);

  CacheConfig config_;
  uint32_t line_shift_;
  std::unique_ptr<CacheArray> array_;
  MissClassifier classifier_;
  MemPort* below_ = nullptr;
  std::vector<CacheLevel*> above_;
  LevelStats stats_;
  LastRequest last_;
};

}  // namespace ptosim
