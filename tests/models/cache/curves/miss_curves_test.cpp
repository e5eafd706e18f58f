// `pto-sim curves` promises the counts of separate runs: here the one-pass
// model (MissCurves behind a CurvePort) against one exact CacheLevel per
// geometry (the logic `run` uses), fed the same requests, at every size x
// associativity point, on random traces and on a kernel's trace.
#include <gtest/gtest.h>

#include <random>

#include "models/cache/curves/curve_port.h"
#include "models/cache/curves/fa_stack.h"
#include "models/cache/curves/miss_curves.h"
#include "models/cache/hierarchy.h"
#include "sim/config/config_loader.h"
#include "sim/frontend/frontend.h"

using namespace ptosim;
using namespace ptosim::curves;

namespace {

struct Req {
  MemRequest r;
  bool invalidate_all = false;
};

struct Counter : LineCounter {
  explicit Counter(const std::vector<Geometry>& g) : curves(g) {}
  void line(uint64_t l, bool write) override { curves.access(l, write); }
  void invalidate_all() override { curves.invalidate_all(); }
  MissCurves curves;
};

// Every point of sizes x ways (plus fully associative) that fits `line`.
std::vector<Geometry> grid(uint32_t line, std::vector<uint64_t> sizes, std::vector<uint32_t> ways) {
  std::vector<Geometry> g;
  for (uint64_t s : sizes) {
    const uint64_t lines = s / line;
    for (uint32_t w : ways)
      if (lines % w == 0 && lines / w > 1) g.push_back({lines / w, w});
    g.push_back({1, uint32_t(lines)});
  }
  return g;
}

void compare(const std::vector<Req>& reqs, uint32_t line, const std::vector<Geometry>& points,
             const std::string& what, bool write_through = false) {
  Counter counter(points);
  CurvePort port(line, counter);
  for (const Req& q : reqs) {
    if (q.invalidate_all) port.control(AccessKind::Invalidate, 0, 0, 0);
    else port.access(q.r, 0);
  }
  const std::vector<Counts> got = counter.curves.counts();
  for (size_t i = 0; i < points.size(); ++i) {
    CacheConfig c;
    c.name = "L1";
    c.line = line;
    c.ways = points[i].ways;
    c.size = points[i].lines() * line;
    c.write_back = !write_through;
    CacheHierarchy h({c});
    for (const Req& q : reqs) {
      if (q.invalidate_all) h.control(AccessKind::Invalidate, 0, 0);
      else h.access(q.r);
    }
    const LevelStats& s = h.levels()[0]->stats();
    const std::string where = what + ": " + std::to_string(c.size) + " B, " + std::to_string(c.ways) + " ways";
    EXPECT_EQ(got[i].reads, s.reads) << where;
    EXPECT_EQ(got[i].writes, s.writes) << where;
    EXPECT_EQ(got[i].read_misses, s.read_misses) << where;
    EXPECT_EQ(got[i].write_misses, s.write_misses) << where;
    EXPECT_EQ(got[i].compulsory, s.compulsory) << where;
    EXPECT_EQ(got[i].capacity, s.capacity) << where;
    EXPECT_EQ(got[i].conflict, s.conflict) << where;
  }
}

// Mixed phases: random lines over a footprint a few times the caches,
// sequential and strided walks (power-of-two strides: conflicts), writes,
// accesses that straddle lines, zero-sized ones, rare whole-cache invalidates.
std::vector<Req> random_trace(uint64_t seed, size_t n, uint64_t footprint) {
  std::mt19937_64 rng(seed);
  std::vector<Req> out;
  uint64_t cursor = 0;
  while (out.size() < n) {
    const int phase = int(rng() % 4);
    const size_t len = 50 + rng() % 2000;
    const uint64_t stride = phase == 2 ? (64ull << (rng() % 8)) : 4 + 60 * (rng() % 2);
    for (size_t i = 0; i < len && out.size() < n; ++i) {
      Req q;
      const bool write = rng() % 4 == 0;
      uint64_t bytes = 1ull << (rng() % 4);
      if (rng() % 50 == 0) bytes = rng() % 200;  // straddles lines; 0 touches one
      uint64_t addr = phase == 0 ? rng() % footprint : (cursor += stride) % footprint;
      if (phase == 3) addr = (rng() % 64) * 4096 + (rng() % 4) * 64;
      q.r = MemRequest{0x10000 + addr, bytes, write, 0, 0};
      if (rng() % 20000 == 0) q.invalidate_all = true;
      out.push_back(q);
    }
  }
  return out;
}

// The accesses of a .pto program, as the core hands them to the first level.
struct Collect : EventSink {
  std::vector<Req> reqs;
  void access(const Access& a) override {
    if (is_control(a.kind)) return;
    reqs.push_back(Req{MemRequest{a.addr, a.bytes, (uint8_t(a.kind) & 1) != 0, 0, 0}});
  }
  void compute(const Compute&) override {}
};

std::vector<Req> kernel_trace(const std::string& program, std::vector<std::pair<std::string, std::string>> defines) {
  ProgramOptions o;
  o.defines = std::move(defines);
  Collect sink;
  const HwConfig config = default_config();
  run_program(std::string(PTOSIM_SOURCE_DIR) + "/workloads/" + program, config, o, &sink);
  return sink.reqs;
}

}  // namespace

