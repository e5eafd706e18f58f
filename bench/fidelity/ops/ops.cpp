// Why this file exists: the native side of the op-level fidelity suite
// (bench/fidelity/ops/run.py, issue 26 item 4). pto-sim is asked "which
// tile, which schedule is faster?" about ops (pto.matmul under pto.tile,
// pto.conv2d, attention, LayerNorm+GELU); to judge its answers each op is
// written here as a competent engineer would write it in C++ for one core
// -- packed tiles and a register-blocked FMA micro-kernel for matmul, the
// same register blocking for the direct convolution, loops the compiler
// vectorises elsewhere -- with the schedule of its .pto
// twin (pto/*.pto or workloads/*.pto), and timed by the suite's method
// (../timing.h). The conv2d ladder's twins (experiments/conv2d_ladder/native)
// live here too, to share the harness, the timing and the conv kernel.
//
// Built by run.py with `g++ -std=c++17 -O3 -march=native -ffp-contract=fast
// -fopenmp-simd` (-ffp-contract=fast: ISO C++ mode turns FMA contraction off,
// which no kernel library ships with). Checked with objdump on the AMD EPYC
// (Zen 5, AVX-512) VM, 2026-12-05, GCC 12.2: the micro-kernel's k loop is
// vbroadcastss + 16 vfmadd231ps on zmm registers (8 x 32 accumulators);
// conv_block<14>'s k step two masked vmovups (the window's columns, masks
// hoisted per kw), 14 broadcasts, 28 vfmadd231ps zmm (2026-12-05, after a
// first version that computed the masks per step ran at 0.45x: 0.75 ms
// against 0.33); matmul_ikj's and attention's row loops are vfmadd...ps on ymm/zmm
// (vectorised by the compiler); exp and GELU (softmax, LayerNorm+GELU, the
// chain) are vector polynomials (vrndscaleps, vfmadd...ps zmm). Where GCC
// would not vectorise without -ffast-math -- float reductions (sums, dots,
// max) -- `#pragma omp simd reduction` says it may; intrinsics only in the
// micro-kernels (their accumulators must stay in registers across the k loop)
// and in exp/GELU (GCC does not vectorise a loop calling the inline scalar
// polynomial, and glibc's expf vectorises only under -ffast-math), each
// guarded by __AVX512F__ / __AVX2__ with a scalar fallback.
//
//   ops --list                      example specs
//   ops SPEC... [--rounds R] [--cold]   timing (../timing.h's bench_main)
//   ops --verify SPEC...            each output's largest relative error
//                                   against a plain reference
// SPEC is "kind,NAME=VALUE,..." with the .pto twin's parameter names
// (run.py builds both from one table).
#include <immintrin.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../timing.h"
#include "../../../sim/host/vector_math.h"

namespace {

using fidelity::Variant;

float* alloc(size_t n, int seed) {  // seed < 0: zeros; else uniform [-1, 1)
  float* p = static_cast<float*>(std::aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64));
  std::mt19937 rng(unsigned(seed < 0 ? 0 : seed));
  std::uniform_real_distribution<float> u(-1, 1);
  for (size_t i = 0; i < n; ++i) p[i] = seed < 0 ? 0.0f : u(rng);
  return p;
}

// ---- vector registers: the micro-kernel's width -------------------------
#if defined(__AVX512F__)
constexpr int W = 16;
using vf = __m512;
inline vf vload(const float* p) { return _mm512_loadu_ps(p); }
inline void vstore(float* p, vf v) { _mm512_storeu_ps(p, v); }
inline vf vbroadcast(const float* p) { return _mm512_set1_ps(*p); }
inline vf vfma(vf a, vf b, vf c) { return _mm512_fmadd_ps(a, b, c); }
inline vf vzero() { return _mm512_setzero_ps(); }
constexpr int MR_MAX = 8;  // 8 x 2 zmm accumulators of 32: room for B and A
constexpr int CONV_MR = 14;  // conv: 14 x 2 accumulators + 2 B + 1 A = 31 of 32 zmm (the lowering's MR)
#elif defined(__AVX2__) && defined(__FMA__)
constexpr int W = 8;
using vf = __m256;
inline vf vload(const float* p) { return _mm256_loadu_ps(p); }
inline void vstore(float* p, vf v) { _mm256_storeu_ps(p, v); }
inline vf vbroadcast(const float* p) { return _mm256_broadcast_ss(p); }
inline vf vfma(vf a, vf b, vf c) { return _mm256_fmadd_ps(a, b, c); }
inline vf vzero() { return _mm256_setzero_ps(); }
// 6 x 2 accumulators + 2 B + 1 A = 15 of 16 ymm: BLIS's Haswell sgemm block. A 4 x 2 block
// leaves 8 accumulators for two FMA pipes of latency 4-5, so its FMAs wait on each other
// (on a Zen 3 VM it reached 55 % of the FMA peak); tiles whose rows 6 does not divide
// end in a panel of TM % 6 rows.
constexpr int MR_MAX = 6;
constexpr int CONV_MR = 6;  // 6 x 2 + 2 + 1 = 15 of 16 ymm
#else
constexpr int W = 1;
using vf = float;
inline vf vload(const float* p) { return *p; }
inline void vstore(float* p, vf v) { *p = v; }
inline vf vbroadcast(const float* p) { return *p; }
inline vf vfma(vf a, vf b, vf c) { return a * b + c; }
inline vf vzero() { return 0.0f; }
constexpr int MR_MAX = 4;
constexpr int CONV_MR = 4;
#endif

// ---- matmul ---------------------------------------------------------------
// C[MR x NR] (+)= Ap[MR-panel, kc] * Bp[kc, NR-panel]: MR x NR/W accumulators
// stay in vector registers for the whole k loop (A broadcast, B loaded).
template <int MR, int NR>
__attribute__((noinline)) void micro_kernel(int kc, const float* __restrict ap, const float* __restrict bp,
                                            float* __restrict c, int ldc, bool first) {
  constexpr int NV = NR / W;
  vf acc[MR][NV];
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[r][v] = first ? vzero() : vload(c + size_t(r) * ldc + v * W);
  for (int k = 0; k < kc; ++k) {
    vf b[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) b[v] = vload(bp + size_t(k) * NR + v * W);
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
      const vf a = vbroadcast(ap + size_t(k) * MR + r);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[r][v] = vfma(a, b[v], acc[r][v]);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) vstore(c + size_t(r) * ldc + v * W, acc[r][v]);
}

