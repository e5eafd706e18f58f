// SHARDS sampling for `pto-sim curves --sample` (see sampled_curves.h).
#include "models/cache/curves/sampled_curves.h"

#include <cmath>

namespace ptosim::curves {
namespace {

constexpr int kParts = 4;

std::vector<Geometry> miniatures(const std::vector<Geometry>& points, double rate) {
  std::vector<Geometry> m;
  for (const Geometry& g : points) m.push_back(scaled(g, rate));
  return m;
}

double ratio(const Counts& c) { return c.accesses() ? double(c.misses()) / double(c.accesses()) : 0.0; }

// `c` (of a sample) scaled to `total` references.
uint64_t scale(uint64_t n, uint64_t sample, uint64_t total) {
  return sample ? uint64_t(std::llround(double(n) * double(total) / double(sample))) : 0;
}

}  // namespace

Geometry scaled(const Geometry& g, double rate) {
  if (g.sets == 1) return {1, uint32_t(std::max<long long>(1, std::llround(double(g.ways) * rate)))};
  return {uint64_t(std::max<long long>(1, std::llround(double(g.sets) * rate))), g.ways};
}

SampledCurves::SampledCurves(const std::vector<Geometry>& points, double rate)
    : points_(points), threshold_(uint32_t(std::llround(rate * double(1u << 24)))), all_(miniatures(points, rate)) {
  if (threshold_ == 0) threshold_ = 1;
  for (int i = 0; i < kParts; ++i) parts_.push_back(std::make_unique<MissCurves>(miniatures(points, rate / kParts)));
}

void SampledCurves::line(uint64_t line, bool write) {
  ++refs_[write];
  const uint32_t k = key(line);
  if (k >= threshold_) return;
  ++sampled_;
  all_.access(line, write);
  parts_[size_t(uint64_t(k) * kParts / threshold_)]->access(line, write);
}

void SampledCurves::invalidate_all() {
  all_.invalidate_all();
  for (auto& p : parts_) p->invalidate_all();
}

std::vector<SampledCounts> SampledCurves::counts() const {
  const std::vector<Counts> all = all_.counts();
  std::vector<std::vector<Counts>> parts;
  for (const auto& p : parts_) parts.push_back(p->counts());
  std::vector<SampledCounts> out;
  for (size_t i = 0; i < all.size(); ++i) {
    SampledCounts s;
    const Counts& a = all[i];
    const uint64_t n = a.accesses();
    s.counts.reads = refs_[0];
    s.counts.writes = refs_[1];
    s.counts.read_misses = scale(a.read_misses, a.reads, refs_[0]);
    s.counts.write_misses = scale(a.write_misses, a.writes, refs_[1]);
    const uint64_t total = refs_[0] + refs_[1];
    s.counts.compulsory = scale(a.compulsory, n, total);
    s.counts.conflict = scale(a.conflict, n, total);
    const uint64_t m = s.counts.misses();
    s.counts.compulsory = std::min(s.counts.compulsory, m);
    s.counts.conflict = std::min(s.counts.conflict, m - s.counts.compulsory);
    s.counts.capacity = m - s.counts.compulsory - s.counts.conflict;
    s.miss_ratio = ratio(a);
    double mean = 0, var = 0;
    for (const auto& p : parts) mean += ratio(p[i]) / kParts;
    for (const auto& p : parts) var += (ratio(p[i]) - mean) * (ratio(p[i]) - mean) / (kParts - 1);
    s.error = std::sqrt(var / kParts);
    out.push_back(s);
  }
  return out;
}

}  // namespace ptosim::curves
