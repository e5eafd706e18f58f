// Whether a store column's fast and slow costs are two regimes of the
// machine and how long each lasts (issue 12, tr_blk_32): store_window's
// minimum over 15 calls of one K jumps between two values from one run to
// the next (K = 28: 4.1-4.9 or 8.1-8.3 cycles a store). This times every
// call of probes.cpp's scol pattern (K lines 2 KiB apart, 32 columns of
// lines, 16 passes) back to back and prints the lengths of the runs of
// fast and slow calls: a run of one call each way, alternating, means the
// state one call leaves decides the next (the caches' state, not a
// neighbour on the host).
//
//   store_regimes K CALLS THRESHOLD   THRESHOLD: cycles a store (3.694 GHz)
//                   below which a call counts as fast; calls over twice it
//                   (an interrupt) are left out. Prints the counts, the
//                   first 60 run lengths (+ fast, - slow), and the fastest
//                   call of each regime.
// Built by bench/fidelity/residency.py with the suite's flags.
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

__attribute__((noinline)) void store_column(char* buf, const uint64_t* off, uint64_t k_lines) {
  for (uint64_t b = 0; b < 32; ++b) {
    char* base = buf + b * 64;
    for (uint64_t w = 0; w < 16; ++w)
      for (uint64_t k = 0; k < k_lines; ++k) {
        const uint32_t v = uint32_t(k + w);
        __builtin_memcpy(base + off[k] + w * 4, &v, 4);
      }
  }
  asm volatile("" ::"r"(buf) : "memory");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: store_regimes K CALLS THRESHOLD\n");
    return 2;
  }
  const uint64_t K = std::strtoull(argv[1], nullptr, 10);
  const long calls = std::atol(argv[2]);
  const double threshold = std::atof(argv[3]);
  if (K == 0 || K > 256 || calls <= 0 || calls > 1000000 || !(threshold > 0)) {
    std::fprintf(stderr, "store_regimes: K in 1..256, CALLS in 1..1000000, THRESHOLD > 0\n");
    return 2;
  }
  const size_t bytes = K * 2048 + 8192;
  char* raw = static_cast<char*>(std::aligned_alloc(4096, bytes));
  std::memset(raw, 0, bytes);
  std::vector<uint64_t> off(K);
  for (uint64_t k = 0; k < K; ++k) off[k] = k * 2048;
  std::vector<double> cost(static_cast<size_t>(calls));
  for (double& c : cost) {
    const double t0 = now_s();
    store_column(raw + 64, off.data(), K);  // 64 B past a page, as probes.cpp
    c = (now_s() - t0) / double(32 * 16 * K) * 3.694e9;
  }
  long fast = 0, slow = 0, left_out = 0;
  double best_fast = 1e30, best_slow = 1e30;
  std::vector<long> runs;  // + fast, - slow
  for (double c : cost) {
    if (c >= 2 * threshold) {
      ++left_out;
      continue;
    }
    const bool is_fast = c < threshold;
    (is_fast ? fast : slow) += 1;
    double& best = is_fast ? best_fast : best_slow;
    if (c < best) best = c;
    if (!runs.empty() && (runs.back() > 0) == is_fast)
      runs.back() += is_fast ? 1 : -1;
    else
      runs.push_back(is_fast ? 1 : -1);
  }
  std::printf("K %lu: %ld calls, %ld fast, %ld slow, %ld left out, %zu runs; fastest %.2f / %.2f cycles a store\n",
              (unsigned long)K, calls, fast, slow, left_out, runs.size(), best_fast < 1e30 ? best_fast : 0.0,
              best_slow < 1e30 ? best_slow : 0.0);
  std::printf("runs:");
  for (size_t i = 0; i < runs.size() && i < 60; ++i) std::printf(" %+ld", runs[i]);
  std::printf("\n");
  std::free(raw);
  return 0;
}
