// A stride prefetcher on the address stream. CPUs index their stride tables
// by the load's PC, which a trace does not carry, so streams are told apart
// by address: a read of line L belongs to the entry that predicted it
// (last + stride == L), else to the entry whose last line is nearest within
// kWindow lines, else it takes the least recently used entry. An entry
// prefetches once its stride has been confirmed twice in a row
// (confidence 2 of 3), proposing L + stride x (distance + i), i < degree.
// A read of an entry's last line again (more bytes of the same line) neither
// trains nor prefetches.
//
// The table is kept as arrays (the line each entry predicts, its last line)
// so that the scan every read makes is two tight loops over the entries in
// use, and a run of reads of one line (a packed panel's broadcasts) scans
// once, and the level does not even ask (Prefetcher::ignores): see on_read.
#include <cstdlib>
#include <vector>

#include "models/cache/prefetch/prefetcher.h"

namespace ptosim::prefetch {
namespace {

class Stride final : public Prefetcher {
 public:
  static constexpr int64_t kWindow = 1024;  // lines (64 KiB of 64 B lines)
  static constexpr uint32_t kMaxConfidence = 3, kConfident = 2;

  explicit Stride(const PrefetchConfig& c)
      : distance_(c.distance),
        degree_(c.degree),
        predicts_(c.table, kPredictsNothing),
        last_(c.table, kNoLine),
        stride_(c.table, 0),
        confidence_(c.table, 0),
        used_(c.table, 0) {}

  uint32_t on_read(const DemandRead& r, uint64_t* out) override {
    const int64_t line = int64_t(r.line);
    // The read before took the "same line again" branch after a full scan
    // (no entry predicts that line): a repeat of it finds the same entry
    // nearest and again no prediction, since only that entry's LRU stamp
    // changed, which the scan does not read. Nor does it need the stamp:
    // that branch made the entry the most recent, and every read since was
    // a repeat, so a new stamp would leave the entries' order (all the
    // stamps are compared for) as it is. The level asks ignores() first.
    if (r.line == ignored_line_) return 0;
    ignored_line_ = kIgnoresNothing;
    const size_t n = filled_;
    size_t hit = 0;
    while (hit < n && predicts_[hit] != line) ++hit;
    if (hit < n) {
      last_[hit] = line;
      used_[hit] = ++clock_;
      if (confidence_[hit] < kMaxConfidence) ++confidence_[hit];
      predicts_[hit] = line + stride_[hit];
      if (confidence_[hit] < kConfident) return 0;
      uint32_t k = 0;
      for (uint32_t i = 0; i < degree_; ++i) {
        const int64_t t = line + stride_[hit] * int64_t(distance_ + i);
        if (t >= 0) out[k++] = uint64_t(t);
      }
      return k;
    }
    // The first entry of the nearest last line within the window (an empty
    // entry's last line is out of every window).
    size_t near = n;
    int64_t near_d = kWindow + 1;
    for (size_t i = 0; i < n; ++i) {
      const int64_t d = std::llabs(line - last_[i]);
      if (d < near_d) {
        near_d = d;
        near = i;
      }
    }
    if (near < n && near_d == 0) {  // the same line again
      used_[near] = ++clock_;
      ignored_line_ = r.line;
      return 0;
    }
    if (near < n) {  // a new stride for the nearest stream
      if (confidence_[near] > 0) --confidence_[near];
      if (confidence_[near] == 0) stride_[near] = line - last_[near];
      set(near, line);
      return 0;
    }
    // The least recently used entry: the first empty one while there is one.
    size_t victim = filled_;
    if (filled_ < predicts_.size()) {
      ++filled_;
    } else {
      victim = 0;
      for (size_t i = 1; i < n; ++i)
        if (used_[i] < used_[victim]) victim = i;
    }
    stride_[victim] = 0;
    confidence_[victim] = 0;
    set(victim, line);
    return 0;
  }

 private:
  // No line is negative: an entry without a stride predicts this.
  static constexpr int64_t kPredictsNothing = -1;
  // An empty entry's last line: more than kWindow from every line (lines
  // are below 2^58), with no overflow in line - kNoLine.
  static constexpr int64_t kNoLine = -(int64_t(1) << 61);

  // Entry i's stream moves on to `line`.
  void set(size_t i, int64_t line) {
    last_[i] = line;
    used_[i] = ++clock_;
    predicts_[i] = stride_[i] != 0 ? line + stride_[i] : kPredictsNothing;
  }

  uint64_t distance_;
  uint32_t degree_;
  // Per entry: the line it predicts (last + stride), its last read's line,
  // its stride in lines (0 = not known yet), confidence, LRU stamp (0 = empty).
  std::vector<int64_t> predicts_, last_, stride_;
  std::vector<uint32_t> confidence_;
  std::vector<uint64_t> used_;
  uint64_t clock_ = 0;
  // Entries fill in order (an empty one is the least recently used, the
  // first of them the victim) and never empty again: those in use are the
  // first `filled_`, and only they are scanned.
  size_t filled_ = 0;
  // (ignored_line_: the line a repeat of which skips the scan.)
};

}  // namespace

PTOSIM_REGISTER(PrefetcherConcept, Stride, "stride", 7, "line + stride x (distance + i), i < degree, once a stream's stride has repeated "
                "twice (a CPU stride table, per stream instead of per PC)",
                make_from_config<Stride>, defaults_to("prefetch_distance", 4));

}  // namespace ptosim::prefetch
