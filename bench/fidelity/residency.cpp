// Which lines a store column leaves in L1D (issue 12, tr_blk_32): the
// probes (probes.cpp, scol) time a column of K store lines 2 KiB apart and
// find it fast for K = 32 and 64 only; this tells whether those stores hit
// more (a replacement that keeps part of a cyclic pattern) or miss as often
// and the misses are cheaper. No PMU in this VM (perf: <not supported>), so
// residency is read by timing one load with rdtscp: an L1D hit vs an L2 hit.
//
// Each trial runs the probe's whole pattern once (a warm call: the column's
// sets then hold what the previous call left, as when best_of times it),
// then the pattern again up to store S (exclusive) of column B, an mfence
// (the earlier stores reach L1D), and times one load of one line of column
// B: one line per trial, so the probe never disturbs what it measures.
// Reading line k just before store S = (w, k) says whether that store hits.
//
//   residency K SPACING [TRIALS]   prints the calibration (mean ticks of an
//                   L1D hit, of an L2 hit), then for each pass w of column B
//                   the stores that find their line resident (a sum of
//                   unclamped fractions over the K lines: unbiased, about
//                   +-2 of noise at 60 trials), and which lines are resident
//                   after 1, 8 and 16 passes ('#' in >= 95 % of the trials,
//                   '.' < 5 %, digit d: d/10).
//   residency K SPACING TRIALS raw    each line's ticks after the column,
//                   less an L1D hit's (an L2 hit's difference printed last).
//   residency K SPACING TRIALS pass W each store of pass W: its line found?
// The L1D and L2 references are timed in every trial, interleaved with the
// line (the VM's clock drifts by several ticks between runs).
// Built by bench/fidelity/residency.py with the suite's flags.
#include <x86intrin.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr uint64_t kRow = 2048;
constexpr uint64_t kCol = 5;  // the measured column: its sets are touched by it alone

// probes.cpp's store_column<0> with a stop: the stores of (b, w, k) in
// order, the first `stop` of them (all when stop is ~0).
__attribute__((noinline)) void store_column(char* buf, const uint64_t* off, uint64_t k_lines, uint64_t stop) {
  uint64_t n = 0;
  for (uint64_t b = 0; b < kRow / 64; ++b) {
    char* base = buf + b * 64;
    for (uint64_t w = 0; w < 16; ++w)
      for (uint64_t k = 0; k < k_lines; ++k) {
        if (n++ == stop) goto done;
        const uint32_t v = uint32_t(k + w);
        __builtin_memcpy(base + off[k] + w * 4, &v, 4);
      }
  }
done:
  asm volatile("" ::"r"(buf) : "memory");
}

// One load's latency by the TSC. Fenced: the mfence drains the store queue
// first. Queued (no mfence): the store queue keeps what it holds (lfence does
// not drain stores), so a line's state while the queue is full. A template
// parameter, so neither timed window carries a branch.
template <bool Fenced>
__attribute__((noinline)) uint64_t time_load_as(const char* p) {
  unsigned aux;
  if (Fenced) _mm_mfence();
  _mm_lfence();
  const uint64_t t0 = __rdtscp(&aux);
  _mm_lfence();
  const uint32_t v = *reinterpret_cast<const volatile uint32_t*>(p);
  _mm_lfence();
  const uint64_t t1 = __rdtscp(&aux);
  asm volatile("" ::"r"(v));
  return t1 - t0;
}
uint64_t time_load(const char* p) { return time_load_as<true>(p); }
uint64_t time_load_queued(const char* p) { return time_load_as<false>(p); }

