#pragma once
// What `pto-sim curves` measures, from its flags and the config: the level,
// the geometries (every size x associativity that fits), and whether one
// pass can give `run`'s counts for them (the refusals and the stated
// approximation of docs/CACHES.md, "Miss curves"). Kept apart from the verb
// so that parsing and the exactness rules read on their own.
#include <cstdint>
#include <string>
#include <vector>

#include "models/cache/curves/miss_curves.h"
#include "sim/config/hw_config.h"

namespace ptosim::cli {

struct CurvePointSpec {
  uint64_t size = 0;              // bytes
  curves::Geometry geometry;      // sets == 1: fully associative
  bool full = false;              // asked for as `full`
};

struct CurvesPlan {
  size_t level = 0;               // index into `chain`
  std::vector<std::string> chain; // the global path's cache levels, L1 first
  const CacheConfig* cache = nullptr;
  std::vector<CurvePointSpec> points;
  std::vector<std::string> notes; // approximations and skipped points, for the output
  bool exact = true;
};

// "4KiB..1MiB:x2", "16KiB,48KiB", "1KiB..8KiB:+1KiB": byte sizes, ends included.
std::vector<uint64_t> parse_curve_sizes(const std::string& spec);
// "1,2,4,8,16,full", "1..16:x2": associativities; `full` sets *full.
std::vector<uint32_t> parse_curve_ways(const std::string& spec, bool* full);
// Throws InputError naming the flag or config key that makes one pass inexact
// when it cannot be handled; adds notes for what is approximated.
// `sizes` "" = the level's size / 8 .. x 8 (x2 steps); `ways` as --ways.
CurvesPlan plan_curves(const HwConfig& config, const std::string& level, const std::string& sizes,
                       const std::string& ways);

}  // namespace ptosim::cli