// A micro-kernel of a run-time row count below MR_MAX: a tile's last panel when
// MR_MAX does not divide its rows.
template <int NR>
void micro_kernel_rows(int mr, int kc, const float* ap, const float* bp, float* c, int ldc, bool first) {
  switch (mr) {
    case 1: return micro_kernel<1, NR>(kc, ap, bp, c, ldc, first);
    case 2: return micro_kernel<2, NR>(kc, ap, bp, c, ldc, first);
    case 3: return micro_kernel<3, NR>(kc, ap, bp, c, ldc, first);
    case 4: return micro_kernel<4, NR>(kc, ap, bp, c, ldc, first);
    case 5: return micro_kernel<5, NR>(kc, ap, bp, c, ldc, first);
    case 6: return micro_kernel<6, NR>(kc, ap, bp, c, ldc, first);
    case 7: return micro_kernel<7, NR>(kc, ap, bp, c, ldc, first);
    default: std::fprintf(stderr, "matmul_tiled: a panel of %d rows\n", mr); std::exit(2);
  }
}

// The schedule of matmul_tiled.pto's pto.tile: for each (m0, n0) C tile,
// for each k0: copy the A tile and the B tile into contiguous buffers
// (packed as the micro-kernel reads them: MR-row panels, then one panel of
// TM % MR rows; NR-column panels, then one of a vector when NR does not
// divide TN, as the lowering's blocks end: a 112-wide tile on 16 lanes is
// three 32-wide panels and a 16-wide one, not seven 16-wide ones whose
// every FMA needs its own broadcast), run the micro-kernel over the tile,
// C updated in place (written on the first k tile). C[M,N] = A[M,K] @ B[K,N].
template <int MR, int NR>
void matmul_tiled_t(int M, int N, int K, int TM, int TN, int TK, const float* A, const float* B, float* C,
                    float* Ap, float* Bp) {
  const int full = TM / MR, tail = TM % MR;
  const int wide = TN / NR, narrow = (TN % NR) / W;  // narrow: 0 or, when NR is two vectors, 1
  float* At = Ap + size_t(full) * TK * MR;  // the tail panel, k-major, `tail` rows a k
  float* Bn = Bp + size_t(wide) * TK * NR;  // the narrow panel, a vector wide
  for (int m0 = 0; m0 < M; m0 += TM)
    for (int n0 = 0; n0 < N; n0 += TN)
      for (int k0 = 0; k0 < K; k0 += TK) {
        for (int p = 0; p < full; ++p)  // A tile: MR-row panels, k-major
          for (int k = 0; k < TK; ++k)
            for (int r = 0; r < MR; ++r)
              Ap[(size_t(p) * TK + k) * MR + r] = A[size_t(m0 + p * MR + r) * K + k0 + k];
        for (int k = 0; k < TK; ++k)
          for (int r = 0; r < tail; ++r) At[size_t(k) * tail + r] = A[size_t(m0 + full * MR + r) * K + k0 + k];
        for (int q = 0; q < wide; ++q)  // B tile: NR-column panels, row by row
          for (int k = 0; k < TK; ++k)
            std::memcpy(Bp + (size_t(q) * TK + k) * NR, B + size_t(k0 + k) * N + n0 + q * NR, NR * sizeof(float));
        if (narrow)
          for (int k = 0; k < TK; ++k)
            std::memcpy(Bn + size_t(k) * W, B + size_t(k0 + k) * N + n0 + wide * NR, W * sizeof(float));
        float* Cb = C + size_t(m0) * N + n0;
        for (int p = 0; p < full; ++p) {
          for (int q = 0; q < wide; ++q)
            micro_kernel<MR, NR>(TK, Ap + size_t(p) * TK * MR, Bp + size_t(q) * TK * NR, Cb + size_t(p * MR) * N + q * NR,
                                 N, k0 == 0);
          if (narrow)
            micro_kernel<MR, W>(TK, Ap + size_t(p) * TK * MR, Bn, Cb + size_t(p * MR) * N + wide * NR, N, k0 == 0);
        }
        if (tail) {
          for (int q = 0; q < wide; ++q)
            micro_kernel_rows<NR>(tail, TK, At, Bp + size_t(q) * TK * NR, Cb + size_t(full * MR) * N + q * NR, N,
                                  k0 == 0);
          if (narrow) micro_kernel_rows<W>(tail, TK, At, Bn, Cb + size_t(full * MR) * N + wide * NR, N, k0 == 0);
        }
      }
}

struct Tiled {
  int M, N, K, TM, TN, TK;
  float *Ap, *Bp;
  Tiled(int m, int n, int k, int tm, int tn, int tk) : M(m), N(n), K(k), TM(tm), TN(tn), TK(tk) {
    if (M % TM || N % TN || K % TK || TM % 4 || TN % W) {
      std::fprintf(stderr, "matmul_tiled: tile %dx%dx%d does not divide %dx%dx%d (or TM %% 4, TN %% %d)\n", TM, TN,
                   TK, M, N, K, W);
      std::exit(2);
    }
    Ap = alloc(size_t(TM) * TK, -1);
    Bp = alloc(size_t(TK) * TN, -1);
  }
  void operator()(const float* A, const float* B, float* C) const {
    if (TN >= 2 * W) matmul_tiled_t<MR_MAX, 2 * W>(M, N, K, TM, TN, TK, A, B, C, Ap, Bp);
    else matmul_tiled_t<MR_MAX, W>(M, N, K, TM, TN, TK, A, B, C, Ap, Bp);
  }
};

// Untiled: the plain i-k-j loop (matmul_ikj_rows.pto); GCC vectorises the j
// loop (vfmadd231ps), C must be zero on entry.
__attribute__((noinline)) void matmul_ikj(int M, int N, int K, const float* __restrict A, const float* __restrict B,
                                          float* __restrict C) {
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      const float a = A[size_t(i) * K + k];
      float* __restrict c = C + size_t(i) * N;
      const float* __restrict b = B + size_t(k) * N;
      for (int j = 0; j < N; ++j) c[j] += a * b[j];
    }
}

