#include "sim/host/host_probe.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>

#include "sim/host/thread_clock.h"

namespace ptosim::host {
namespace {
// n 1-cycle dependent adds the compiler cannot fold (the asm hides the
// value), seconds. Register + register adds: Intel's Golden Cove and later
// cores fold an add of a small immediate into the renamer, so `add $1`
// chains ran 3.7x faster than the clock on an Emerald Rapids VM (10.8 GHz
// "measured", 2.9 by this chain, by an imul chain at 3 cycles and by an
// xor chain alike).
// The loop is asm as a whole, its start aligned to 64 bytes: code the
// compiler placed around the adds moved the four-chain reading by 1.8x on
// a Zen 5 VM (below).
template <class Loop>
double thread_seconds(Loop loop) {
  const double t0 = thread_cpu_s();
  loop();
  return thread_cpu_s() - t0;
}
__attribute__((noinline)) double add_chain_s(uint64_t n) {
  uint64_t x = 0, one = 1, steps = n / 8;
  return thread_seconds([&] {
#if defined(__x86_64__)
    if (steps)
      asm volatile(
          ".p2align 6\n1:\n\t"
          "add %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\t"
          "add %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\t"
          "sub $1, %1\n\tjnz 1b"
          : "+r"(x), "+r"(steps)
          : "r"(one)
          : "cc");
#else
    for (uint64_t i = 0; i < n; ++i) asm volatile("" : "+r"(x)), x += one;
#endif
    asm volatile("" ::"r"(x));
  });
}
}  // namespace

// The best of many short runs (a few ms each: on a shared machine a short
// run is more likely to have the core to itself for its whole length).
double measure_clock_hz() {
  const uint64_t n = 8'000'000;
  double best = 1e30;
  for (int r = 0; r < 40; ++r) best = std::min(best, add_chain_s(n));
  return double(n) / best;
}

#if defined(__x86_64__)
namespace {
#define PTO_X8(s) s s s s s s s s
// Seconds per step of `step(n)` (n steps), the best of many short runs.
template <class Step>
double best_per_step(Step step, uint64_t n) {
  double best = 1e30;
  for (int r = 0; r < 20; ++r) {
    const double t0 = thread_cpu_s();
    step(n);
    best = std::min(best, thread_cpu_s() - t0);
  }
  return best / double(n);
}
}  // namespace

// Each a chain of eight dependent scalar single-precision instructions a
// statement (what the calibration kernels compile to: -fno-tree-vectorize,
// no FMA contraction), so a step takes the instruction's latency. Operands
// keep the value normal (x + 1e-9, x * 1, sqrt of a value near 1): no
// denormal assists.
OpLatencies measure_op_latencies(double clock_hz) {
  OpLatencies o;
  const uint64_t n = 2'000'000;
  const float tiny = 1e-9f, unit = 1.0f, zero = 0.0f;
  auto cycles = [&](double s) { return s * clock_hz; };
  o.add = cycles(best_per_step(
      [&](uint64_t n) {
        float x = 1;
        for (uint64_t i = 0; i < n; i += 8) asm volatile(PTO_X8("addss %1, %0\n\t") : "+x"(x) : "x"(tiny));
      },
      n));
  o.mul = cycles(best_per_step(
      [&](uint64_t n) {
        float x = 1;
        for (uint64_t i = 0; i < n; i += 8) asm volatile(PTO_X8("mulss %1, %0\n\t") : "+x"(x) : "x"(unit));
      },
      n));
  o.div = cycles(best_per_step(
      [&](uint64_t n) {
        float x = 1;
        for (uint64_t i = 0; i < n; i += 8) asm volatile(PTO_X8("divss %1, %0\n\t") : "+x"(x) : "x"(unit));
      },
      n / 4));
  o.sqrt = cycles(best_per_step(
      [&](uint64_t n) {
        float x = 2;
        for (uint64_t i = 0; i < n; i += 8) asm volatile(PTO_X8("sqrtss %0, %0\n\t") : "+x"(x));
      },
      n / 4));
  if (__builtin_cpu_supports("fma"))
    o.fma = cycles(best_per_step(
        [&](uint64_t n) {
          float x = 1;
          for (uint64_t i = 0; i < n; i += 8)
            asm volatile(PTO_X8("vfmadd231ss %1, %2, %0\n\t") : "+x"(x) : "x"(unit), "x"(zero));
        },
        n));
  // A value stored and loaded back, then added to: the load waits for the
  // store queue to forward it (no memory renaming of xmm registers on the
  // Golden Cove measured: 8 cycles a step, 2 of them the add).
  static float cell[16] = {1};
  const double chain = cycles(best_per_step(
      [&](uint64_t n) {
        float t;
        for (uint64_t i = 0; i < n; i += 8)
          asm volatile(PTO_X8("movss (%1), %0\n\taddss %2, %0\n\tmovss %0, (%1)\n\t")
                       : "=&x"(t)
                       : "r"(cell), "x"(tiny)
                       : "memory");
      },
      n));
  o.forward = std::max(0.0, chain - o.add);
  return o;
}
#undef PTO_X8
#else
OpLatencies measure_op_latencies(double) { return {}; }
#endif

namespace {
// n adds as four independent chains, seconds, the loop asm as add_chain_s's
// is. On a Zen 5 VM the same eight adds read 2.0, 2.7 or 3.8 adds a cycle
// on an idle core as the compiler's code around them changed (register
// copies GCC put into the loop, the loop's placement), where the op
// suite's canary (bench/fidelity/timing.h) and the loop alone read 3.6-3.9.
__attribute__((noinline)) double add_spread_s(uint64_t n) {
  uint64_t a = 0, b = 0, c = 0, d = 0, one = 1, steps = n / 8;
  return thread_seconds([&] {
#if defined(__x86_64__)
    if (steps)
      asm volatile(
          ".p2align 6\n1:\n\t"
          "add %5, %0\n\tadd %5, %1\n\tadd %5, %2\n\tadd %5, %3\n\t"
          "add %5, %0\n\tadd %5, %1\n\tadd %5, %2\n\tadd %5, %3\n\t"
          "sub $1, %4\n\tjnz 1b"
          : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(steps)
          : "r"(one)
          : "cc");
#else
    for (uint64_t i = 0; i < n; i += 4)
      asm volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d)), a += one, b += one, c += one, d += one;
#endif
    asm volatile("" ::"r"(a), "r"(b), "r"(c), "r"(d));
  });
}
}  // namespace

