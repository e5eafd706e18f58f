#!/usr/bin/env python3
"""How well `pto-sim sweep` uses the cores: 8 equal points with -j 1 and
with -j 2 (or -j N), in interleaved rounds so that both see the same machine
(this VM's speed drifts 2-3x within minutes); prints each round's ratio and
their median. Target on 2 cores: >= 1.8x.

usage: sweep_scaling.py PTO_SIM SOURCE_DIR [--rounds N] [--jobs N] [--size N]

The points run matmul_naive.pto at M = N = K = --size (default 128); they
differ only in caches.L1.seed, which LRU ignores: equal work. Each round
also prints the cores the processes got (their CPU seconds / wall seconds)
and the load average before it: -j 1 runs each point with two threads (the
interpreter and the simulation), so it may already keep more than one core
busy; -j N runs them with --single-thread (one core each). The machine's
other load is the canary: a figure taken while other work held the cores is
not the sweep's, and the closing line says so.
"""
import argparse
import os
import resource
import statistics
import subprocess
import tempfile
import time
from host_name import host

ap = argparse.ArgumentParser()
ap.add_argument("pto_sim")
ap.add_argument("src")
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--jobs", type=int, default=2)
ap.add_argument("--size", type=int, default=128)
a = ap.parse_args()
prog = os.path.join(a.src, "workloads", "matmul_naive.pto")
env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def sweep(jobs, tmp, tag):
    out = os.path.join(tmp, f"{tag}.csv")
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run([a.pto_sim, "sweep", prog, "-D", f"M={a.size}", "-D", f"N={a.size}", "-D", f"K={a.size}",
                        "--set", "caches.L1.seed=1..8", "-j", str(jobs), "-o", out], capture_output=True, text=True,
                       env=env)
    dt = time.perf_counter() - t
    ru2 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru2.ru_utime - ru.ru_utime) + (ru2.ru_stime - ru.ru_stime)
    if p.returncode != 0:
        raise SystemExit(f"sweep -j {jobs} failed: {p.stderr}")
    rows = open(out).read().splitlines()
    assert len(rows) == 9, rows
    return dt, cpu


print(f"host: {host()}, {os.cpu_count()} cores; matmul_naive {a.size}^3 x 8 points")
ratios, loads = [], []
with tempfile.TemporaryDirectory(prefix="ptosim-bench-sweep-") as tmp:
    for r in range(a.rounds):
        # Alternate which goes first so that a drift within a round favours neither.
        order = [1, a.jobs] if r % 2 == 0 else [a.jobs, 1]
        loads.append(os.getloadavg()[0])
        res = {j: sweep(j, tmp, f"r{r}-j{j}") for j in order}
        times = {j: res[j][0] for j in res}
        ratios.append(times[1] / times[a.jobs])
        # CPU seconds of all processes / wall seconds: the cores the sweep
        # actually got (on a loaded machine, fewer than -j asks for).
        cores = {j: res[j][1] / res[j][0] for j in res}
        print(f"round {r + 1} (load {loads[-1]:.2f}): -j 1 {times[1]:.2f} s ({cores[1]:.2f} cores busy), -j {a.jobs} {times[a.jobs]:.2f} s "
              f"({cores[a.jobs]:.2f} cores busy), speed-up {ratios[-1]:.2f}x")
print(f"median speed-up of -j {a.jobs} over -j 1 on 8 equal points: {statistics.median(ratios):.2f}x "
      f"(rounds: {', '.join(f'{x:.2f}' for x in ratios)}; target 1.8x on 2 cores); "
      f"1-minute load average before the rounds {min(loads):.2f}-{max(loads):.2f}")
# The 1-minute average includes this benchmark's own earlier rounds (up to
# -j cores): only well above that did other work share the machine.
if max(loads) > a.jobs + 0.5:
    print(f"the machine was busy (load up to {max(loads):.2f} before a round, this benchmark adds up to {a.jobs}): "
          f"other work took cores from the sweeps; not a figure of pto-sim's")