// ---- exp and GELU, vectorised -----------------------------------------------
// GCC 12 does not vectorise a loop calling an inline scalar exp polynomial
// ("no vectype"), and glibc's expf vectorises only under -ffast-math; a
// kernel library carries its own: vector code on GCC vector types
// (sim/host/vector_math.h, Cephes expf and GELU's erf by Abramowitz &
// Stegun 7.1.26).
// One lane of the 16-byte form: the tails compute what the vector body does.
using VM1 = ptosim::vm::Vec<16>;
inline float exp_s(float x) { return VM1::exp(VM1::splat(x))[0]; }
inline float gelu_s(float x) { return VM1::gelu(VM1::splat(x))[0]; }
#if defined(__AVX512F__)
inline float vsum(vf a) { return _mm512_reduce_add_ps(a); }
#elif defined(__AVX2__) && defined(__FMA__)
inline float vsum(vf a) {
  float t[8];
  _mm256_storeu_ps(t, a);
  return ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7]));
}
#endif
#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
// The sequences `config host --measure` times to cost pto.exp and pto.gelu
// on this core (sim/host/vector_math.h): the twins run the same code.
using VM = ptosim::vm::Vec<int(sizeof(vf))>;
inline vf vexp(vf x) { return (vf)VM::exp((VM::F)x); }
inline vf vgelu(vf x) { return (vf)VM::gelu((VM::F)x); }
constexpr bool kVectorMath = true;
#else
inline vf vexp(vf x) { return exp_s(x); }
inline vf vgelu(vf x) { return gelu_s(x); }
inline float vsum(vf a) { return a; }
constexpr bool kVectorMath = false;
#endif
// out[i] = exp(x[i] + shift); returns the sum of the outputs.
inline float exp_array(size_t n, const float* __restrict x, float shift, float* __restrict out) {
  size_t i = 0;
  float sum = 0.0f;
  if (kVectorMath) {
    vf acc = vzero();
    for (; i + W <= n; i += W) {
      const vf e = vexp(vload(x + i) + vbroadcast(&shift));
      vstore(out + i, e);
      acc = acc + e;
    }
    sum = vsum(acc);
  }
  for (; i < n; ++i) sum += (out[i] = exp_s(x[i] + shift));
  return sum;
}
inline void gelu_array(size_t n, const float* x, float* out) {  // in place allowed
  size_t i = 0;
  if (kVectorMath)
    for (; i + W <= n; i += W) vstore(out + i, vgelu(vload(x + i)));
  for (; i < n; ++i) out[i] = gelu_s(x[i]);
}

// ---- conv2d: X[C][H][W] (N = 1), Wt[F][C][3][3], stride 1, padding PAD ----
struct ConvShape {
  int C, H, W, F, PAD, OH, OW;
};

// Direct convolution as compiled vector code runs it (the register-blocked
// implicit GEMM of sim/exec/conv_vector.cpp): per output row, blocks of MR
// filters x 2 vectors of output columns held in registers while k = (c,
// kh, kw) runs; per k, the input row's two vectors at column offset kw (a
// masked load where the window reaches into the padding: only what lies in
// the image is read) and one broadcast weight per filter. The input is read
// where it lies (`Region`: the whole image, or a tile copied with its halo
// clipped to the image as pto's tile_load copies it), the weights where
// they lie (`Weights`: in place, or packed MR-interleaved), the output
// updated in place (loaded first unless this is the first channel block).
struct Region {
  const float* x;
  int H, W;          // the rows and columns the region holds
  int h_org, w_org;  // the image row and column of its (0, 0)
  size_t cs;         // elements per channel
};
struct Weights {
  const float* w;
  size_t r_stride, e_stride;  // filter r, element e = (c*3 + kh)*3 + kw
};

#if defined(__AVX512F__)
using vmask = __mmask16;
inline vmask lane_mask(int lo, int hi) {  // lanes [lo, hi) of 0..W-1
  lo = std::max(lo, 0), hi = std::min(hi, W);
  return hi <= lo ? vmask(0) : vmask(((1u << (hi - lo)) - 1) << lo);
}
inline vf vload_m(const float* p, vmask m) { return _mm512_maskz_loadu_ps(m, p); }
inline void vstore_m(float* p, vf v, vmask m) { _mm512_mask_storeu_ps(p, m, v); }
#elif defined(__AVX2__) && defined(__FMA__)
using vmask = __m256i;
inline vmask lane_mask(int lo, int hi) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_and_si256(_mm256_cmpgt_epi32(lane, _mm256_set1_epi32(lo - 1)),
                          _mm256_cmpgt_epi32(_mm256_set1_epi32(hi), lane));
}
inline vf vload_m(const float* p, vmask m) { return _mm256_maskload_ps(p, m); }
inline void vstore_m(float* p, vf v, vmask m) { _mm256_maskstore_ps(p, m, v); }
#else
using vmask = bool;
inline vmask lane_mask(int lo, int hi) { return lo <= 0 && hi > 0; }
inline vf vload_m(const float* p, vmask m) { return m ? *p : 0.0f; }
inline void vstore_m(float* p, vf v, vmask m) {
  if (m) *p = v;
}
#endif