double independent_adds_per_cycle() {
  const uint64_t n = 4'000'000;
  double chain = 1e30, spread = 1e30;
  for (int r = 0; r < 20; ++r) {
    chain = std::min(chain, add_chain_s(n));
    spread = std::min(spread, add_spread_s(n));
  }
  return chain / spread;
}

// One pointer per line, the lines in one random cycle: every load waits
// for the one before and misses wherever the footprint does not fit.
double chase_ns(uint64_t footprint, uint64_t line) { return chase_ns(footprint, line, footprint > (8ull << 20)); }

double chase_ns(uint64_t footprint, uint64_t line, bool by_page) {
  const uint64_t lines = std::max<uint64_t>(footprint / line, 2);
  const uint64_t stride = line / sizeof(void*);
  void** buf = static_cast<void**>(std::aligned_alloc(4096, lines * line));
  // by_page: pages in random order and the lines of a page in random order
  // before the next page, so that a TLB miss is paid once a page (64
  // loads); else every line in random order.
  const uint64_t per_page = !by_page ? lines : std::max<uint64_t>(4096 / line, 1),
                 pages = (lines + per_page - 1) / per_page;
  std::mt19937_64 rng(42);
  std::vector<uint64_t> page(pages), order;
  std::iota(page.begin(), page.end(), 0);
  std::shuffle(page.begin(), page.end(), rng);
  order.reserve(lines);
  for (uint64_t p : page) {
    std::vector<uint64_t> in;
    for (uint64_t l = p * per_page; l < std::min(lines, (p + 1) * per_page); ++l) in.push_back(l);
    std::shuffle(in.begin(), in.end(), rng);
    order.insert(order.end(), in.begin(), in.end());
  }
  for (uint64_t i = 0; i < lines; ++i) buf[order[i] * stride] = &buf[order[(i + 1) % lines] * stride];
  const uint64_t steps = std::max<uint64_t>(500'000, lines / 4);
  void** p = &buf[order[0] * stride];
  for (uint64_t i = 0; i < lines; ++i) p = static_cast<void**>(*p);  // warm (and TLB)
  double best = 1e30;
  for (int r = 0; r < 9; ++r) {
    const double t0 = thread_cpu_s();
    for (uint64_t i = 0; i < steps; ++i) p = static_cast<void**>(*p);
    best = std::min(best, thread_cpu_s() - t0);
  }
  asm volatile("" ::"r"(p));
  std::free(buf);
  return best / double(steps) * 1e9;
}

// Each timed run walks the columns `passes` times: one walk is 2,048-8,192
// loads (1-4 us), and reading the thread's CPU time costs 1.7 us a call on
// a Zen 5 VM (a syscall, not the vDSO), which made 0.45 ns an L2-hit miss
// read as 1.18 ns and the column nests' L2 bandwidth 2.6x too low. 2^18
// loads a run keep the clock's cost under 1 %.
double column_walk_ns(uint64_t rows, uint64_t stride, bool store) {
  const uint64_t columns = 16, bytes = rows * stride + 4096;
  const uint64_t passes = std::max<uint64_t>(1, (uint64_t(1) << 18) / (rows * columns));
  char* buf = static_cast<char*>(std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096));
  for (uint64_t i = 0; i < bytes; ++i) buf[i] = char(i);
  double best = 1e30;
  uint32_t sum = 0;
  for (int r = 0; r < 9; ++r) {
    const double t0 = thread_cpu_s();
    for (uint64_t pass = 0; pass < passes; ++pass) {
      if (store) {
        for (uint64_t j = 0; j < columns; ++j)
          for (uint64_t i = 0; i < rows; ++i) {
            const uint32_t v = uint32_t(i + j + pass);
            __builtin_memcpy(buf + i * stride + j * 4, &v, 4);
          }
        asm volatile("" ::"r"(buf) : "memory");  // the stores happen
      } else {
        for (uint64_t j = 0; j < columns; ++j)
          for (uint64_t i = 0; i < rows; ++i) {
            uint32_t v;
            __builtin_memcpy(&v, buf + i * stride + j * 4, 4);
            sum ^= v;  // one-cycle xor: the loads, not a chain, set the pace
          }
        asm volatile("" ::"r"(sum) : "memory");  // every pass loads again
      }
    }
    best = std::min(best, thread_cpu_s() - t0);
  }
  asm volatile("" ::"r"(sum));
  std::free(buf);
  return best / double(passes * rows * columns) * 1e9;
}

