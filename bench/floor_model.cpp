// The speed floor of the replay benchmark: the least work that produces the
// exact counts pto-sim reports for a din trace on the default config's
// caches (L1 32 KiB 8-way, L2 256 KiB 8-way, 64 B lines, LRU, write-back,
// write-allocate, non-inclusive), 3C classification at both levels included,
// and nothing else: no parsing in the timed part (the trace is read into
// memory first), no timing model, no per-tensor rows, no SystemC, one file of
// fixed-geometry code. What pto-sim does beyond this (parsing, the clock,
// ports, MSHRs, the miss window, DRAM banks, reports) costs on top.
//
// run_benchmarks.py runs it beside pto-sim and checks that its counts equal
// the report's, so the two did the same cache work; the ratio of their rates
// is a measure of the simulator's overhead that does not drift with this
// VM's speed the way a wall time does.
//
// usage: floor_model TRACE.din [REPS]   (prints one JSON object)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr uint32_t kLineShift = 6, kWays = 8;

// Fully associative LRU of `cap` lines (the 3C shadow): a list threaded
// through node indices, and an open-addressing map line -> node.
class Shadow {
 public:
  explicit Shadow(uint32_t cap) : cap_(cap), nodes_(cap + 1) {
    nodes_[cap].prev = nodes_[cap].next = cap;  // sentinel
    size_t n = 1;
    while (n < 8ull * cap) n <<= 1;
    resize(n);
  }
  bool holds(uint32_t node, uint64_t line) const { return nodes_[node].line == line; }
  void touch(uint32_t n) {
    if (nodes_[cap_].next == n) return;
    unlink(n);
    link_front(n);
  }
  // An access the real cache missed (or one it hit but the shadow lost):
  // 0 = the shadow holds it (conflict), 1 = first touch, 2 = capacity.
  int access(uint64_t line, uint32_t* node) {
    const size_t s = slot(line);
    if (keys_[s] && node_of_[s] >= 0) {
      *node = uint32_t(node_of_[s]);
      touch(*node);
      return 0;
    }
    const int verdict = keys_[s] ? 2 : 1;
    if (verdict == 1 && ++seen_ * 2 > keys_.size()) return grow(), access(line, node);
    keys_[s] = line + 1;
    uint32_t n;
    if (used_ < cap_) {
      n = used_++;
    } else {
      n = nodes_[cap_].prev;
      unlink(n);
      node_of_[nodes_[n].where] = -1;
    }
    nodes_[n].line = line;
    nodes_[n].where = s;
    node_of_[s] = int32_t(n);
    link_front(n);
    *node = n;
    return verdict;
  }

 private:
  struct Node {
    uint32_t prev = 0, next = 0;
    uint64_t line = ~0ull;
    size_t where = 0;
  };
  void resize(size_t n) {
    keys_.assign(n, 0);
    node_of_.assign(n, -1);
    mask_ = n - 1;
  }
  // The map holds every line ever seen (for "first touch"): it doubles at half load.
  void grow() {
    --seen_;  // access() counts the line again
    std::vector<uint64_t> keys;
    std::vector<int32_t> node_of;
    keys.swap(keys_);
    node_of.swap(node_of_);
    resize(keys.size() * 2);
    for (size_t i = 0; i < keys.size(); ++i) {
      if (!keys[i]) continue;
      const size_t s = slot(keys[i] - 1);
      keys_[s] = keys[i];
      node_of_[s] = node_of[i];
      if (node_of[i] >= 0) nodes_[size_t(node_of[i])].where = s;
    }
  }
  size_t slot(uint64_t line) const {
    size_t i = (line * 0x9E3779B97F4A7C15ull) >> 20 & mask_;
    while (keys_[i] && keys_[i] != line + 1) i = (i + 1) & mask_;
    return i;
  }
  void unlink(uint32_t i) {
    nodes_[nodes_[i].prev].next = nodes_[i].next;
    nodes_[nodes_[i].next].prev = nodes_[i].prev;
  }
  void link_front(uint32_t i) {
    nodes_[i].prev = cap_;
    nodes_[i].next = nodes_[cap_].next;
    nodes_[nodes_[cap_].next].prev = i;
    nodes_[cap_].next = i;
  }
  uint32_t cap_, used_ = 0;
  size_t seen_ = 0;
  std::vector<Node> nodes_;
  std::vector<uint64_t> keys_;
  std::vector<int32_t> node_of_;
  size_t mask_;
};

struct Counts {
  uint64_t reads = 0, writes = 0, read_misses = 0, write_misses = 0, evictions = 0, writebacks = 0;
  uint64_t by_class[3] = {0, 0, 0};  // conflict, compulsory, capacity (Shadow::access's verdicts)
};

// One 8-way LRU write-back write-allocate level; `below` gets fills (reads)
// and writebacks (writes), a null `below` only counts them.
class Level {
 public:
  Level(uint64_t bytes, Level* below)
      : sets_(uint32_t(bytes >> kLineShift) / kWays), below_(below), tags_(size_t(sets_) * kWays, 0),
        dirty_(tags_.size(), 0), node_(tags_.size(), 0), order_(sets_, 0x76543210u), shadow_(uint32_t(bytes >> kLineShift)) {}

