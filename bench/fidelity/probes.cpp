// Native probes behind the calibration suite's three outliers (st_col,
// tr_blk_8, tr_blk_32; docs/PERFORMANCE.md, "Calibration"): each isolates
// one condition of a kernel's access stream so that a hypothesis about the
// mechanism can be tested in a few seconds. bench/fidelity/probes.py builds
// this with the suite's flags (-O2 -fno-tree-vectorize -fno-unroll-loops
// -falign-loops=32), runs it and predicts the probes that have a .pto twin.
//
//   probes NAME...   prints "NAME ns_per_unit" (minimum over 15 warm calls,
//                    thread CPU time)
//
// Names (fields separated by ':'):
//   scol:K:MODE    stores down a column of K lines 2 KiB apart, the 16 words
//                  of every line round-robin (word w of each line, then w+1),
//                  over the 32 lines of each row: the store stream of a blocked
//                  transpose. Unit: a column store. MODE: seq; shuf (the K
//                  lines in a random order: no stride to learn); hotst, hotld,
//                  nop (one store to / one load from a hot line / four nops
//                  after every column store); twice (every column store
//                  stored again, to the same address); seq1k, seqspread
//                  (the lines 1 KiB apart: four sets; 2 KiB + 64 B: a new
//                  set each line).
//   stcol:SHIFT:MODE  the st_col kernel (512x512, 5-point stencil down the
//                  columns) with the output array SHIFT bytes past the input's
//                  page offset (0: both arrays in the same L1D sets, as
//                  natively allocated). Unit: a row. MODE: st; fence (an
//                  lfence after every row: no load runs ahead of the row
//                  before); fenceF (an lfence every F rows, F a power of
//                  two: loads run at most F rows ahead); nost (the stores go
//                  to 16 hot words instead).
//   lsk:K:ROWSMODE a column walk of ROWS (128 or 512) rows 2 KiB apart, 16
//                  columns, storing B and loading K (0-4) arrays first, all
//                  at one page offset; MODE same (B there too: every line of
//                  a row in B's two L1D sets) or other (B a line over); with
//                  a suffix ld (sameld, otherld) B's line is loaded just
//                  before the store; with hot (samehot, otherhot) the loads
//                  read the arrays' first two rows only (L1D hits in B's
//                  sets or next to them). Unit: a row. E.g. lsk:2:512same.
//   ls2k:ROWS:MODE, ls4k:ROWS:MODE  a column walk of ROWS rows 2 KiB / 4 KiB
//                  apart (two L1D sets / one), 16 columns: loads of one array
//                  (l), stores to another (s), both in step (ls: the second
//                  array at the same page offset, so in the same sets; ls64:
//                  shifted a line, other sets). Unit: a row. ROWS 128 keeps
//                  both arrays' lines far from filling L2's sets.
//   spair:SPACING:MODE  L1D-hit stores, eight an iteration: to eight lines
//                  SPACING bytes apart (lines), or two each to four such lines
//                  (pairs; the second store of a pair to the same address).
//                  Unit: a store. How many lines the store queue writes a
//                  cycle (core.store_lines_per_cycle).
//   trblk:T:MODE   the blocked transpose of 512x512 with T x T tiles. Unit:
//                  an element. MODE: copy (the kernel); st (its stores only,
//                  of a constant).
//   tst:L:MODE     tr_blk_8's stores alone, generalised: tiles of 8 columns by
//                  L rows of the 512x512 output (L lines a tile, half a line
//                  each; L = 8 is trblk:8:st), the L rows round-robin for each
//                  column, tile after tile down the rows. Unit: a store. MODE:
//                  seq (rows in order), shuf (the tile's rows in a fixed
//                  shuffled order: no clean stride from row to row), pf (one
//                  load from each line of the next tile before the tile: its
//                  lines fetched a tile ahead), pfshuf (both), wW (tiles W
//                  columns wide, W of 1, 2, 4, 8, 16: W stores a line).
//   ncol:0:MODE    stores alone down the columns of the 512x512 output, one a
//                  row (every 16th column's stores to lines not touched for
//                  16 columns: L2 hits), rows in order (seq: a clean 2 KiB
//                  stride) or in a fixed shuffled order (shuf). Unit: a store.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <time.h>
#include <vector>

