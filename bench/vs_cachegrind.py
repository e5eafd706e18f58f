#!/usr/bin/env python3
"""The program path against Cachegrind (issue 30, item 2): pto-sim running
workloads/matmul_naive.pto at N^3 on the default config (L1 32 KiB 8-way,
L2 256 KiB 8-way, 64 B lines; timing and 3C on), with two threads and with
--single-thread, against `valgrind --tool=cachegrind --cache-sim=yes`
running a native C twin of the same loop (compiled here, gcc -O2) on the
same geometry (D1 = L1, LL = L2). CPU time of all threads (user + system of
the child), interleaved rounds, medians of per-round ratios. Target: <= 1.0x.

usage: vs_cachegrind.py PTO_SIM SOURCE_DIR [--size 256] [--rounds 3]
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("pto_sim")
ap.add_argument("src")
ap.add_argument("--size", type=int, default=256)
ap.add_argument("--rounds", type=int, default=3)
a = ap.parse_args()
if not shutil.which("valgrind"):
    raise SystemExit("valgrind is not installed (apt-get install valgrind)")
env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
N = a.size
# The .pto's loop: C[i, j] += A[i, k] * B[k, j], fp32, row-major.
TWIN = f"""
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


def cpu_of(argv):
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise SystemExit(f"{argv[0]} failed: {p.stderr[-1500:]}")
    ru2 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (ru2.ru_utime - ru.ru_utime) + (ru2.ru_stime - ru.ru_stime)


def host():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


with tempfile.TemporaryDirectory(prefix="ptosim-bench-cg-") as tmp:
    c = os.path.join(tmp, "twin.c")
    open(c, "w").write(TWIN)
    exe = os.path.join(tmp, "twin")
    subprocess.run(["gcc", "-O2", "-o", exe, c], check=True)
    prog = os.path.join(a.src, "workloads", "matmul_naive.pto")
    pto = [a.pto_sim, "run", prog, "-D", f"M={N}", "-D", f"N={N}", "-D", f"K={N}", "-o", os.devnull]
    cg = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", f"--cachegrind-out-file={tmp}/cg.out",
          "--I1=32768,8,64", "--D1=32768,8,64", "--LL=262144,8,64", exe]
    print(f"host: {host()}, {os.cpu_count()} cores; matmul_naive {N}^3; load {os.getloadavg()[0]:.2f}")
    r2, r1 = [], []
    for r in range(a.rounds):
        runs = [("cachegrind", cg), ("pto-sim", pto), ("pto-sim --single-thread", pto + ["--single-thread"])]
        if r % 2:
            runs.reverse()
        t = {name: cpu_of(argv) for name, argv in runs}
        r2.append(t["pto-sim"] / t["cachegrind"])
        r1.append(t["pto-sim --single-thread"] / t["cachegrind"])
        print(f"round {r + 1}: cachegrind {t['cachegrind']:.2f} s CPU, pto-sim {t['pto-sim']:.2f} s "
              f"({r2[-1]:.2f}x), --single-thread {t['pto-sim --single-thread']:.2f} s ({r1[-1]:.2f}x)")
    print(f"median CPU ratio to Cachegrind: pto-sim {statistics.median(r2):.2f}x, --single-thread "
          f"{statistics.median(r1):.2f}x (target <= 1.0x); load {os.getloadavg()[0]:.2f} after")
