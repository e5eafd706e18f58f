#pragma once
// Random replacement, seeded from the config so that runs repeat exactly.
// The generator is drawn only when a full set needs a victim.
#include <cstdint>

namespace ptosim::replacement {

// xorshift64*: small, fast, and the same sequence on every platform.
class Xorshift64 {
 public:
  explicit Xorshift64(uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) {
    if (s_ == 0) s_ = 1;
  }
  uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 0x2545F4914F6CDD1Dull;
  }

 private:
  uint64_t s_;
};

class Random {
 public:
  // A second touch of the most recently touched way changes nothing.
  static constexpr bool kKnowsMru = false;
  static constexpr bool kRepeatHitIsNoop = true;
  Random(uint64_t /*sets*/, uint32_t ways, uint64_t seed) : ways_(ways), rng_(seed) {}
  void on_hit(uint64_t, uint32_t) {}
  void on_fill(uint64_t, uint32_t) {}
  uint32_t victim(uint64_t) { return uint32_t(rng_.next() % ways_); }

 private:
  uint32_t ways_;
  Xorshift64 rng_;
};

}  // namespace ptosim::replacement

#include "models/cache/replacement/policy.h"
#include "sim/config/params.h"
namespace ptosim::replacement {
PTOSIM_REGISTER(ReplacementConcept, Random, "random", 2, "a seeded pseudo-random way (config seed)",
                &make_level_with<Random>);
// The level's `seed`, which this policy alone reads (sim/config/params.h).
PTOSIM_PARAMS(CacheConfig, RandomReplacement,
              param::count("seed", &CacheConfig::seed, 0)
                  .about(concepts::kReplacement, "random", "the seed of random replacement's generator", "7", 200));
}  // namespace ptosim::replacement
