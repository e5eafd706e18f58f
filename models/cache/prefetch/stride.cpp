// A stride prefetcher on the address stream. CPUs index their stride tables
// by the load's PC, which a trace does not carry, so streams are told apart
// by address: a read of line L belongs to the entry that predicted it
// (last + stride == L), else to the entry whose last line is nearest within
// kWindow lines, else it takes the least recently used entry. An entry
// prefetches once its stride has been confirmed twice in a row
// (confidence 2 of 3), proposing L + stride x (distance + i), i < degree.
// A read of an entry's last line again (more bytes of the same line) neither
// trains nor prefetches.
#include <cstdlib>
#include <vector>

#include "models/cache/prefetch/prefetcher.h"

namespace ptosim::prefetch {
namespace {

class Stride final : public Prefetcher {
 public:
  static constexpr int64_t kWindow = 1024;  // lines (64 KiB of 64 B lines)
  static constexpr uint32_t kMaxConfidence = 3, kConfident = 2;

  explicit Stride(const PrefetchConfig& c) : distance_(c.distance), degree_(c.degree), table_(c.table) {}

  uint32_t on_read(const DemandRead& r, uint64_t* out) override {
    const int64_t line = int64_t(r.line);
    Entry* hit = nullptr;
    Entry* near = nullptr;
    int64_t near_d = kWindow + 1;
    for (Entry& e : table_) {
      if (!e.used) continue;
      if (e.stride != 0 && e.last + e.stride == line) {
        hit = &e;
        break;
      }
      const int64_t d = std::llabs(line - e.last);
      if (d < near_d) {
        near_d = d;
        near = &e;
      }
    }
    if (!hit && near && near_d == 0) {  // the same line again
      near->used = ++clock_;
      return 0;
    }
    if (hit) {
      hit->last = line;
      hit->used = ++clock_;
      if (hit->confidence < kMaxConfidence) ++hit->confidence;
      if (hit->confidence < kConfident) return 0;
      uint32_t n = 0;
      for (uint32_t i = 0; i < degree_; ++i) {
        const int64_t t = line + hit->stride * int64_t(distance_ + i);
        if (t >= 0) out[n++] = uint64_t(t);
      }
      return n;
    }
    if (near) {  // a new stride for the nearest stream
      if (near->confidence > 0) --near->confidence;
      if (near->confidence == 0) near->stride = line - near->last;
      near->last = line;
      near->used = ++clock_;
      return 0;
    }
    least_recently_used(table_) = Entry{line, 0, 0, ++clock_};
    return 0;
  }

 private:
  struct Entry {
    int64_t last = 0;    // line of the stream's last read
    int64_t stride = 0;  // lines; 0 = not known yet
    uint32_t confidence = 0;
    uint64_t used = 0;  // LRU stamp; 0 = empty
  };
  uint64_t distance_;
  uint32_t degree_;
  std::vector<Entry> table_;
  uint64_t clock_ = 0;
};

}  // namespace

PTOSIM_REGISTER(PrefetcherConcept, Stride, "stride", 7, "line + stride x (distance + i), i < degree, once a stream's stride has repeated "
                "twice (a CPU stride table, per stream instead of per PC)",
                make_from_config<Stride>, defaults_to("prefetch_distance", 4));

}  // namespace ptosim::prefetch