// One block: filters [f0, f0 + MR) of output row oh, columns [ow0, ow0 + nw)
// (nw <= 2W), the region's channels [0, tc) (the weights' too).
template <int MR>
__attribute__((noinline)) void conv_block(const ConvShape& s, const Region& r, const Weights& wt, int tc,
                                          float* __restrict y, size_t y_fstride, int oh, int ow0, int nw,
                                          bool load_c) {
  const vmask om[2] = {lane_mask(0, nw), lane_mask(0, nw - W)};
  // The input vectors' offsets and lane masks per kw (all lanes inside the
  // image but at its edges), hoisted out of the k loop as a compiler would.
  int off[3][2];
  vmask im[3][2];
  for (int kw = 0; kw < 3; ++kw)
    for (int v = 0; v < 2; ++v) {
      off[kw][v] = ow0 + kw - s.PAD - r.w_org + v * W;  // region column of the vector's lane 0
      im[kw][v] = lane_mask(-off[kw][v], std::min(r.W - off[kw][v], nw - v * W));
    }
  vf acc[MR][2];
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 2
    for (int v = 0; v < 2; ++v) acc[i][v] = load_c ? vload_m(y + i * y_fstride + v * W, om[v]) : vzero();
  for (int c = 0; c < tc; ++c)
    for (int kh = 0; kh < 3; ++kh) {
      const int yr = oh + kh - s.PAD - r.h_org;
      if (yr < 0 || yr >= r.H) continue;  // a row of padding: nothing loaded
      const float* row = r.x + c * r.cs + size_t(yr) * r.W;
#pragma GCC unroll 3
      for (int kw = 0; kw < 3; ++kw) {
        vf b[2];
#pragma GCC unroll 2
        for (int v = 0; v < 2; ++v) b[v] = vload_m(row + off[kw][v], im[kw][v]);
        const float* w = wt.w + size_t((c * 3 + kh) * 3 + kw) * wt.e_stride;
#pragma GCC unroll 16
        for (int i = 0; i < MR; ++i) {
          const vf a = vbroadcast(w + i * wt.r_stride);
#pragma GCC unroll 2
          for (int v = 0; v < 2; ++v) acc[i][v] = vfma(a, b[v], acc[i][v]);
        }
      }
    }
#pragma GCC unroll 16
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 2
    for (int v = 0; v < 2; ++v) vstore_m(y + i * y_fstride + v * W, acc[i][v], om[v]);
}

// conv_block<1..CONV_MR>: the last filter block of a tile may be short.
using ConvBlockFn = void (*)(const ConvShape&, const Region&, const Weights&, int, float*, size_t, int, int, int, bool);
template <size_t... I>
constexpr std::array<ConvBlockFn, sizeof...(I)> conv_block_table(std::index_sequence<I...>) {
  return {&conv_block<int(I) + 1>...};
}
constexpr std::array<ConvBlockFn, CONV_MR> kConvBlock = conv_block_table(std::make_index_sequence<CONV_MR>{});

// Output rows [oh0, oh0 + th) x columns [ow0, ow0 + tw) of filters [f0, f0 +
// tf), from the region's tc channels: per row, the column blocks outer and
// the filter blocks (CONV_MR, the last one shorter) inner, as the
// lowering's for_blocks walks them. wt(f) gives the weights of the block
// that starts at filter f.
template <class WeightsOf>
void conv_rows(const ConvShape& s, const Region& r, WeightsOf wt, int tc, float* Y, int f0, int tf, int oh0, int th,
               int ow0, int tw, bool load_c) {
  const size_t fs = size_t(s.OH) * s.OW;
  for (int oh = oh0; oh < oh0 + th; ++oh)
    for (int j = ow0; j < ow0 + tw; j += 2 * W)
      for (int f = f0; f < f0 + tf; f += CONV_MR)
        kConvBlock[size_t(std::min(CONV_MR, f0 + tf - f) - 1)](s, r, wt(f), tc, Y + size_t(f) * fs + size_t(oh) * s.OW + j,
                                                               fs, oh, j, std::min(2 * W, ow0 + tw - j), load_c);
}

__attribute__((noinline)) void conv_basic(const ConvShape& s, const float* __restrict X, const float* __restrict Wt,
                                          float* __restrict Y) {
  const Region r{X, s.H, s.W, 0, 0, size_t(s.H) * s.W};
  const size_t fstride = size_t(s.C) * 9;
  conv_rows(s, r, [&](int f) { return Weights{Wt + f * fstride, fstride, 1}; }, s.C, Y, 0, s.F, 0, s.OH, 0, s.OW,
            false);
}

// im2col: cols[(c*3 + kh)*3 + kw][oh*OW + ow], zero where the window is in
// the padding. Row by row, as a library copies it: an output row's columns
// whose window is inside the image are one contiguous run of X's row
// (memcpy, vector loads and stores), the padding columns at its ends are
// zeroed. A test per element (Caffe's im2col_cpu) kept GCC from
// vectorising the loop: the load may not run where the window is outside.
__attribute__((noinline)) void im2col(const ConvShape& s, const float* __restrict X, float* __restrict cols) {
  for (int c = 0; c < s.C; ++c)
    for (int kh = 0; kh < 3; ++kh)
      for (int kw = 0; kw < 3; ++kw) {
        float* row = cols + size_t((c * 3 + kh) * 3 + kw) * s.OH * s.OW;
        // ow in [lo, hi) reads X[.., ow + kw - PAD]; the rest is padding.
        const int lo = std::clamp(s.PAD - kw, 0, s.OW), hi = std::clamp(s.W + s.PAD - kw, lo, s.OW);
        for (int oh = 0; oh < s.OH; ++oh) {
          const int ih = oh + kh - s.PAD;
          float* out = row + size_t(oh) * s.OW;
          if (ih < 0 || ih >= s.H) {
            std::memset(out, 0, size_t(s.OW) * sizeof(float));
            continue;
          }
          std::memset(out, 0, size_t(lo) * sizeof(float));
          std::memcpy(out + lo, X + (size_t(c) * s.H + ih) * s.W + (lo + kw - s.PAD), size_t(hi - lo) * sizeof(float));
          std::memset(out + hi, 0, size_t(s.OW - hi) * sizeof(float));
        }
      }
}

