// The native side of the calibration suite (bench/fidelity/run.py): each
// kernel is the loop nest of its .pto twin in pto/, the same loops, the same
// scalar temporaries, the same row-major float32 arrays. Built with
// `-O2 -fno-tree-vectorize -fno-unroll-loops` (no -march: scalar SSE, no FMA
// contraction), so that the loads, stores and flops the machine executes
// are the ones the .pto program's events describe. A timed call finds its
// data where the previous call of the same kernel left it (warm, as the
// REPS=2 - REPS=1 prediction assumes), or with --cold in DRAM (a 64 MiB
// buffer is streamed through first, as a single simulated call starts).
//
//   kernels --list                             the variant names
//   kernels VARIANT... [--rounds R] [--cold]   prints "name seconds" per
//   variant: the minimum over R interleaved rounds (order rotated per round).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <time.h>
#include <vector>

#include "timing.h"

namespace {

using fidelity::Variant;
using Arr = float*;
#define AT(p, i, j, n) (p)[(size_t)(i) * (n) + (j)]

Arr alloc(size_t n, bool random, unsigned seed) {
  Arr p = static_cast<Arr>(std::aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  for (size_t i = 0; i < n; ++i) p[i] = random ? u(rng) : 0.0f;
  return p;
}

// ---- matmul: C[N,N] += A[N,N] @ B[N,N] ----
__attribute__((noinline)) void mm_ijk(int N, Arr A, Arr B, Arr C) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k) AT(C, i, j, N) += AT(A, i, k, N) * AT(B, k, j, N);
}
__attribute__((noinline)) void mm_ijk_acc(int N, Arr A, Arr B, Arr C) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      for (int k = 0; k < N; ++k) acc += AT(A, i, k, N) * AT(B, k, j, N);
      AT(C, i, j, N) = acc;
    }
}
__attribute__((noinline)) void mm_jik_acc(int N, Arr A, Arr B, Arr C) {
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      float acc = 0.0f;
      for (int k = 0; k < N; ++k) acc += AT(A, i, k, N) * AT(B, k, j, N);
      AT(C, i, j, N) = acc;
    }
}
__attribute__((noinline)) void mm_ikj(int N, Arr A, Arr B, Arr C) {
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < N; ++k) {
      float a = AT(A, i, k, N);
      for (int j = 0; j < N; ++j) AT(C, i, j, N) += a * AT(B, k, j, N);
    }
}
__attribute__((noinline)) void mm_kij(int N, Arr A, Arr B, Arr C) {
  for (int k = 0; k < N; ++k)
    for (int i = 0; i < N; ++i) {
      float a = AT(A, i, k, N);
      for (int j = 0; j < N; ++j) AT(C, i, j, N) += a * AT(B, k, j, N);
    }
}
__attribute__((noinline)) void mm_jki(int N, Arr A, Arr B, Arr C) {
  for (int j = 0; j < N; ++j)
    for (int k = 0; k < N; ++k) {
      float b = AT(B, k, j, N);
      for (int i = 0; i < N; ++i) AT(C, i, j, N) += AT(A, i, k, N) * b;
    }
}
__attribute__((noinline)) void mm_kji(int N, Arr A, Arr B, Arr C) {
  for (int k = 0; k < N; ++k)
    for (int j = 0; j < N; ++j) {
      float b = AT(B, k, j, N);
      for (int i = 0; i < N; ++i) AT(C, i, j, N) += AT(A, i, k, N) * b;
    }
}
// Tiled ikj: T x T tiles of A, B, C.
__attribute__((noinline)) void mm_blk_ikj(int N, int T, Arr A, Arr B, Arr C) {
  for (int ii = 0; ii < N; ii += T)
    for (int kk = 0; kk < N; kk += T)
      for (int jj = 0; jj < N; jj += T)
        for (int i = ii; i < ii + T; ++i)
          for (int k = kk; k < kk + T; ++k) {
            float a = AT(A, i, k, N);
            for (int j = jj; j < jj + T; ++j) AT(C, i, j, N) += a * AT(B, k, j, N);
          }
}
// Tiled with a register accumulator per C element (a serial add chain per k tile).
__attribute__((noinline)) void mm_blk_acc(int N, int T, Arr A, Arr B, Arr C) {
  for (int ii = 0; ii < N; ii += T)
    for (int jj = 0; jj < N; jj += T)
      for (int kk = 0; kk < N; kk += T)
        for (int i = ii; i < ii + T; ++i)
          for (int j = jj; j < jj + T; ++j) {
            float acc = AT(C, i, j, N);
            for (int k = kk; k < kk + T; ++k) acc += AT(A, i, k, N) * AT(B, k, j, N);
            AT(C, i, j, N) = acc;
          }
}
// 2 x 2 register block: four independent accumulator chains.
__attribute__((noinline)) void mm_reg2x2(int N, Arr A, Arr B, Arr C) {
  for (int i = 0; i < N; i += 2)
    for (int j = 0; j < N; j += 2) {
      float c00 = 0.0f, c01 = 0.0f, c10 = 0.0f, c11 = 0.0f;
      for (int k = 0; k < N; ++k) {
        float a0 = AT(A, i, k, N);
        float a1 = AT(A, i + 1, k, N);
        float b0 = AT(B, k, j, N);
        float b1 = AT(B, k, j + 1, N);
        c00 += a0 * b0;
        c01 += a0 * b1;
        c10 += a1 * b0;
        c11 += a1 * b1;
      }
      AT(C, i, j, N) = c00;
      AT(C, i, j + 1, N) = c01;
      AT(C, i + 1, j, N) = c10;
      AT(C, i + 1, j + 1, N) = c11;
    }
}

