// A stream prefetcher (the kind CPUs put at L2: Intel's streamer, IBM
// POWER's stream buffers). It follows the level's demand misses and first
// uses of prefetched lines, the reads that move a stream into new lines.
// A stream is trained by two steps in one direction, each within
// kTrainWindow lines of the last; it then runs ascending or descending,
// keeps `distance` lines ahead of its last demand line and proposes at most
// `degree` new lines per read. An entry is matched by a read within
// `distance` lines ahead of it; a read that matches nothing takes the least
// recently used entry, so on a random stream the entries keep restarting
// training and almost nothing is prefetched.
#include <vector>

#include "models/cache/prefetch/prefetcher.h"

namespace ptosim::prefetch {
namespace {

class Stream final : public Prefetcher {
 public:
  static constexpr int64_t kTrainWindow = 16;  // lines

  explicit Stream(const PrefetchConfig& c) : distance_(int64_t(c.distance)), degree_(c.degree), table_(c.table) {}

  uint32_t on_read(const DemandRead& r, uint64_t* out) override {
    if (!r.miss && !r.first_use) return 0;
    const int64_t line = int64_t(r.line);
    for (Entry& e : table_) {
      if (!e.used) continue;
      const int64_t ahead = (line - e.last) * e.dir;
      if (e.dir != 0 && e.confident && ahead > 0 && ahead <= distance_) {  // a running stream
        e.last = line;
        e.used = ++clock_;
        return issue(e, out);
      }
    }
    for (Entry& e : table_) {
      if (!e.used || e.confident) continue;
      const int64_t d = line - e.last;
      if (d == 0 || d > kTrainWindow || d < -kTrainWindow) continue;
      const int dir = d > 0 ? 1 : -1;
      e.used = ++clock_;
      e.last = line;
      if (e.dir == dir) {  // the second step in this direction: the stream runs
        e.confident = true;
        e.next = line + dir;
        return issue(e, out);
      }
      e.dir = dir;
      return 0;
    }
    least_recently_used(table_) = Entry{line, 0, 0, false, ++clock_};
    return 0;
  }

 private:
  struct Entry {
    int64_t last = 0;  // line of the stream's last demand read
    int64_t next = 0;  // next line to propose
    int dir = 0;       // +1 ascending, -1 descending, 0 unknown
    bool confident = false;
    uint64_t used = 0;  // LRU stamp; 0 = empty
  };
  // Proposes the lines from e.next up to distance ahead of e.last, at most degree.
  uint32_t issue(Entry& e, uint64_t* out) {
    if ((e.next - e.last) * e.dir <= 0) e.next = e.last + e.dir;  // the demand overtook the prefetches
    uint32_t n = 0;
    while (n < degree_ && (e.next - e.last) * e.dir <= distance_ && e.next >= 0) {
      out[n++] = uint64_t(e.next);
      e.next += e.dir;
    }
    return n;
  }

  int64_t distance_;
  uint32_t degree_;
  std::vector<Entry> table_;
  uint64_t clock_ = 0;
};

}  // namespace

PTOSIM_REGISTER(PrefetcherConcept, Stream, "stream", 8, "up to degree new lines a read, keeping distance lines ahead, ascending or "
                "descending (a CPU L2 streamer)",
                make_from_config<Stream>, defaults_to("prefetch_distance", 16), defaults_to("prefetch_degree", 4));

}  // namespace ptosim::prefetch