namespace {

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

constexpr uint64_t kRow = 2048;  // 512 float32
uint32_t g_sink;
alignas(64) volatile uint32_t g_hot[16];

template <int Mode>  // 0 nothing, 1 hot store, 2 hot load, 3 nops, 4 the same store again
__attribute__((noinline)) void store_column(char* buf, const uint64_t* off, uint64_t k_lines) {
  uint32_t acc = 0;
  for (uint64_t b = 0; b < kRow / 64; ++b) {
    char* base = buf + b * 64;
    for (uint64_t w = 0; w < 16; ++w)
      for (uint64_t k = 0; k < k_lines; ++k) {
        const uint32_t v = uint32_t(k + w);
        __builtin_memcpy(base + off[k] + w * 4, &v, 4);
        if (Mode == 1) g_hot[0] = v;
        if (Mode == 2) acc += g_hot[0];
        if (Mode == 3) asm volatile("nop\n\tnop\n\tnop\n\tnop");
        if (Mode == 4) {
          uint32_t again = v + 1;
          asm volatile("" : "+r"(again));  // a second store, not folded into the first
          __builtin_memcpy(base + off[k] + w * 4, &again, 4);
        }
      }
  }
  g_sink = acc;
  asm volatile("" ::"r"(buf) : "memory");
}

#define AT(p, i, j, n) (p)[(size_t)(i) * (n) + (j)]
// Mode: 0 the kernel, 1 lfence every `every` rows (a power of two), 2 stores
// to hot words.
template <int Mode>
__attribute__((noinline)) void stencil_col(int N, const float* in, float* out, int every = 1) {
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      const float v = 0.2f * (AT(in, i, j, N) + AT(in, i - 1, j, N) + AT(in, i + 1, j, N) + AT(in, i, j - 1, N) +
                              AT(in, i, j + 1, N));
      if (Mode == 2)
        out[i & 15] = v;
      else
        AT(out, i, j, N) = v;
      if (Mode == 1 && (i & (every - 1)) == 0) asm volatile("lfence" ::: "memory");
    }
}

// A column walk of 2 KiB rows storing B and loading K arrays A0..A(K-1) at
// the same page offset as each other (the loads' lines all in B's two L1D
// sets, or with B shifted a line, none of them). Mode: 0 plain; 1 B's line
// loaded first (a load of the address the store then writes); 2 the loads
// from the arrays' first two rows only (hits in B's sets: no fills).
template <int Mode>
__attribute__((noinline)) uint32_t loads_k_store(char* const* a, int k, char* b, uint64_t rows) {
  uint32_t s = 0;
  for (uint64_t j = 0; j < 16; ++j)
    for (uint64_t i = 0; i < rows; ++i) {
      const uint64_t o = i * kRow + j * 4;
      uint32_t v = uint32_t(i);
      const uint64_t lo = Mode == 2 ? (i & 1) * kRow + j * 4 : o;
      for (int q = 0; q < k; ++q) {
        uint32_t x;
        __builtin_memcpy(&x, a[q] + lo, 4);
        v += x;
      }
      if (Mode == 1) {
        uint32_t x;
        __builtin_memcpy(&x, b + o, 4);
        s ^= x;
      }
      __builtin_memcpy(b + o, &v, 4);
    }
  asm volatile("" ::"r"(b) : "memory");
  return s;
}

template <int Mode>  // 0 loads, 1 stores, 2 both
__attribute__((noinline)) uint32_t load_store_column(const char* a, char* b, uint64_t rows, uint64_t stride) {
  uint32_t s = 0;
  for (uint64_t j = 0; j < 16; ++j)
    for (uint64_t i = 0; i < rows; ++i) {
      uint32_t v = uint32_t(i);
      if (Mode != 1) __builtin_memcpy(&v, a + i * stride + j * 4, 4), s ^= v;
      if (Mode != 0) __builtin_memcpy(b + i * stride + j * 4, &v, 4);
    }
  asm volatile("" ::"r"(b) : "memory");
  return s;
}

