// The cost of a store column against K, finely (issue 12, tr_blk_32):
// probes.cpp's scol pattern (K lines SPACING apart, the 16 words of each
// line round-robin over 32 columns of lines) with every store written R
// times in a row to the same address. residency.cpp shows the column's
// stores miss L1D alike whether K makes them fast or slow; this shows
// where the fast K are: near K = 32 and 64 with one store a position
// (K * stores-a-position dividing the 64-entry store queue), near 32 only
// with two, nowhere with three or four. Native only (no .pto twin): the
// model has no term for it yet (docs/PERFORMANCE.md, "Calibration").
//
//   store_window SPACING R K...   prints "K cycles-per-position" (thread CPU
//                   time, minimum over 15 warm calls, at 3.694 GHz: the
//                   clock of bench/fidelity/host-measured.yaml)
// Built by bench/fidelity/residency.py with the suite's flags.
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

template <int R>
__attribute__((noinline)) void store_column(char* buf, const uint64_t* off, uint64_t k_lines) {
  for (uint64_t b = 0; b < 32; ++b) {
    char* base = buf + b * 64;
    for (uint64_t w = 0; w < 16; ++w)
      for (uint64_t k = 0; k < k_lines; ++k) {
        uint32_t v = uint32_t(k + w);
        for (int r = 0; r < R; ++r) {
          asm volatile("" : "+r"(v));  // R stores, not folded into one
          __builtin_memcpy(base + off[k] + w * 4, &v, 4);
        }
      }
  }
  asm volatile("" ::"r"(buf) : "memory");
}

template <int R>
double cycles_per_position(char* buf, const std::vector<uint64_t>& off) {
  double best = 1e30;
  for (int r = 0; r < 15; ++r) {
    store_column<R>(buf, off.data(), off.size());
    const double t0 = now_s();
    store_column<R>(buf, off.data(), off.size());
    best = std::min(best, now_s() - t0);
  }
  return best / double(32 * 16 * off.size()) * 3.694e9;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: store_window SPACING R K...\n");
    return 2;
  }
  const uint64_t apart = std::strtoull(argv[1], nullptr, 10);
  const int R = std::atoi(argv[2]);
  if (apart < 64 || apart > 8192 || R < 1 || R > 4) {
    std::fprintf(stderr, "store_window: SPACING in 64..8192, R in 1..4\n");
    return 2;
  }
  const size_t bytes = 256 * 8192 + 8192;
  char* raw = static_cast<char*>(std::aligned_alloc(4096, bytes));
  std::memset(raw, 0, bytes);
  char* buf = raw + 64;  // as probes.cpp: 64 B past a page
  for (int a = 3; a < argc; ++a) {
    const uint64_t K = std::strtoull(argv[a], nullptr, 10);
    if (K == 0 || K * apart + 2048 > 256 * 8192) {
      std::fprintf(stderr, "store_window: K %s out of range\n", argv[a]);
      return 2;
    }
    std::vector<uint64_t> off(K);
    for (uint64_t k = 0; k < K; ++k) off[k] = k * apart;
    const double c = R == 1   ? cycles_per_position<1>(buf, off)
                     : R == 2 ? cycles_per_position<2>(buf, off)
                     : R == 3 ? cycles_per_position<3>(buf, off)
                              : cycles_per_position<4>(buf, off);
    std::printf("%lu %.2f\n", (unsigned long)K, c);
    std::fflush(stdout);
  }
  std::free(raw);
  return 0;
}