// ---- 5-point stencil on N x N: out = 0.2 * (centre + 4 neighbours) ----
__attribute__((noinline)) void st_row(int N, Arr in, Arr out) {
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < N - 1; ++j)
      AT(out, i, j, N) =
          0.2f * (AT(in, i, j, N) + AT(in, i - 1, j, N) + AT(in, i + 1, j, N) + AT(in, i, j - 1, N) + AT(in, i, j + 1, N));
}
__attribute__((noinline)) void st_col(int N, Arr in, Arr out) {
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      AT(out, i, j, N) =
          0.2f * (AT(in, i, j, N) + AT(in, i - 1, j, N) + AT(in, i + 1, j, N) + AT(in, i, j - 1, N) + AT(in, i, j + 1, N));
}

// ---- transpose N x N ----
__attribute__((noinline)) void tr_naive(int N, Arr in, Arr out) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) AT(out, j, i, N) = AT(in, i, j, N);
}
__attribute__((noinline)) void tr_blk(int N, int T, Arr in, Arr out) {
  for (int ii = 0; ii < N; ii += T)
    for (int jj = 0; jj < N; jj += T)
      for (int i = ii; i < ii + T; ++i)
        for (int j = jj; j < jj + T; ++j) AT(out, j, i, N) = AT(in, i, j, N);
}