// Explicitly tiled (conv2d_tiled.pto's pto.tile(F=TF, H=TH, W=TW, C=TC)),
// as the lowering's conv_tiled_cpu_events runs it: per output tile, the
// input channels in blocks of TC; each block's input tile copied row by row
// with its halo clipped to the image (tile_load), its weights packed
// MR-interleaved (pack), then the direct kernel over the tile, the output
// tile updated in place in Y.
struct ConvTiled {
  ConvShape s;
  int TF, TH, TW, TC;
  float *xt, *wt;
  ConvTiled(const ConvShape& sh, int tf, int th, int tw, int tc) : s(sh), TF(tf), TH(th), TW(tw), TC(tc) {
    if (s.F % TF || s.OH % TH || s.OW % TW || s.C % TC) {
      std::fprintf(stderr, "conv_tiled: tiles do not divide the shape\n");
      std::exit(2);
    }
    xt = alloc(size_t(TC) * (TH + 2) * (TW + 2), -1);
    wt = alloc(size_t((TF + CONV_MR - 1) / CONV_MR) * CONV_MR * TC * 9, -1);
  }
  void operator()(const float* __restrict X, const float* __restrict Wt, float* __restrict Y) const {
    const int k = TC * 9;
    for (int f0 = 0; f0 < s.F; f0 += TF)
      for (int h0 = 0; h0 < s.OH; h0 += TH)
        for (int w0 = 0; w0 < s.OW; w0 += TW) {
          const int ih0 = std::max(0, h0 - s.PAD), ih1 = std::min(s.H, h0 + TH - 1 - s.PAD + 3);
          const int iw0 = std::max(0, w0 - s.PAD), iw1 = std::min(s.W, w0 + TW - 1 - s.PAD + 3);
          const int rh = ih1 - ih0, rw = iw1 - iw0;
          for (int c0 = 0; c0 < s.C; c0 += TC) {
            for (int c = 0; c < TC; ++c)
              for (int y = 0; y < rh; ++y)
                std::memcpy(xt + (size_t(c) * rh + y) * rw, X + (size_t(c0 + c) * s.H + ih0 + y) * s.W + iw0,
                            sizeof(float) * rw);
            for (int f = 0; f < TF; ++f)
              for (int e = 0; e < k; ++e)
                wt[size_t(f / CONV_MR) * k * CONV_MR + size_t(e) * CONV_MR + f % CONV_MR] =
                    Wt[(size_t(f0 + f) * s.C + c0) * 9 + e];
            const Region r{xt, rh, rw, ih0, iw0, size_t(rh) * rw};
            conv_rows(s, r, [&](int f) { return Weights{wt + size_t((f - f0) / CONV_MR) * k * CONV_MR, 1, CONV_MR}; },
                      TC, Y, f0, TF, h0, TH, w0, TW, c0 > 0);
          }
        }
  }
};

// ---- the conv2d ladder's rungs (experiments/conv2d_ladder/native) ----------
// Basic: the article's seven loops (workloads/conv2d_basic.pto) as written,
// the sum kept in a register as any engineer (and GCC, given __restrict)
// would keep it; the bounds test in the window loop keeps GCC from
// vectorising it (scalar vfmadd231ss), which is the rung's point.
__attribute__((noinline)) void conv_seven_loops(const ConvShape& s, const float* __restrict X,
                                                const float* __restrict Wt, float* __restrict Y) {
  for (int f = 0; f < s.F; ++f)
    for (int oh = 0; oh < s.OH; ++oh)
      for (int ow = 0; ow < s.OW; ++ow) {
        float acc = 0.0f;
        for (int c = 0; c < s.C; ++c)
          for (int kh = 0; kh < 3; ++kh)
            for (int kw = 0; kw < 3; ++kw) {
              const int ih = oh - s.PAD + kh, iw = ow - s.PAD + kw;
              if (ih >= 0 && ih < s.H && iw >= 0 && iw < s.W)
                acc += X[(size_t(c) * s.H + ih) * s.W + iw] * Wt[((size_t(f) * s.C + c) * 3 + kh) * 3 + kw];
            }
        Y[(size_t(f) * s.OH + oh) * s.OW + ow] += acc;
      }
}

// Explicit cache management (workloads/conv2d_cached.pto, the article's
// 4.1 "optimised version 2"), its schedule: per block of TF filters and
// chunk of TC channels, the chunk's weights copied once (into `constant`
// there; packed MR-interleaved here, the copy a kernel library makes); per
// TH x TW output tile, a zeroed window with its halo (`shared`) into which
// the part inside the image is copied, then the direct kernel over the
// tile with the output held in registers (`register`) and stored to Y
// (added to Y after the first chunk). Tiles at the image's edge are
// shorter, as the .pto's min() makes them.
struct ConvCached {
  ConvShape s;
  int TF, TH, TW, TC;
  float *win, *wc;
  ConvCached(const ConvShape& sh, int tf, int th, int tw, int tc) : s(sh), TF(tf), TH(th), TW(tw), TC(tc) {
    win = alloc(size_t(TC) * (TH + 2) * (TW + 2), -1);
    wc = alloc(size_t((TF + CONV_MR - 1) / CONV_MR) * CONV_MR * TC * 9, -1);
  }
  void operator()(const float* __restrict X, const float* __restrict Wt, float* __restrict Y) const {
    for (int f0 = 0; f0 < s.F; f0 += TF)
      for (int c0 = 0; c0 < s.C; c0 += TC) {
        const int tf = std::min(TF, s.F - f0), tc = std::min(TC, s.C - c0), k = tc * 9;
        for (int f = 0; f < tf; ++f)
          for (int e = 0; e < k; ++e)
            wc[size_t(f / CONV_MR) * k * CONV_MR + size_t(e) * CONV_MR + f % CONV_MR] =
                Wt[(size_t(f0 + f) * s.C + c0) * 9 + e];
        for (int h0 = 0; h0 < s.OH; h0 += TH)
          for (int w0 = 0; w0 < s.OW; w0 += TW) {
            const int th = std::min(TH, s.OH - h0), tw = std::min(TW, s.OW - w0);
            const int r0 = h0 - s.PAD, q0 = w0 - s.PAD, wh = th + 2, ww = tw + 2;
            const int a = std::max(r0, 0), b = std::min(r0 + wh, s.H), c = std::max(q0, 0), d = std::min(q0 + ww, s.W);
            std::memset(win, 0, sizeof(float) * size_t(tc) * wh * ww);
            for (int ch = 0; ch < tc; ++ch)
              for (int y = a; y < b; ++y)
                std::memcpy(win + (size_t(ch) * wh + (y - r0)) * ww + (c - q0),
                            X + (size_t(c0 + ch) * s.H + y) * s.W + c, sizeof(float) * (d - c));
            const Region r{win, wh, ww, r0, q0, size_t(wh) * ww};
            conv_rows(s, r, [&](int f) { return Weights{wc + size_t((f - f0) / CONV_MR) * k * CONV_MR, 1, CONV_MR}; },
                      tc, Y, f0, tf, h0, th, w0, tw, c0 > 0);
          }
      }
  }
};

