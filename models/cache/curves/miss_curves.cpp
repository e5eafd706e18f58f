// One-pass LRU miss counts for many geometries (see miss_curves.h).
#include "models/cache/curves/miss_curves.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace ptosim::curves {
namespace {

std::vector<uint64_t> distinct_sizes(const std::vector<Geometry>& points) {
  std::vector<uint64_t> b;
  for (const Geometry& g : points) {
    if (g.sets == 0 || g.ways == 0) throw std::invalid_argument("MissCurves: empty geometry");
    b.push_back(g.lines());
  }
  std::sort(b.begin(), b.end());
  b.erase(std::unique(b.begin(), b.end()), b.end());
  return b;
}

}  // namespace

MissCurves::MissCurves(const std::vector<Geometry>& points)
    : points_(points), bounds_(distinct_sizes(points)), fa_(bounds_), buckets_(uint32_t(bounds_.size() + 1)),
      seen_(std::make_unique<SeenLines>()) {
  std::map<uint64_t, uint32_t> depth;  // set count -> the widest ways asked for
  for (const Geometry& g : points_)
    if (g.sets > 1) depth[g.sets] = std::max(depth[g.sets], g.ways);
  std::map<uint64_t, int32_t> group_of;
  for (auto& [sets, ways] : depth) {
    group_of[sets] = int32_t(groups_.size());
    const size_t cells = size_t(ways + 1) * buckets_;
    groups_.push_back(Group{SetStacks(sets, ways), {std::vector<uint64_t>(cells), std::vector<uint64_t>(cells)}});
  }
  for (const Geometry& g : points_) {
    point_bucket_.push_back(uint32_t(std::lower_bound(bounds_.begin(), bounds_.end(), g.lines()) - bounds_.begin()));
    point_group_.push_back(g.sets > 1 ? group_of[g.sets] : -1);
  }
  for (auto& h : fa_hist_) h.assign(buckets_, 0);
}

void MissCurves::step(uint64_t line, bool write) {
  const bool first = seen_->insert(line);
  const uint32_t b = fa_.touch(line);
  if (first) {
    ++compulsory_[write];
    for (Group& g : groups_) g.stacks.touch(line);
    return;
  }
  ++fa_hist_[write][b];
  for (Group& g : groups_) {
    const uint32_t d = g.stacks.touch(line);
    ++g.hist[write][size_t(d - 1) * buckets_ + b];
  }
}

void MissCurves::invalidate_all() {
  fa_.clear();
  for (Group& g : groups_) g.stacks.clear();
  seen_ = std::make_unique<SeenLines>();
  last_ = ~0ull;
}

void MissCurves::base_counts(Counts& c) const {
  for (int k = 0; k < 2; ++k) {
    uint64_t n = compulsory_[k] + repeats_[k];
    for (uint64_t v : fa_hist_[k]) n += v;
    (k ? c.writes : c.reads) = n;
  }
  c.compulsory = compulsory_[0] + compulsory_[1];
}

// A fully associative cache of bounds_[bucket] lines: its own 3C shadow,
// so no conflicts.
Counts MissCurves::fully_associative(uint32_t bucket) const {
  Counts c;
  base_counts(c);
  for (int k = 0; k < 2; ++k) {
    uint64_t m = compulsory_[k];
    for (uint32_t b = bucket + 1; b < buckets_; ++b) m += fa_hist_[k][b];
    (k ? c.write_misses : c.read_misses) = m;
  }
  c.capacity = c.misses() - c.compulsory;
  return c;
}

// `ways` of the group's sets: a reference misses when its set depth exceeds
// them; a miss is a conflict when the fully associative shadow of the same
// lines (bounds_[bucket]) would have hit it.
Counts MissCurves::set_associative(const Group& g, uint32_t ways, uint32_t bucket) const {
  Counts c;
  base_counts(c);
  for (int k = 0; k < 2; ++k) {
    uint64_t m = compulsory_[k];
    for (uint32_t d = ways + 1; d <= g.stacks.depth() + 1; ++d)
      for (uint32_t b = 0; b < buckets_; ++b) {
        const uint64_t n = g.hist[k][size_t(d - 1) * buckets_ + b];
        m += n;
        if (b <= bucket) c.conflict += n;
      }
    (k ? c.write_misses : c.read_misses) = m;
  }
  c.capacity = c.misses() - c.compulsory - c.conflict;
  return c;
}

std::vector<Counts> MissCurves::counts() const {
  std::vector<Counts> out;
  for (size_t i = 0; i < points_.size(); ++i)
    out.push_back(point_group_[i] < 0 ? fully_associative(point_bucket_[i])
                                      : set_associative(groups_[size_t(point_group_[i])], points_[i].ways,
                                                        point_bucket_[i]));
  return out;
}

}  // namespace ptosim::curves