// ---- direct convolution: in[C][H][W], w[F][C][3][3] -> out[F][H-2][W-2] ----
__attribute__((noinline)) void conv_acc(int C, int H, int W, int F, Arr in, Arr w, Arr out) {
  const int OH = H - 2, OW = W - 2;
  for (int f = 0; f < F; ++f)
    for (int oh = 0; oh < OH; ++oh)
      for (int ow = 0; ow < OW; ++ow) {
        float acc = 0.0f;
        for (int c = 0; c < C; ++c)
          for (int kh = 0; kh < 3; ++kh)
            for (int kw = 0; kw < 3; ++kw)
              acc += in[((size_t)c * H + oh + kh) * W + ow + kw] * w[(((size_t)f * C + c) * 3 + kh) * 3 + kw];
        out[((size_t)f * OH + oh) * OW + ow] = acc;
      }
}
__attribute__((noinline)) void conv_mem(int C, int H, int W, int F, Arr in, Arr w, Arr out) {
  const int OH = H - 2, OW = W - 2;
  for (int f = 0; f < F; ++f)
    for (int c = 0; c < C; ++c)
      for (int kh = 0; kh < 3; ++kh)
        for (int kw = 0; kw < 3; ++kw) {
          float wv = w[(((size_t)f * C + c) * 3 + kh) * 3 + kw];
          for (int oh = 0; oh < OH; ++oh)
            for (int ow = 0; ow < OW; ++ow)
              out[((size_t)f * OH + oh) * OW + ow] += in[((size_t)c * H + oh + kh) * W + ow + kw] * wv;
        }
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, Variant> v;
  auto mm = [&](const std::string& name, int N, std::function<void(int, Arr, Arr, Arr)> f) {
    Arr A = alloc(size_t(N) * N, true, 1), B = alloc(size_t(N) * N, true, 2), C = alloc(size_t(N) * N, false, 0);
    v[name] = {[=] { f(N, A, B, C); }, [=] { std::memset(C, 0, sizeof(float) * N * N); }};
  };
  mm("mm_ijk", 128, mm_ijk);
  mm("mm_ijk_acc", 128, mm_ijk_acc);
  mm("mm_jik_acc", 128, mm_jik_acc);
  mm("mm_ikj", 128, mm_ikj);
  mm("mm_kij", 128, mm_kij);
  mm("mm_jki", 128, mm_jki);
  mm("mm_kji", 128, mm_kji);
  for (int T : {8, 16, 32, 64})
    mm("mm_blk_ikj_" + std::to_string(T), 128, [T](int N, Arr A, Arr B, Arr C) { mm_blk_ikj(N, T, A, B, C); });
  for (int T : {8, 16, 32})
    mm("mm_blk_acc_" + std::to_string(T), 128, [T](int N, Arr A, Arr B, Arr C) { mm_blk_acc(N, T, A, B, C); });
  mm("mm_reg2x2", 128, mm_reg2x2);
  mm("mm_ikj_320", 320, mm_ikj);
  mm("mm_blk_ikj_64_320", 320, [](int N, Arr A, Arr B, Arr C) { mm_blk_ikj(N, 64, A, B, C); });
  auto two = [&](const std::string& name, int N, std::function<void(int, Arr, Arr)> f) {
    Arr in = alloc(size_t(N) * N, true, 3), out = alloc(size_t(N) * N, false, 0);
    v[name] = {[=] { f(N, in, out); }, [=] { std::memset(out, 0, sizeof(float) * N * N); }};
  };
  two("st_row", 512, st_row);
  two("st_col", 512, st_col);
  two("tr_naive", 512, tr_naive);
  two("tr_blk_8", 512, [](int N, Arr i, Arr o) { tr_blk(N, 8, i, o); });
  two("tr_blk_32", 512, [](int N, Arr i, Arr o) { tr_blk(N, 32, i, o); });
  {
    const int C = 16, H = 34, W = 34, F = 16;
    Arr in = alloc(size_t(C) * H * W, true, 4), w = alloc(size_t(F) * C * 9, true, 5),
        out = alloc(size_t(F) * (H - 2) * (W - 2), false, 0);
    const size_t outn = size_t(F) * (H - 2) * (W - 2);
    v["conv_acc"] = {[=] { conv_acc(C, H, W, F, in, w, out); }, [=] { std::memset(out, 0, sizeof(float) * outn); }};
    v["conv_mem"] = {[=] { conv_mem(C, H, W, F, in, w, out); }, [=] { std::memset(out, 0, sizeof(float) * outn); }};
  }
  return fidelity::bench_main(argc, argv, v);
}