// Written out (-fno-unroll-loops keeps a loop over the eight, whose
// overhead and reloads of the offsets would be what is timed).
__attribute__((noinline)) void store_hits(char* buf, const uint64_t* off, uint64_t iters) {
  const uint64_t o0 = off[0], o1 = off[1], o2 = off[2], o3 = off[3], o4 = off[4], o5 = off[5], o6 = off[6], o7 = off[7];
  for (uint64_t n = 0; n < iters; ++n) {
    char* p = buf + (n & 15) * 4;
    const uint32_t v = uint32_t(n);
    __builtin_memcpy(p + o0, &v, 4);
    __builtin_memcpy(p + o1, &v, 4);
    __builtin_memcpy(p + o2, &v, 4);
    __builtin_memcpy(p + o3, &v, 4);
    __builtin_memcpy(p + o4, &v, 4);
    __builtin_memcpy(p + o5, &v, 4);
    __builtin_memcpy(p + o6, &v, 4);
    __builtin_memcpy(p + o7, &v, 4);
    asm volatile("" ::: "memory");
  }
}

template <bool StoresOnly>
__attribute__((noinline)) void transpose(int N, int T, const float* in, float* out) {
  for (int ii = 0; ii < N; ii += T)
    for (int jj = 0; jj < N; jj += T)
      for (int i = ii; i < ii + T; ++i)
        for (int j = jj; j < jj + T; ++j) AT(out, j, i, N) = StoresOnly ? 1.0f : AT(in, i, j, N);
}

// Mode bit 0: prefetch the next tile's lines by a load; the row order is
// the table `rows` (identity or shuffled) in every mode, so the modes differ
// only in the addresses.
template <int Mode>
__attribute__((noinline)) void tile_stores(int N, int L, const int* rows, float* out, int W = 8) {
  uint32_t x = 0;
  for (int ii = 0; ii < N; ii += W)
    for (int jj = 0; jj < N; jj += L) {
      if (Mode & 1) {
        const int nj = jj + L < N ? jj + L : 0, ni = jj + L < N ? ii : ii + W;
        if (ni < N)
          for (int r = 0; r < L; ++r) {
            uint32_t w;
            __builtin_memcpy(&w, &AT(out, nj + r, ni, N), 4);
            x += w;
          }
      }
      for (int i = ii; i < ii + W; ++i)
        for (int r = 0; r < L; ++r) AT(out, jj + rows[r], i, N) = 1.0f;
    }
  g_sink = x;
}

__attribute__((noinline)) void column_stores(int N, const int* rows, float* out) {
  for (int j = 0; j < N; ++j)
    for (int r = 0; r < N; ++r) AT(out, rows[r], j, N) = 1.0f;
}

std::vector<int> row_order(int n, bool shuffled) {
  std::vector<int> r(static_cast<size_t>(n));
  std::iota(r.begin(), r.end(), 0);
  if (shuffled) std::shuffle(r.begin(), r.end(), std::mt19937(5));
  return r;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> f;
  size_t p = 0, q;
  while ((q = s.find(':', p)) != std::string::npos) f.push_back(s.substr(p, q - p)), p = q + 1;
  f.push_back(s.substr(p));
  return f;
}