TEST(FaStack, BucketsAreStackDistances) {
  // Reference: a plain LRU list; distance = position + 1.
  std::mt19937_64 rng(7);
  const std::vector<uint64_t> bounds = {1, 2, 3, 5, 8, 16, 40};
  FaStack fa(bounds);
  std::vector<uint64_t> list;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t line = rng() % (i % 3 ? 30 : 70);
    size_t pos = 0;
    while (pos < list.size() && list[pos] != line) ++pos;
    uint32_t want = uint32_t(bounds.size());
    if (pos < list.size()) {
      want = uint32_t(std::lower_bound(bounds.begin(), bounds.end(), pos + 1) - bounds.begin());
      list.erase(list.begin() + long(pos));
    }
    list.insert(list.begin(), line);
    ASSERT_EQ(fa.touch(line), want) << "reference " << i;
  }
}

TEST(MissCurves, EqualsSeparateLevelsOnRandomTraces) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const std::vector<Req> t = random_trace(seed, 60000, 64 * 1024 << (seed % 3));
    compare(t, 64, grid(64, {1024, 2048, 4096, 8192, 16384, 32768}, {1, 2, 4, 8, 16}), "random " + std::to_string(seed));
  }
}

TEST(MissCurves, OddSetCountsAndOtherLines) {
  const std::vector<Req> t = random_trace(9, 40000, 48 * 1024);
  // 3, 5, 6 and 12 ways: set counts that are no powers of two (modulo indexing).
  compare(t, 32, grid(32, {960, 1920, 3840, 7680}, {1, 3, 5, 6, 12}), "odd sets");
  compare(t, 128, grid(128, {2048, 8192, 65536}, {1, 2, 4, 8}), "128 B lines");
}

TEST(MissCurves, WriteThroughCountsTheSame) {
  const std::vector<Req> t = random_trace(11, 30000, 32 * 1024);
  compare(t, 64, grid(64, {2048, 8192}, {1, 4}), "write-through", true);
}

TEST(MissCurves, EqualsSeparateLevelsOnKernelTraces) {
  const std::vector<Req> matmul = kernel_trace("matmul_naive.pto", {{"M", "24"}, {"N", "40"}, {"K", "32"}});
  ASSERT_GT(matmul.size(), 50000u);
  compare(matmul, 64, grid(64, {1024, 2048, 4096, 8192, 16384}, {1, 2, 4, 8, 16}), "matmul_naive");
  const std::vector<Req> tiled = kernel_trace("matmul_tiled.pto", {{"M", "64"}, {"N", "64"}, {"K", "64"}});
  compare(tiled, 64, grid(64, {2048, 8192, 32768}, {1, 2, 8}), "matmul_tiled");
}