// ---- attention: O = softmax(Q K^T / sqrt(D)) V, Q, K, V [L, D] -------------
inline float dot(const float* __restrict a, const float* __restrict b, int n) {
  float s = 0.0f;
#pragma omp simd reduction(+ : s)
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}
// softmax of one row into out: a max pass, an exp-sum pass, a normalise pass
// (the passes pto.softmax's events describe).
inline void softmax_row(const float* __restrict x, float* __restrict out, int n) {
  float m = -INFINITY;
#pragma omp simd reduction(max : m)
  for (int j = 0; j < n; ++j) m = x[j] > m ? x[j] : m;  // vmaxps (std::fmax is a libm call: NaN rules)
  const float sum = exp_array(size_t(n), x, -m, out);
  const float inv = 1.0f / sum;
  for (int j = 0; j < n; ++j) out[j] *= inv;
}

// q[rows x D] against all of K: s = q K^T, s2 = s * scale, p = softmax(s2),
// o = p V -- each a full pass writing a new buffer, as the .pto ops do. The
// two products run on the matmul micro-kernel (packed tiles, as a BLAS
// would): q K^T against Kt, K transposed once per call (the packing a GEMM
// of a transposed operand does; L x D copies against rows x L x D MACs).
// qk and pv: the two products' tilings for `rows` (attention_gemms).
void attention_rows(int rows, int L, int D, const Tiled& qk, const Tiled& pv, const float* q, const float* Kt,
                    const float* V, float* s, float* s2, float* p, float* o) {
  const float scale = 1.0f / std::sqrt(float(D));
  qk(q, Kt, s);
  for (size_t i = 0; i < size_t(rows) * L; ++i) s2[i] = s[i] * scale;
  for (int i = 0; i < rows; ++i) softmax_row(s2 + size_t(i) * L, p + size_t(i) * L, L);
  pv(p, V, o);
}
void transpose(int rows, int cols, const float* __restrict x, float* __restrict xt) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) xt[size_t(j) * rows + i] = x[size_t(i) * cols + j];
}

// ---- LayerNorm + GELU over rows of x [R, H] --------------------------------
struct LnBufs {
  float *mean, *var, *rs, *xc, *sq, *xn, *y1, *y;
};
// Each step of layernorm_gelu_unfused.pto a full pass into a new buffer.
__attribute__((noinline)) void ln_unfused(int R, int H, const float* x, const float* g, const float* b, float* out,
                                          const LnBufs& t) {
  const float eps = 1e-5f;
  for (int r = 0; r < R; ++r) {
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (int j = 0; j < H; ++j) s += x[size_t(r) * H + j];
    t.mean[r] = s / float(H);
  }
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < H; ++j) t.xc[size_t(r) * H + j] = x[size_t(r) * H + j] - t.mean[r];
  for (size_t i = 0; i < size_t(R) * H; ++i) t.sq[i] = t.xc[i] * t.xc[i];
  for (int r = 0; r < R; ++r) {
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (int j = 0; j < H; ++j) s += t.sq[size_t(r) * H + j];
    t.var[r] = s / float(H);
  }
  for (int r = 0; r < R; ++r) t.var[r] = t.var[r] + eps;
  for (int r = 0; r < R; ++r) t.rs[r] = 1.0f / std::sqrt(t.var[r]);
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < H; ++j) t.xn[size_t(r) * H + j] = t.xc[size_t(r) * H + j] * t.rs[r];
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < H; ++j) t.y1[size_t(r) * H + j] = t.xn[size_t(r) * H + j] * g[j];
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < H; ++j) t.y[size_t(r) * H + j] = t.y1[size_t(r) * H + j] + b[j];
  gelu_array(size_t(R) * H, t.y, out);
}
// One pass per row (layernorm_gelu_fused.pto): the row stays in L1.
__attribute__((noinline)) void ln_fused(int R, int H, const float* x, const float* g, const float* b, float* out) {
  const float eps = 1e-5f;
  for (int r = 0; r < R; ++r) {
    const float* __restrict xr = x + size_t(r) * H;
    float* __restrict o = out + size_t(r) * H;
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (int j = 0; j < H; ++j) s += xr[j];
    const float mean = s / float(H);
    float v = 0.0f;
#pragma omp simd reduction(+ : v)
    for (int j = 0; j < H; ++j) v += (xr[j] - mean) * (xr[j] - mean);
    const float rs = 1.0f / std::sqrt(v / float(H) + eps);
    for (int j = 0; j < H; ++j) o[j] = (xr[j] - mean) * rs * g[j] + b[j];
    gelu_array(size_t(H), o, o);  // the row is still in L1
  }
}

// ---- a reduction and an elementwise chain -----------------------------------
__attribute__((noinline)) void reduce_rows(int R, int H, const float* __restrict x, float* __restrict s) {
  for (int r = 0; r < R; ++r) {
    float acc = 0.0f;
#pragma omp simd reduction(+ : acc)
    for (int j = 0; j < H; ++j) acc += x[size_t(r) * H + j];
    s[r] = acc;
  }
}
// t1 = x * 2, t2 = t1 + y, t3 = relu(t2), t4 = exp(t3): four passes.
__attribute__((noinline)) void ew_chain(size_t n, const float* __restrict x, const float* __restrict y,
                                        float* __restrict t1, float* __restrict t2, float* __restrict t3,
                                        float* __restrict t4) {
  for (size_t i = 0; i < n; ++i) t1[i] = x[i] * 2.0f;
  for (size_t i = 0; i < n; ++i) t2[i] = t1[i] + y[i];
  for (size_t i = 0; i < n; ++i) t3[i] = t2[i] > 0.0f ? t2[i] : 0.0f;  // vmaxps, not a libm call
  exp_array(n, t3, 0.0f, t4);
}

