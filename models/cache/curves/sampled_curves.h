#pragma once
// `pto-sim curves --sample RATE`: SHARDS (Waldspurger et al., FAST'15)
// spatial sampling. A line takes part when a hash of its number falls under
// RATE x 2^24, so every reference of a sampled line is seen and none of the
// others; each geometry is then simulated in miniature (Waldspurger et
// al., ATC'17: the sets, or a fully associative size, scaled by RATE, the
// ways kept), which is SHARDS' distance scaling by 1/RATE for every cache
// of the set count, and the miss ratios are those of the miniatures
// (SHARDS_adj: over the references actually sampled). The error is
// estimated from four disjoint quarter samples (the spread of their ratios
// over sqrt(4)); the counts are exact only with RATE 1.
#include <array>
#include <memory>
#include <vector>

#include "models/cache/curves/curve_port.h"
#include "models/cache/curves/miss_curves.h"

namespace ptosim::curves {

// The miniature of `g` at `rate`.
Geometry scaled(const Geometry& g, double rate);

struct SampledCounts {
  Counts counts;              // estimated (reads and writes exact)
  double miss_ratio = 0;      // of the sample
  double error = 0;           // estimated standard error of miss_ratio
};

class SampledCurves final : public LineCounter {
 public:
  SampledCurves(const std::vector<Geometry>& points, double rate);
  void line(uint64_t line, bool write) override;
  void invalidate_all() override;
  std::vector<SampledCounts> counts() const;
  uint64_t sampled_references() const { return sampled_; }

 private:
  static uint32_t key(uint64_t line) { return uint32_t((line * 0x9E3779B97F4A7C15ull) >> 40); }  // 24 bits
  std::vector<Geometry> points_;
  uint32_t threshold_;
  MissCurves all_;
  std::vector<std::unique_ptr<MissCurves>> parts_;  // disjoint quarter samples
  std::array<uint64_t, 2> refs_{};                  // every reference, by kind
  uint64_t sampled_ = 0;
};

}  // namespace ptosim::curves