double set_pattern_cycles(const std::vector<uint32_t>& pattern, uint64_t way_bytes, double clock_hz) {
  if (pattern.empty()) return 0;
  const uint32_t ids = *std::max_element(pattern.begin(), pattern.end()) + 1, pages = 4 * ids;
  char* buf = static_cast<char*>(std::aligned_alloc(4096, (uint64_t(pages) * way_bytes + 4095) / 4096 * 4096));
  std::mt19937 rng(7);
  std::vector<uint32_t> where(pages);
  std::iota(where.begin(), where.end(), 0);
  std::shuffle(where.begin(), where.end(), rng);
  // A line visited several times a loop points on from a different word
  // each time (its k-th visit from word k mod 8), so one chase can follow
  // any pattern.
  std::vector<uint32_t> visit(pattern.size()), seen(ids, 0);
  for (size_t p = 0; p < pattern.size(); ++p) visit[p] = seen[pattern[p]]++ % 8;
  auto at = [&](size_t p) {
    return reinterpret_cast<void**>(buf + uint64_t(where[pattern[p]]) * way_bytes + visit[p] * sizeof(void*));
  };
  for (size_t p = 0; p < pattern.size(); ++p) *at(p) = at((p + 1) % pattern.size());
  void** q = at(0);
  const uint64_t steps = 200'000;
  for (uint64_t i = 0; i < steps; ++i) q = static_cast<void**>(*q);  // warm: the steady state
  double best = 1e30;
  for (int r = 0; r < 9; ++r) {
    const double t0 = thread_cpu_s();
    for (uint64_t i = 0; i < steps; ++i) q = static_cast<void**>(*q);
    best = std::min(best, thread_cpu_s() - t0);
  }
  asm volatile("" ::"r"(q));
  std::free(buf);
  return best / double(steps) * clock_hz;
}