// The TSC of this VM counts in steps of 26 ticks, more than an L1D hit's
// difference from an L2 hit: one load cannot be classified, but its phase
// against the steps is random, so the mean over trials is not quantised.
// Samples past `cap` (an interrupt, a DRAM miss) are dropped.
double trimmed_mean(const std::vector<uint64_t>& v, uint64_t cap) {
  double s = 0;
  int n = 0;
  for (uint64_t x : v)
    if (x <= cap) s += double(x), ++n;
  return n ? s / n : double(cap);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: residency K SPACING [TRIALS]\n");
    return 2;
  }
  const uint64_t K = std::strtoull(argv[1], nullptr, 10), apart = std::strtoull(argv[2], nullptr, 10);
  const int trials = argc > 3 ? std::atoi(argv[3]) : 15;
  if (K == 0 || K > 256 || apart < 64 || apart > 8192 || trials <= 0) {
    std::fprintf(stderr, "residency: K in 1..256, SPACING in 64..8192, TRIALS > 0\n");
    return 2;
  }
  const size_t bytes = K * apart + 2 * kRow + 8192;
  char* raw = static_cast<char*>(std::aligned_alloc(4096, bytes + 4096));
  std::memset(raw, 0, bytes + 4096);
  char* buf = raw + 64;  // as probes.cpp: 64 B past a page
  std::vector<uint64_t> off(K);
  for (uint64_t k = 0; k < K; ++k) off[k] = k * apart;

  // Calibration: a line loaded twice (L1D), and one followed by 16 lines
  // 4 KiB apart (the same L1D set, far from filling an L2 set): L2.
  char* cal = static_cast<char*>(std::aligned_alloc(4096, 20 * 4096));
  std::memset(cal, 1, 20 * 4096);
  std::vector<uint64_t> l1, l2;
  for (int t = 0; t < 2000; ++t) {
    (void)*reinterpret_cast<volatile uint32_t*>(cal);
    l1.push_back(time_load(cal));
    for (int r = 1; r <= 16; ++r) (void)*reinterpret_cast<volatile uint32_t*>(cal + r * 4096);
    l2.push_back(time_load(cal));
  }
  const uint64_t cap = 400;
  const double hit = trimmed_mean(l1, cap), miss = trimmed_mean(l2, cap);
  std::printf("K %lu spacing %lu trials %d: L1D hit %.1f ticks, L2 hit %.1f ticks (means)\n", (unsigned long)K,
              (unsigned long)apart, trials, hit, miss);
  if (miss - hit < 4) {
    std::fprintf(stderr, "residency: an L1D hit and an L2 hit time alike (%.1f, %.1f): cannot tell\n", hit, miss);
    return 1;
  }

  const uint64_t col_start = kCol * 16 * K;
  // The mean ticks of line k before store `stop`, and of an L1D and an L2
  // hit timed in the same trials (set 0: not the column's sets), so that a
  // drift of the clock between trials moves all three alike.
  struct Sample {
    double line, l1, l2;
  };
  auto sample = [&](uint64_t stop, uint64_t k) {
    std::vector<uint64_t> t(trials), a(trials), b(trials);
    for (int i = 0; i < trials; ++i) {
      store_column(buf, off.data(), K, ~uint64_t(0));
      store_column(buf, off.data(), K, stop);
      t[i] = time_load(buf + kCol * 64 + off[k]);
      (void)*reinterpret_cast<volatile uint32_t*>(cal);
      a[i] = time_load(cal);
      for (int r = 1; r <= 16; ++r) (void)*reinterpret_cast<volatile uint32_t*>(cal + r * 4096);
      b[i] = time_load(cal);
    }
    return Sample{trimmed_mean(t, cap), trimmed_mean(a, cap), trimmed_mean(b, cap)};
  };
  // Unclamped, so that a sum over lines has no bias from the noise (a
  // clamped fraction of a missing line is >= 0: K lines would add up).
  auto fraction = [&](uint64_t stop, uint64_t k) {
    const Sample s = sample(stop, k);
    return s.l2 - s.l1 < 1 ? 0.0 : (s.l2 - s.line) / (s.l2 - s.l1);
  };
  auto resident = [&](uint64_t stop, uint64_t k) { return std::clamp(fraction(stop, k), 0.0, 1.0); };
  if (argc > 4 && std::strcmp(argv[4], "raw") == 0) {  // the ticks of each line after the column, less an L1D hit's
    double l1 = 0, l2 = 0;
    for (uint64_t k = 0; k < K; ++k) {
      const Sample s = sample(col_start + 16 * K, k);
      std::printf("%lu:%+.1f ", (unsigned long)k, s.line - s.l1);
      l1 += s.l1, l2 += s.l2;
    }
    std::printf("\n(an L2 hit: %+.1f)\n", (l2 - l1) / double(K));
    return 0;
  }
  if (argc > 4 && std::strcmp(argv[4], "queued") == 0) {
    // Stop mid-pass 8 and, with the store queue still full, load word 15
    // (no store in the queue writes it) of the line of the store d back,
    // d = 1..64: is a queued store's line already in L1D (fetched when the
    // store executed, before it commits)?
    const uint64_t stop = col_start + 8 * K + K / 2;
    std::printf("queued, line of the store d back found (d = 1..64): ");
    double young = 0, old = 0;
    for (uint64_t d = 1; d <= 64; ++d) {
      const uint64_t pos = stop - d - col_start, k = pos % K;
      std::vector<uint64_t> t(trials), a(trials), b(trials);
      for (int i = 0; i < trials; ++i) {
        store_column(buf, off.data(), K, ~uint64_t(0));
        store_column(buf, off.data(), K, stop);
        t[i] = time_load_queued(buf + kCol * 64 + off[k] + 60);
        (void)*reinterpret_cast<volatile uint32_t*>(cal);
        a[i] = time_load(cal);
        for (int r = 1; r <= 16; ++r) (void)*reinterpret_cast<volatile uint32_t*>(cal + r * 4096);
        b[i] = time_load(cal);
      }
      const double l1 = trimmed_mean(a, cap), l2 = trimmed_mean(b, cap);
      const double f = std::clamp((l2 - trimmed_mean(t, cap)) / (l2 - l1), 0.0, 1.0);
      (d <= 16 ? young : old) += d <= 16 || d > 48 ? f : 0;
      std::putchar(f >= 0.95 ? '#' : f < 0.05 ? '.' : char('0' + int(f * 10)));
    }
    std::printf("  (d 1-16: %.1f of 16, d 49-64: %.1f of 16)\n", young, old);
    return 0;
  }
  if (argc > 5 && std::strcmp(argv[4], "pass") == 0) {  // line by line: does store (w, k) find its line?
    const uint64_t w = std::strtoull(argv[5], nullptr, 10);
    if (w > 15) {
      std::fprintf(stderr, "residency: pass W in 0..15\n");
      return 2;
    }
    std::printf("pass %lu, store k finds its line: ", (unsigned long)w);
    for (uint64_t k = 0; k < K; ++k) {
      const double f = resident(col_start + w * K + k, k);
      std::putchar(f >= 0.95 ? '#' : f < 0.05 ? '.' : char('0' + int(f * 10)));
    }
    std::printf("\n");
    return 0;
  }
  // Stores of pass w that find their line resident.
  std::printf("pass hits:");
  for (uint64_t w = 0; w < 16; ++w) {
    double h = 0;
    for (uint64_t k = 0; k < K; ++k) h += fraction(col_start + w * K + k, k);
    std::printf(" %.1f", h);
  }
  std::printf("  (of %lu a pass)\n", (unsigned long)K);
  for (uint64_t w : {uint64_t(1), uint64_t(8), uint64_t(16)}) {
    std::printf("resident after %2lu passes: ", (unsigned long)w);
    int n = 0;
    for (uint64_t k = 0; k < K; ++k) {
      const double f = resident(col_start + w * K, k);
      n += f >= 0.5;
      std::putchar(f >= 0.95 ? '#' : f < 0.05 ? '.' : char('0' + int(f * 10)));
    }
    std::printf("  %d of %lu\n", n, (unsigned long)K);
  }
  std::free(cal);
  std::free(raw);
  return 0;
}