// The minimum over 15 calls, each after a call of its own (warm, as the suite).
template <class F>
double best_of(F&& f) {
  double best = 1e30;
  for (int r = 0; r < 15; ++r) {
    f();
    const double t0 = now_s();
    f();
    best = std::min(best, now_s() - t0);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int N = 512;
  const size_t n = size_t(N) * N;
  // The arrays at the same page offset, as the suite's aligned_alloc places
  // them (both 64 B past a page: measured); the output may be shifted.
  char* in_buf = static_cast<char*>(std::aligned_alloc(4096, n * 4 + 8192));
  char* out_buf = static_cast<char*>(std::aligned_alloc(4096, n * 4 + 8192));
  float* in = reinterpret_cast<float*>(in_buf + 64);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  for (size_t k = 0; k < n; ++k) in[k] = u(rng);
  std::memset(out_buf, 0, n * 4 + 8192);
  for (int a = 1; a < argc; ++a) {
    const std::vector<std::string> f = split(argv[a]);
    if (f.size() != 3) {
      std::fprintf(stderr, "%s: want KIND:PARAM:MODE\n", argv[a]);
      return 2;
    }
    const long p = std::atol(f[1].c_str());
    const std::string& mode = f[2];
    double seconds = 0, units = 0;
    if (f[0] == "scol" && p > 0 && uint64_t(p) * (kRow + 64) <= n * 4) {  // room for every spacing
      // seq1k, seqspread: the lines 1 KiB apart (four sets), 2 KiB + 64 B (a
      // new set each line) instead of 2 KiB.
      const uint64_t apart = mode == "seq1k" ? 1024 : mode == "seqspread" ? kRow + 64 : kRow;
      std::vector<uint64_t> off(static_cast<size_t>(p));
      for (size_t k = 0; k < off.size(); ++k) off[k] = k * apart;
      if (mode == "shuf") std::shuffle(off.begin(), off.end(), std::mt19937(3));
      char* base = out_buf + 64;
      const uint64_t K = uint64_t(p);
      if (mode == "seq" || mode == "shuf" || mode == "seq1k" || mode == "seqspread")
        seconds = best_of([&] { store_column<0>(base, off.data(), K); });
      else if (mode == "hotst")
        seconds = best_of([&] { store_column<1>(base, off.data(), K); });
      else if (mode == "hotld")
        seconds = best_of([&] { store_column<2>(base, off.data(), K); });
      else if (mode == "nop")
        seconds = best_of([&] { store_column<3>(base, off.data(), K); });
      else if (mode == "twice")
        seconds = best_of([&] { store_column<4>(base, off.data(), K); });
      units = double(kRow / 64 * 16 * K);
    } else if (f[0] == "stcol" && p >= 0 && p % 4 == 0 && p <= 4096) {
      float* out = reinterpret_cast<float*>(out_buf + 64 + p);
      if (mode == "st")
        seconds = best_of([&] { stencil_col<0>(N, in, out); });
      else if (mode == "fence")
        seconds = best_of([&] { stencil_col<1>(N, in, out); });
      else if (mode == "nost")
        seconds = best_of([&] { stencil_col<2>(N, in, out); });
      else if (mode.rfind("fence", 0) == 0 && mode.size() > 5) {
        const int every = std::atoi(mode.c_str() + 5);
        if (every > 0 && (every & (every - 1)) == 0 && every <= 256)
          seconds = best_of([&] { stencil_col<1>(N, in, out, every); });
      }
      units = double(N - 2) * (N - 2);
    } else if (f[0] == "lsk" && p >= 0 && p <= 4) {
      // MODE: same / other (B in the loads' sets or a line over), each at
      // ROWS rows; with "ld" B's line is also loaded before the store.
      // Written ROWS_MODE: 512same, 128other, 512sameld, ...
      const uint64_t rows = uint64_t(std::atol(mode.c_str()));
      const std::string m = mode.substr(mode.find_first_not_of("0123456789"));
      if ((rows == 128 || rows == 512) &&
          (m == "same" || m == "other" || m == "sameld" || m == "otherld" || m == "samehot" || m == "otherhot")) {
        std::vector<char*> bufs;
        for (int q = 0; q <= p; ++q) {
          char* x = static_cast<char*>(std::aligned_alloc(4096, rows * kRow + 8192));
          std::memset(x, 1, rows * kRow + 8192);
          bufs.push_back(x);
        }
        char* b = bufs[size_t(p)] + (m.rfind("other", 0) == 0 ? 64 : 0);
        uint32_t x = 0;
        if (m == "same" || m == "other")
          seconds = best_of([&] { x ^= loads_k_store<0>(bufs.data(), int(p), b, rows); });
        else if (m == "samehot" || m == "otherhot")
          seconds = best_of([&] { x ^= loads_k_store<2>(bufs.data(), int(p), b, rows); });
        else
          seconds = best_of([&] { x ^= loads_k_store<1>(bufs.data(), int(p), b, rows); });
        g_sink = x;
        for (char* q : bufs) std::free(q);
        units = double(rows) * 16;
      }
    } else if ((f[0] == "ls2k" || f[0] == "ls4k") && p > 0 && p <= 1024) {
      const uint64_t stride = f[0] == "ls2k" ? 2048 : 4096, rows = uint64_t(p);
      char* a = static_cast<char*>(std::aligned_alloc(4096, rows * stride + 8192));
      char* b = static_cast<char*>(std::aligned_alloc(4096, rows * stride + 8192));
      std::memset(a, 1, rows * stride + 8192);
      std::memset(b, 1, rows * stride + 8192);
      char* bs = b + (mode == "ls64" ? 64 : 0);
      uint32_t x = 0;
      if (mode == "l")
        seconds = best_of([&] { x ^= load_store_column<0>(a, bs, rows, stride); });
      else if (mode == "s")
        seconds = best_of([&] { x ^= load_store_column<1>(a, bs, rows, stride); });
      else if (mode == "ls" || mode == "ls64")
        seconds = best_of([&] { x ^= load_store_column<2>(a, bs, rows, stride); });
      g_sink = x;
      std::free(a);
      std::free(b);
      units = double(rows) * 16;
    } else if (f[0] == "spair" && p >= 64 && p <= 4096 && (mode == "lines" || mode == "pairs")) {
      uint64_t o[8];
      for (int s = 0; s < 8; ++s) o[s] = uint64_t(p) * uint64_t(mode == "pairs" ? s / 2 : s);
      const uint64_t iters = 200000;
      seconds = best_of([&] { store_hits(out_buf, o, iters); });
      units = double(iters) * 8;
    } else if (f[0] == "trblk" && p > 0 && N % p == 0) {
      float* out = reinterpret_cast<float*>(out_buf + 64);
      if (mode == "copy")
        seconds = best_of([&] { transpose<false>(N, int(p), in, out); });
      else if (mode == "st")
        seconds = best_of([&] { transpose<true>(N, int(p), in, out); });
      units = double(n);
    } else if (f[0] == "tst" && p > 0 && p <= 64 && N % p == 0 &&
               (mode == "seq" || mode == "shuf" || mode == "pf" || mode == "pfshuf" || mode == "w1" ||
                mode == "w2" || mode == "w4" || mode == "w8" || mode == "w16")) {
      float* out = reinterpret_cast<float*>(out_buf + 64);
      const std::vector<int> rows = row_order(int(p), mode == "shuf" || mode == "pfshuf");
      if (mode[0] == 'w')
        seconds = best_of([&] { tile_stores<0>(N, int(p), rows.data(), out, std::atoi(mode.c_str() + 1)); });
      else if (mode == "pf" || mode == "pfshuf")
        seconds = best_of([&] { tile_stores<1>(N, int(p), rows.data(), out); });
      else
        seconds = best_of([&] { tile_stores<0>(N, int(p), rows.data(), out); });
      units = double(n);
    } else if (f[0] == "ncol" && p == 0 && (mode == "seq" || mode == "shuf")) {
      float* out = reinterpret_cast<float*>(out_buf + 64);
      const std::vector<int> rows = row_order(N, mode == "shuf");
      seconds = best_of([&] { column_stores(N, rows.data(), out); });
      units = double(n);
    }
    if (seconds == 0) {
      std::fprintf(stderr, "%s: unknown probe (see the comment at the top of probes.cpp)\n", argv[a]);
      return 2;
    }
    std::printf("%s %.4f\n", argv[a], seconds / units * 1e9);
  }
  return 0;
}