HostProbe probe_host(const std::vector<uint64_t>& footprints, uint64_t stream_bytes, uint64_t l1_way, uint64_t l1_line,
                     const std::vector<std::vector<uint32_t>>& l1_patterns,
                     const std::vector<uint64_t>& capacity_footprints, uint64_t last_level_stream_footprint) {
  HostProbe h;
  h.clock_hz = measure_clock_hz();
  h.ops = measure_op_latencies(h.clock_hz);
  h.adds_per_cycle = independent_adds_per_cycle();
  for (uint64_t f : footprints) h.latency.push_back({f, chase_ns(f)});
  for (uint64_t f : capacity_footprints) h.capacity.push_back({f, chase_ns(f, 64, true)});
  for (uint64_t f : capacity_footprints) h.capacity_stream.push_back(stream_read(f, 256ull << 20, 5));
  // The fastest of 21 interleaved rounds, 0.5-1 s in all (stream_probe.h says why the fastest).
  if (last_level_stream_footprint) {
    const StreamPair s = stream_read_pair(last_level_stream_footprint, stream_bytes, 21);
    h.last_level_stream = s.near;
    h.dram_stream = s.far;
  } else {
    h.dram_stream = stream_read(stream_bytes, stream_bytes, 21);
  }
  if (l1_way) {  // 512 rows: every set of one column sees many more lines than it has ways
    h.one_set_ns = column_walk_ns(512, l1_way);
    h.spread_ns = column_walk_ns(512, l1_way + l1_line);
    // The columns of a 128 x 128 float matrix (rows 512 B apart, 64 KiB):
    // every load misses an L1D of 8 or 12 ways (16 lines a set) and hits
    // L2. With an L2 hit's latency, how many misses the L1D keeps in flight.
    // The minimum of 25 interleaved with the L2 chase, as both move when a
    // thread shares the core (the walk by up to 2.3x on a Zen 5 VM whose
    // sibling thread another tenant kept busy: 1.25 to 2.9 cycles a miss
    // over five minima of 5).
    h.l2_miss_ns = 1e30;
    for (int r = 0; r < 25; ++r) {
      h.l2_miss_ns = std::min(h.l2_miss_ns, column_walk_ns(128, std::max<uint64_t>(l1_way / 8, l1_line)));
      if (r % 5 == 0 && h.latency.size() > 2)
        h.latency[1].ns = std::min(h.latency[1].ns, chase_ns(h.latency[1].footprint));
    }
    // What a dirty victim adds is a difference of two noisy walks (2 to 10
    // cycles from single pairs at load 3-4; the medians of 7 pairs 6.6-8.2):
    // the difference of the minima over 7 interleaved pairs (5.0-7.3 in five
    // tries), added to the load walk. Other tenants only ever add time.
    double load = h.one_set_ns, store = 1e30;
    for (int r = 0; r < 7; ++r) {
      load = std::min(load, column_walk_ns(512, l1_way));
      store = std::min(store, column_walk_ns(512, l1_way, true));
    }
    h.one_set_ns = load;
    h.one_set_store_ns = store;
    h.l1_set.patterns = l1_patterns;
    for (const auto& p : l1_patterns) h.l1_set.cycles.push_back(set_pattern_cycles(p, l1_way, h.clock_hz));
  }
  return h;
}

}  // namespace ptosim::host
