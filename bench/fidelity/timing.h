// The timing method of the calibration suites (kernels.cpp, the loop nests;
// ops/ops.cpp, the tiled ops), in one place so that both measure the same
// way: the thread's CPU time of a call, the minimum over interleaved rounds,
// a warm call (after a call of the same kernel) or a cold one (after a
// 64 MiB buffer was streamed through), and a canary that says whether
// another tenant's thread shares the core. bench/fidelity/run.py and
// ops/run.py read what bench_main prints.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <time.h>
#include <vector>

namespace fidelity {

struct Variant {
  std::function<void()> run;
  std::function<void()> reset;  // zero the output (outside the timing)
};

inline void flush_caches() {
  static std::vector<char> flush_buf(64u << 20);
  volatile char* p = flush_buf.data();
  for (size_t i = 0; i < flush_buf.size(); i += 64) p[i] = char(p[i] + 1);
}

// The thread's CPU time: on a machine shared with other builds the wall
// clock counts the time slices of whoever preempted the call (a column walk
// then "took" 3-110 cycles an iteration from one call to the next; by CPU
// time 4.8 +- 0.3). Caches the intruder dirtied still cost, hence the minimum
// over rounds.
inline double now_s() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// A canary timed in every round next to the kernels: a chain of dependent
// register adds (one a cycle: the clock) and the same adds as four
// independent chains (adds per cycle). On a VM whose core another tenant's
// thread shares, the second drops (2.2-3.8 on the Emerald Rapids VM within
// a minute) while the first does not, and compute-bound kernels measure up
// to 1.7x slower than minutes before (docs/PERFORMANCE.md, calibration).
struct Canary {
  double chain_s = 0, spread_s = 0;
};
inline Canary canary() {
  const uint64_t n = 1'000'000;
  Canary c;
  uint64_t x = 0, a = 0, b = 0, d = 0, e = 0, one = 1;
  double t0 = now_s();
  for (uint64_t i = 0; i < n; i += 8)
    asm volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                 "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                 : "+r"(x)
                 : "r"(one));
  c.chain_s = now_s() - t0;
  t0 = now_s();
  for (uint64_t i = 0; i < n; i += 8)
    asm volatile("add %4, %0\n\tadd %4, %1\n\tadd %4, %2\n\tadd %4, %3\n\t"
                 "add %4, %0\n\tadd %4, %1\n\tadd %4, %2\n\tadd %4, %3"
                 : "+r"(a), "+r"(b), "+r"(d), "+r"(e)
                 : "r"(one));
  c.spread_s = now_s() - t0;
  asm volatile("" ::"r"(x), "r"(a), "r"(b), "r"(d), "r"(e));
  return c;
}

//   PROG --list                             the variant names
//   PROG VARIANT... [--rounds R] [--cold]   prints "name seconds" per
//   variant: the minimum over R interleaved rounds (order rotated per
//   round), then "#canary clock_mhz best_adds_per_cycle median_adds_per_cycle".
inline int bench_main(int argc, char** argv, std::map<std::string, Variant>& v, int rounds = 5) {
  bool cold = false;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--cold")) cold = true;
    else if (!std::strcmp(argv[i], "--list")) rounds = -1;
    else names.push_back(argv[i]);
  }
  if (rounds < 0) {  // --list: the variants, nothing timed
    for (auto& [n, _] : v) std::printf("%s\n", n.c_str());
    return 0;
  }
  if (names.empty())
    for (auto& [n, _] : v) names.push_back(n);
  std::map<std::string, double> best;
  for (auto& n : names) {
    if (!v.count(n)) {
      std::fprintf(stderr, "unknown variant %s\n", n.c_str());
      return 2;
    }
    best[n] = 1e30;
  }
  std::vector<double> chain, per_cycle;
  for (int r = 0; r < rounds; ++r) {
    const Canary c = canary();
    chain.push_back(c.chain_s);
    per_cycle.push_back(c.chain_s / c.spread_s);
    for (size_t q = 0; q < names.size(); ++q) {
      const std::string& n = names[(q + size_t(r)) % names.size()];
      v[n].reset();
      if (cold) flush_caches();
      else v[n].run();  // the call before, which leaves the data where it leaves it
      const double t0 = now_s();
      v[n].run();
      best[n] = std::min(best[n], now_s() - t0);
    }
  }
  for (auto& n : names) std::printf("%s %.9f\n", n.c_str(), best[n]);
  if (!chain.empty()) {  // "#canary clock_mhz best_adds_per_cycle median_adds_per_cycle"
    std::sort(per_cycle.begin(), per_cycle.end());
    std::printf("#canary %.0f %.2f %.2f\n", 1e-6 / (*std::min_element(chain.begin(), chain.end()) / 1e6),
                per_cycle.back(), per_cycle[per_cycle.size() / 2]);
  }
  return 0;
}

}  // namespace fidelity
