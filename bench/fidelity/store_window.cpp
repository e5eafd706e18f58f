// The cost of a store column against K, finely (issue 12, tr_blk_32):
// probes.cpp's scol pattern (K lines SPACING apart, the 16 words of each
// line round-robin over 32 columns of lines) with every store written R
// times in a row to the same address. residency.cpp shows the column's
// stores miss L1D alike whether K makes them fast or slow; this shows
// where the fast K are: near K = 32 (28-34) with one to four stores a
// position; K = 64 fast in some runs, slow in others (docs/PERFORMANCE.md,
// "tr_blk_32's store columns"). Native only (no .pto twin): the model has
// no term for it.
// With C > 0 every store's address goes through C dependent multiplies
// (3 cycles each, one chain through all stores), so stores execute no
// faster than one each 3C cycles and the queue holds fewer of them: the
// slow K then cost the chain's time, not more (a queue-depth effect, not
// one of the addresses).
//
//   store_window SPACING R[:C] K...   prints "K cycles-per-position"
//                   (thread CPU time, minimum over 15 warm calls, at
//                   3.694 GHz: the clock of bench/fidelity/host-measured.yaml)
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

template <int R, int C>
__attribute__((noinline)) void store_column(char* buf, const uint64_t* off, uint64_t k_lines, uint64_t one) {
  uint64_t z = 0;  // stays 0 (one is 1 at run time), after C multiplies a store
  for (uint64_t b = 0; b < 32; ++b) {
    char* base = buf + b * 64;
    for (uint64_t w = 0; w < 16; ++w)
      for (uint64_t k = 0; k < k_lines; ++k) {
        uint32_t v = uint32_t(k + w);
        for (int c = 0; c < C; ++c) {
          z *= one;
          asm volatile("" : "+r"(z));
        }
        // Without the chain, the loop of probes.cpp's scol exactly: one more
        // add a store moves the fast K (K = 64 turned slow).
        char* at = C > 0 ? base + off[k] + w * 4 + z : base + off[k] + w * 4;
        for (int r = 0; r < R; ++r) {
          asm volatile("" : "+r"(v));  // R stores, not folded into one
          __builtin_memcpy(at, &v, 4);
        }
      }
  }
  asm volatile("" ::"r"(buf) : "memory");
}

using Column = void (*)(char*, const uint64_t*, uint64_t, uint64_t);
template <int R>
constexpr Column kColumns[5] = {&store_column<R, 0>, &store_column<R, 1>, &store_column<R, 2>, &store_column<R, 3>,
                                &store_column<R, 4>};

double cycles_per_position(Column column, uint64_t one, char* buf, const std::vector<uint64_t>& off) {
  double best = 1e30;
  for (int r = 0; r < 15; ++r) {
    column(buf, off.data(), off.size(), one);
    const double t0 = now_s();
    column(buf, off.data(), off.size(), one);
    best = std::min(best, now_s() - t0);
  }
  return best / double(32 * 16 * off.size()) * 3.694e9;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: store_window SPACING R[:C] K...\n");
    return 2;
  }
  const uint64_t apart = std::strtoull(argv[1], nullptr, 10);
  const int R = std::atoi(argv[2]);
  const char* colon = std::strchr(argv[2], ':');
  const int C = colon ? std::atoi(colon + 1) : 0;
  uint64_t one = 1;
  asm volatile("" : "+r"(one));  // 1, unknown to the compiler: the multiplies stay
  if (apart < 64 || apart > 8192 || R < 1 || R > 4 || C < 0 || C > 4) {
    std::fprintf(stderr, "store_window: SPACING in 64..8192, R in 1..4, C in 0..4\n");
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
    const Column column = R == 1 ? kColumns<1>[C] : R == 2 ? kColumns<2>[C] : R == 3 ? kColumns<3>[C] : kColumns<4>[C];
    const double c = cycles_per_position(column, one, buf, off);
    std::printf("%lu %.2f\n", (unsigned long)K, c);
    std::fflush(stdout);
  }
  std::free(raw);
  return 0;
}