// ---- variants from specs ---------------------------------------------------
struct Spec {
  std::string kind;
  std::map<std::string, int> p;
  int operator[](const std::string& k) const {
    auto it = p.find(k);
    if (it == p.end()) {
      std::fprintf(stderr, "%s: parameter %s missing\n", kind.c_str(), k.c_str());
      std::exit(2);
    }
    return it->second;
  }
  int get(const std::string& k, int d) const { return p.count(k) ? p.at(k) : d; }
};
Spec parse(const std::string& s) {
  Spec r;
  std::stringstream ss(s);
  std::string item;
  std::getline(ss, r.kind, ',');
  while (std::getline(ss, item, ',')) {
    const size_t eq = item.find('=');
    r.p[item.substr(0, eq)] = std::atoi(item.substr(eq + 1).c_str());
  }
  return r;
}

struct Made {
  Variant v;
  const float* out = nullptr;
  size_t n = 0;
  std::function<std::vector<double>()> reference;  // a plain double-precision computation
};

std::vector<double> ref_matmul(int M, int N, int K, const float* A, const float* B) {
  std::vector<double> C(size_t(M) * N, 0.0);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j) C[size_t(i) * N + j] += double(A[size_t(i) * K + k]) * B[size_t(k) * N + j];
  return C;
}
std::vector<double> ref_conv(const ConvShape& s, const float* X, const float* Wt) {
  std::vector<double> Y(size_t(s.F) * s.OH * s.OW, 0.0);
  for (int f = 0; f < s.F; ++f)
    for (int oh = 0; oh < s.OH; ++oh)
      for (int ow = 0; ow < s.OW; ++ow) {
        double a = 0;
        for (int c = 0; c < s.C; ++c)
          for (int kh = 0; kh < 3; ++kh)
            for (int kw = 0; kw < 3; ++kw) {
              const int ih = oh + kh - s.PAD, iw = ow + kw - s.PAD;
              if (ih >= 0 && ih < s.H && iw >= 0 && iw < s.W)
                a += double(X[(size_t(c) * s.H + ih) * s.W + iw]) * Wt[((size_t(f) * s.C + c) * 3 + kh) * 3 + kw];
            }
        Y[(size_t(f) * s.OH + oh) * s.OW + ow] = a;
      }
  return Y;
}
double gelu_ref(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }

Made make(const Spec& s) {
  Made m;
  if (s.kind == "matmul_tiled" || s.kind == "matmul_ikj") {
    const int M = s["M"], N = s["N"], K = s["K"];
    float *A = alloc(size_t(M) * K, 1), *B = alloc(size_t(K) * N, 2), *C = alloc(size_t(M) * N, -1);
    const size_t cn = size_t(M) * N;
    if (s.kind == "matmul_tiled") {
      Tiled t(M, N, K, s["TM"], s["TN"], s["TK"]);
      m.v = {[=] { t(A, B, C); }, [=] { std::memset(C, 0, cn * sizeof(float)); }};
    } else {
      m.v = {[=] { matmul_ikj(M, N, K, A, B, C); }, [=] { std::memset(C, 0, cn * sizeof(float)); }};
    }
    m.out = C, m.n = cn;
    m.reference = [=] { return ref_matmul(M, N, K, A, B); };
  } else if (s.kind == "conv_basic" || s.kind == "conv_im2col" || s.kind == "conv_tiled" ||
             s.kind == "conv_seven_loops" || s.kind == "conv_cached") {
    ConvShape sh{s["C"], s["H"], s["W"], s["F"], s.get("PAD", 1), 0, 0};
    sh.OH = sh.H + 2 * sh.PAD - 2, sh.OW = sh.W + 2 * sh.PAD - 2;
    float *X = alloc(size_t(sh.C) * sh.H * sh.W, 1), *Wt = alloc(size_t(sh.F) * sh.C * 9, 2),
          *Y = alloc(size_t(sh.F) * sh.OH * sh.OW, -1);
    const size_t yn = size_t(sh.F) * sh.OH * sh.OW;
    auto reset = [=] { std::memset(Y, 0, yn * sizeof(float)); };
    if (s.kind == "conv_basic") {
      m.v = {[=] { conv_basic(sh, X, Wt, Y); }, reset};
    } else if (s.kind == "conv_im2col") {
      float* cols = alloc(size_t(sh.C) * 9 * sh.OH * sh.OW, -1);
      Tiled t(sh.F, sh.OH * sh.OW, sh.C * 9, s["TM"], s["TN"], s["TK"]);
      m.v = {[=] {
               im2col(sh, X, cols);
               t(Wt, cols, Y);  // Wt [F, C*9] row-major is the reshape
             },
             reset};
    } else if (s.kind == "conv_seven_loops") {
      m.v = {[=] { conv_seven_loops(sh, X, Wt, Y); }, reset};
    } else if (s.kind == "conv_cached") {
      ConvCached t(sh, s["TF"], s["TH"], s["TW"], s["TC"]);
      m.v = {[=] { t(X, Wt, Y); }, reset};
    } else {
      ConvTiled t(sh, s["TF"], s["TH"], s["TW"], s["TC"]);
      m.v = {[=] { t(X, Wt, Y); }, reset};
    }
    m.out = Y, m.n = yn;
    m.reference = [=] { return ref_conv(sh, X, Wt); };
  } else if (s.kind == "attention_naive" || s.kind == "attention_tiled") {
    const int L = s["L"], D = s["D"];
    const int TQ = s.kind == "attention_naive" ? L : s["TQ"];
    float *Q = alloc(size_t(L) * D, 1), *K = alloc(size_t(L) * D, 2), *V = alloc(size_t(L) * D, 3),
          *O = alloc(size_t(L) * D, -1);
    float *S = alloc(size_t(TQ) * L, -1), *S2 = alloc(size_t(TQ) * L, -1), *P = alloc(size_t(TQ) * L, -1);
    float *q = alloc(size_t(TQ) * D, -1), *o = alloc(size_t(TQ) * D, -1);
    // Tiles of up to 64 rows x 256 columns, the whole reduction at once.
    const Tiled qk(TQ, L, D, std::min(TQ, 64), std::min(L, 256), D), pv(TQ, D, L, std::min(TQ, 64), D, std::min(L, 256));
    float* Kt = alloc(size_t(L) * D, -1);
    if (TQ == L) {
      m.v = {[=] {
               transpose(L, D, K, Kt);
               attention_rows(L, L, D, qk, pv, Q, Kt, V, S, S2, P, O);
             },
             [] {}};
    } else {
      if (L % TQ) std::exit(2);
      m.v = {[=] {
               transpose(L, D, K, Kt);
               for (int m0 = 0; m0 < L; m0 += TQ) {  // attention_tiled.pto: q loaded, o stored per block
                 std::memcpy(q, Q + size_t(m0) * D, sizeof(float) * TQ * D);
                 attention_rows(TQ, L, D, qk, pv, q, Kt, V, S, S2, P, o);
                 std::memcpy(O + size_t(m0) * D, o, sizeof(float) * TQ * D);
               }
             },
             [] {}};
    }
    m.out = O, m.n = size_t(L) * D;
    m.reference = [=] {
      std::vector<double> r(size_t(L) * D, 0.0), row(L);
      for (int i = 0; i < L; ++i) {
        double mx = -1e300, sum = 0;
        for (int j = 0; j < L; ++j) {
          double d = 0;
          for (int k = 0; k < D; ++k) d += double(Q[size_t(i) * D + k]) * K[size_t(j) * D + k];
          row[j] = d / std::sqrt(double(D));
          mx = std::max(mx, row[j]);
        }
        for (int j = 0; j < L; ++j) sum += (row[j] = std::exp(row[j] - mx));
        for (int j = 0; j < L; ++j)
          for (int k = 0; k < D; ++k) r[size_t(i) * D + k] += row[j] / sum * V[size_t(j) * D + k];
      }
      return r;
    };
  } else if (s.kind == "ln_unfused" || s.kind == "ln_fused") {
    const int R = s["R"], H = s["H"];
    const size_t n = size_t(R) * H;
    float *x = alloc(n, 1), *g = alloc(H, 2), *b = alloc(H, 3), *out = alloc(n, -1);
    if (s.kind == "ln_unfused") {
      LnBufs t{alloc(R, -1), alloc(R, -1), alloc(R, -1), alloc(n, -1), alloc(n, -1), alloc(n, -1), alloc(n, -1),
               alloc(n, -1)};
      m.v = {[=] { ln_unfused(R, H, x, g, b, out, t); }, [] {}};
    } else {
      m.v = {[=] { ln_fused(R, H, x, g, b, out); }, [] {}};
    }
    m.out = out, m.n = n;
    m.reference = [=] {
      std::vector<double> r(n);
      for (int i = 0; i < R; ++i) {
        double mean = 0, var = 0;
        for (int j = 0; j < H; ++j) mean += x[size_t(i) * H + j];
        mean /= H;
        for (int j = 0; j < H; ++j) var += (x[size_t(i) * H + j] - mean) * (x[size_t(i) * H + j] - mean);
        var /= H;
        for (int j = 0; j < H; ++j)
          r[size_t(i) * H + j] = gelu_ref((x[size_t(i) * H + j] - mean) / std::sqrt(var + 1e-5) * g[j] + b[j]);
      }
      return r;
    };
  } else if (s.kind == "reduce_rows") {
    const int R = s["R"], H = s["H"];
    float *x = alloc(size_t(R) * H, 1), *out = alloc(R, -1);
    m.v = {[=] { reduce_rows(R, H, x, out); }, [] {}};
    m.out = out, m.n = R;
    m.reference = [=] {
      std::vector<double> r(R, 0.0);
      for (int i = 0; i < R; ++i)
        for (int j = 0; j < H; ++j) r[i] += x[size_t(i) * H + j];
      return r;
    };
  } else if (s.kind == "ew_chain") {
    const size_t n = size_t(s["R"]) * s["H"];
    float *x = alloc(n, 1), *y = alloc(n, 2), *t1 = alloc(n, -1), *t2 = alloc(n, -1), *t3 = alloc(n, -1),
          *t4 = alloc(n, -1);
    m.v = {[=] { ew_chain(n, x, y, t1, t2, t3, t4); }, [] {}};
    m.out = t4, m.n = n;
    m.reference = [=] {
      std::vector<double> r(n);
      for (size_t i = 0; i < n; ++i) r[i] = std::exp(std::max(double(x[i]) * 2 + y[i], 0.0));
      return r;
    };
  } else {
    std::fprintf(stderr, "unknown kind %s\n", s.kind.c_str());
    std::exit(2);
  }
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  bool verify = false, list = false;
  std::vector<std::string> specs;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--verify")) verify = true;
    else if (!std::strcmp(argv[i], "--list")) list = true;
    else if (!std::strcmp(argv[i], "--rounds")) ++i;
    else if (argv[i][0] != '-') specs.push_back(argv[i]);
  }
  if (list) {
    std::printf("matmul_tiled,M=512,N=512,K=512,TM=64,TN=64,TK=32\nmatmul_ikj,M=512,N=512,K=512\n"
                "conv_basic,C=64,H=28,W=28,F=64\nconv_seven_loops,C=16,H=28,W=28,F=16\n"
                "conv_cached,C=16,H=28,W=28,F=16,TF=8,TH=8,TW=8,TC=16\nattention_tiled,L=1024,D=64,TQ=64\nln_fused,R=1024,H=1024\n"
                "reduce_rows,R=2048,H=2048\new_chain,R=1024,H=1024\n");
    return 0;
  }
  std::map<std::string, Variant> v;
  std::map<std::string, Made> made;
  for (auto& sp : specs) {
    made[sp] = make(parse(sp));
    v[sp] = made[sp].v;
  }
  if (verify) {  // "spec max_relative_error": |native - reference| / max |reference|
    for (auto& sp : specs) {
      Made& m = made[sp];
      m.v.reset();
      m.v.run();
      const std::vector<double> r = m.reference();
      double err = 0, scale = 0;
      for (size_t i = 0; i < m.n; ++i) {
        err = std::max(err, std::fabs(m.out[i] - r[i]));
        scale = std::max(scale, std::fabs(r[i]));
      }
      std::printf("%s %.3g\n", sp.c_str(), scale > 0 ? err / scale : err);
    }
    return 0;
  }
  return fidelity::bench_main(argc, argv, v);
}