  // `whole`: a write of the whole line, which allocates without a fetch (Dinero IV).
  void access(uint64_t line, bool write, bool whole = false) {
    ++(write ? c.writes : c.reads);
    const uint32_t set = uint32_t(line & (sets_ - 1));
    const size_t base = size_t(set) * kWays;
    uint32_t& order = order_[set];  // ways by recency, a nibble each, most recent lowest
    for (uint32_t w = 0; w < kWays; ++w) {
      if (tags_[base + w] != line + 1) continue;
      uint32_t pos = 0;
      while (((order >> (4 * pos)) & 15) != w) ++pos;
      const uint32_t below_pos = (1u << (4 * pos)) - 1;
      order = (order & ~((below_pos << 4) | 15u)) | ((order & below_pos) << 4) | w;
      dirty_[base + w] |= write;
      const uint32_t n = node_[base + w];
      if (shadow_.holds(n, line)) shadow_.touch(n);
      else shadow_.access(line, &node_[base + w]);  // the set kept a line the shadow had dropped
      return;
    }
    ++(write ? c.write_misses : c.read_misses);
    const uint32_t victim = order >> 28;
    const size_t i = base + victim;
    uint32_t n;
    ++c.by_class[shadow_.access(line, &n)];
    // Dinero IV's order: the fill goes below first, the victim's writeback after.
    const uint64_t old = tags_[i];
    const bool old_dirty = dirty_[i];
    if (below_ && !(write && whole)) below_->access(line, false);
    if (old) {
      ++c.evictions;
      if (old_dirty) {
        ++c.writebacks;
        if (below_) below_->access(old - 1, true, true);
      }
    }
    tags_[i] = line + 1;
    dirty_[i] = write;
    node_[i] = n;
    order = (order << 4) | victim;
  }

  Counts c;

 private:
  uint32_t sets_;
  Level* below_;
  std::vector<uint64_t> tags_;
  std::vector<uint8_t> dirty_;
  std::vector<uint32_t> node_;
  std::vector<uint32_t> order_;
  Shadow shadow_;
};

struct Request {
  uint64_t line;
  bool write;
  bool whole;  // the access covers the whole line
};

// din: `<type> <hex address> [<hex size>]`; types 0 (read) and 1 (write) and
// their letters; anything else is skipped, as pto-sim counts and skips it.
// (Not timed; kept simple, and strict only as far as pto-sim's traces need.)
bool hex_field(const char*& p, unsigned long long* v) {
  while (*p == ' ' || *p == '\t') ++p;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
  const char* start = p;
  unsigned long long x = 0;
  for (;; ++p) {
    const char c = *p;
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) break;
    x = x << 4 | unsigned(d);
  }
  *v = x;
  return p != start;
}

std::vector<Request> read_din(const char* path) {
  FILE* f = std::fopen(path, "r");
  if (!f) {
    std::fprintf(stderr, "floor_model: cannot open %s\n", path);
    std::exit(2);
  }
  std::vector<Request> out;
  char line[256];
  while (std::fgets(line, sizeof line, f)) {
    const char* p = line;
    while (*p == ' ' || *p == '\t') ++p;
    const char t = *p++;
    const bool write = t == 'w' || t == '1';
    if (!write && t != 'r' && t != '0') continue;
    unsigned long long addr, size;
    if (!hex_field(p, &addr)) continue;
    if (!hex_field(p, &size) || size == 0) size = 1;
    for (uint64_t l = addr >> kLineShift; l <= (addr + size - 1) >> kLineShift; ++l) {
      const uint64_t lo = std::max<uint64_t>(addr, l << kLineShift), hi = std::min<uint64_t>(addr + size, (l + 1) << kLineShift);
      out.push_back({l, write, hi - lo == (uint64_t(1) << kLineShift)});
    }
  }
  std::fclose(f);
  return out;
}

void print_level(const char* name, const Counts& c, bool last) {
  std::printf(
      "    {\"name\": \"%s\", \"reads\": %llu, \"writes\": %llu, \"read_misses\": %llu, \"write_misses\": %llu, "
      "\"evictions\": %llu, \"writebacks\": %llu, \"compulsory_misses\": %llu, \"capacity_misses\": %llu, "
      "\"conflict_misses\": %llu}%s\n",
      name, (unsigned long long)c.reads, (unsigned long long)c.writes, (unsigned long long)c.read_misses,
      (unsigned long long)c.write_misses, (unsigned long long)c.evictions, (unsigned long long)c.writebacks,
      (unsigned long long)c.by_class[1], (unsigned long long)c.by_class[2], (unsigned long long)c.by_class[0],
      last ? "" : ",");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: floor_model TRACE.din [REPS]\n");
    return 2;
  }
  const int reps = argc == 3 ? std::atoi(argv[2]) : 3;
  if (reps < 1) {
    std::fprintf(stderr, "floor_model: REPS must be at least 1\n");
    return 2;
  }
  const std::vector<Request> trace = read_din(argv[1]);
  double best = 1e30;
  Counts l1c, l2c;
  for (int r = 0; r < reps; ++r) {
    Level l2(256 << 10, nullptr), l1(32 << 10, &l2);
    const auto t0 = std::chrono::steady_clock::now();
    for (const Request& q : trace) l1.access(q.line, q.write, q.whole);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s < best) best = s;
    l1c = l1.c;
    l2c = l2.c;
  }
  std::printf("{\n  \"accesses\": %zu,\n  \"seconds\": %.6f,\n  \"accesses_per_second\": %.0f,\n  \"levels\": [\n",
              trace.size(), best, double(trace.size()) / best);
  print_level("L1", l1c, false);
  print_level("L2", l2c, true);
  std::printf("  ]\n}\n");
  return 0;
}
