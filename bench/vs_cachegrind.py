#!/usr/bin/env python3
"""The program path against Cachegrind (issue 30, item 2): pto-sim running
the issue's three kernels on the default config (L1 32 KiB 8-way, L2 256 KiB
8-way, 64 B lines; timing and 3C on; one thread, the default), against `valgrind --tool=cachegrind --cache-sim=yes`
running a native C twin of the same loops (compiled here, gcc -O2) on the
same geometry (D1 = L1, LL = L2): workloads/matmul_naive.pto at N^3, the
seven-loop workloads/conv2d_basic.pto at a reduced ResNet-50 layer
(default C=32, 28x28, F=32, 3x3: 7.2 M multiply-adds) and
workloads/attention_naive.pto (default L=1024, D=64). The sizes keep
Cachegrind's fixed start-up (~0.3 s) a small part of its time.
CPU time of all threads (user + system of the child), interleaved rounds,
medians of per-round ratios. Target: <= 1.0x on each kernel. With --base
BEFORE (another pto-sim binary, e.g. a build of main), each round runs it
too and the script prints the ratio after / before as well (the same
interleaved rounds, so the load is the same for both).

usage: vs_cachegrind.py PTO_SIM SOURCE_DIR [--size 256] [--rounds 3]
                        [--kernels matmul,conv2d,attention]
                        [--conv C,H,F] [--seq L] [--base BEFORE]
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from host_name import host

ap = argparse.ArgumentParser()
ap.add_argument("pto_sim")
ap.add_argument("src")
ap.add_argument("--size", type=int, default=256)
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--kernels", default="matmul,conv2d,attention")
ap.add_argument("--conv", default="32,28,32", help="C,H,F of conv2d (H = W, 3x3, pad 1)")
ap.add_argument("--seq", type=int, default=1024, help="L of attention (D = 64)")
ap.add_argument("--base", help="another pto-sim binary to time in the same rounds (after / before)")
a = ap.parse_args()
if not shutil.which("valgrind"):
    raise SystemExit("valgrind is not installed (apt-get install valgrind)")
env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
N = a.size
# The .pto's loop: C[i, j] += A[i, k] * B[k, j], fp32, row-major.
MATMUL = f"""
#include <stdio.h>
#include <stdlib.h>
#define N {N}
static float A[N][N], B[N][N], C[N][N];
int main(void) {{
  unsigned s = 1;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {{
      s = s * 1103515245u + 12345u; A[i][j] = (float)(s >> 8) / 16777216.0f;
      s = s * 1103515245u + 12345u; B[i][j] = (float)(s >> 8) / 16777216.0f;
    }}
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k) C[i][j] += A[i][k] * B[k][j];
  double sum = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) sum += C[i][j];
  printf("%f\\n", sum);
  return 0;
}}
"""


# The .pto's seven loops: Y[n,f,ho,wo] += X[n,c,hi,wi] * W[f,c,kh,kw], pad 1.
CONV = """
#include <stdio.h>
#define C @C@
#define H @H@
#define W @H@
#define F @F@
#define K 3
static float X[C][H][W], Wt[F][C][K][K], Y[F][H][W];
int main(void) {
  unsigned s = 1;
  for (int i = 0; i < C * H * W; ++i) { s = s * 1103515245u + 12345u; (&X[0][0][0])[i] = (float)(s >> 8) / 16777216.0f; }
  for (int i = 0; i < F * C * K * K; ++i) { s = s * 1103515245u + 12345u; (&Wt[0][0][0][0])[i] = (float)(s >> 8) / 16777216.0f; }
  for (int f = 0; f < F; ++f)
    for (int ho = 0; ho < H; ++ho)
      for (int wo = 0; wo < W; ++wo)
        for (int c = 0; c < C; ++c)
          for (int kh = 0; kh < K; ++kh)
            for (int kw = 0; kw < K; ++kw) {
              int hi = ho - 1 + kh, wi = wo - 1 + kw;
              if (0 <= hi && hi < H && 0 <= wi && wi < W) Y[f][ho][wo] += X[c][hi][wi] * Wt[f][c][kh][kw];
            }
  double sum = 0;
  for (int i = 0; i < F * H * W; ++i) sum += (&Y[0][0][0])[i];
  printf("%f\\n", sum);
  return 0;
}
"""

# The .pto's three ops on global tensors: S = Q K^T * scale, P = softmax(S), O = P V.
ATTENTION = """
#include <math.h>
#include <stdio.h>
#define L @L@
#define D 64
static float Q[L][D], Kt[D][L], Km[L][D], V[L][D], S[L][L], P[L][L], O[L][D];
int main(void) {
  unsigned s = 1;
  for (int i = 0; i < L; ++i)
    for (int d = 0; d < D; ++d) {
      s = s * 1103515245u + 12345u; Q[i][d] = (float)(s >> 8) / 16777216.0f;
      s = s * 1103515245u + 12345u; Km[i][d] = (float)(s >> 8) / 16777216.0f;
      s = s * 1103515245u + 12345u; V[i][d] = (float)(s >> 8) / 16777216.0f;
    }
  for (int i = 0; i < L; ++i)
    for (int d = 0; d < D; ++d) Kt[d][i] = Km[i][d];
  const float scale = 1.0f / sqrtf((float)D);
  for (int i = 0; i < L; ++i)
    for (int j = 0; j < L; ++j) {
      float acc = 0;
      for (int d = 0; d < D; ++d) acc += Q[i][d] * Kt[d][j];
      S[i][j] = acc * scale;
    }
  for (int i = 0; i < L; ++i) {
    float m = S[i][0], sum = 0;
    for (int j = 1; j < L; ++j) m = S[i][j] > m ? S[i][j] : m;
    for (int j = 0; j < L; ++j) { P[i][j] = expf(S[i][j] - m); sum += P[i][j]; }
    for (int j = 0; j < L; ++j) P[i][j] /= sum;
  }
  for (int i = 0; i < L; ++i)
    for (int d = 0; d < D; ++d) {
      float acc = 0;
      for (int j = 0; j < L; ++j) acc += P[i][j] * V[j][d];
      O[i][d] = acc;
    }
  double sum = 0;
  for (int i = 0; i < L; ++i)
    for (int d = 0; d < D; ++d) sum += O[i][d];
  printf("%f\\n", sum);
  return 0;
}
"""

# name: (twin's C source, workload, -D definitions)
CC, CH, CF = (int(x) for x in a.conv.split(","))
KERNELS = {
    "matmul": (MATMUL, "matmul_naive.pto", [f"M={N}", f"N={N}", f"K={N}"]),
    "conv2d": (CONV.replace("@C@", str(CC)).replace("@H@", str(CH)).replace("@F@", str(CF)), "conv2d_basic.pto",
               ["N=1", f"C={CC}", f"H={CH}", f"W={CH}", f"F={CF}"]),
    "attention": (ATTENTION.replace("@L@", str(a.seq)), "attention_naive.pto", [f"L={a.seq}", "D=64"]),
}


def cpu_of(argv):
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise SystemExit(f"{argv[0]} failed: {p.stderr[-1500:]}")
    ru2 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (ru2.ru_utime - ru.ru_utime) + (ru2.ru_stime - ru.ru_stime)


def bench(name, tmp):
    twin, workload, defines = KERNELS[name]
    c = os.path.join(tmp, f"{name}.c")
    open(c, "w").write(twin)
    exe = os.path.join(tmp, name)
    subprocess.run(["gcc", "-O2", "-o", exe, c, "-lm"], check=True)
    prog = os.path.join(a.src, "workloads", workload)
    args = ["run", prog, *[x for d in defines for x in ("-D", d)], "-o", os.devnull]
    cg = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", f"--cachegrind-out-file={tmp}/cg.out",
          "--I1=32768,8,64", "--D1=32768,8,64", "--LL=262144,8,64", exe]
    print(f"{name}: {workload} {' '.join(defines)}; load {os.getloadavg()[0]:.2f}")
    ratio, base_ratio, gain = [], [], []
    for r in range(a.rounds):
        runs = [("cachegrind", cg), ("pto-sim", [a.pto_sim, *args])]
        if a.base:
            runs.append(("base", [a.base, *args]))
        if r % 2:
            runs.reverse()
        t = {n: cpu_of(argv) for n, argv in runs}
        ratio.append(t["pto-sim"] / t["cachegrind"])
        line = f"  round {r + 1}: cachegrind {t['cachegrind']:.2f} s CPU, pto-sim {t['pto-sim']:.2f} s ({ratio[-1]:.2f}x)"
        if a.base:
            base_ratio.append(t["base"] / t["cachegrind"])
            gain.append(t["pto-sim"] / t["base"])
            line += f", base {t['base']:.2f} s ({base_ratio[-1]:.2f}x; after / before {gain[-1]:.3f})"
        print(line)
    line = f"{name}: median CPU ratio to Cachegrind: pto-sim {statistics.median(ratio):.2f}x (target <= 1.0x)"
    if a.base:
        line += (f", base {statistics.median(base_ratio):.2f}x; pto-sim / base {statistics.median(gain):.3f}")
    print(f"{line}; load {os.getloadavg()[0]:.2f} after")


names = a.kernels.split(",")
for n in names:
    if n not in KERNELS:
        raise SystemExit(f"--kernels: unknown kernel '{n}' (known: {', '.join(KERNELS)})")
print(f"host: {host()}, {os.cpu_count()} cores")
with tempfile.TemporaryDirectory(prefix="ptosim-bench-cg-") as tmp:
    for n in names:
        bench(n, tmp)
