#!/usr/bin/env python3
"""Why: issue 30 asks whether `pto-sim run` should default to one thread.
That depends on a lone run's wall time (what a user waits for) with the
interpreter and the simulation on two threads against `--single-thread`,
on a quiet machine. This runs both in interleaved rounds and prints each
round's wall and CPU seconds, the load average, and the median ratio of
wall times (two threads / one). Usage:
  threads_wall.py PTO_SIM SOURCE_DIR [--rounds 5] [--program workloads/matmul_naive.pto] [-D NAME=VALUE ...]"""
import argparse
import os
import resource
import statistics
import subprocess
import time

ap = argparse.ArgumentParser()
ap.add_argument("pto_sim")
ap.add_argument("src")
ap.add_argument("--rounds", type=int, default=5)
ap.add_argument("--program", default="workloads/matmul_naive.pto")
ap.add_argument("-D", action="append", default=None)
a = ap.parse_args()
defines = a.D or ["M=256", "N=256", "K=256"]
base = [a.pto_sim, "run", os.path.join(a.src, a.program), *[x for d in defines for x in ("-D", d)], "-o", os.devnull]
env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def measure(argv):
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    ru2 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (ru2.ru_utime - ru.ru_utime) + (ru2.ru_stime - ru.ru_stime)


print(f"{a.program} {' '.join(defines)}; {os.cpu_count()} cores")
ratios = []
for r in range(a.rounds):
    load = os.getloadavg()[0]
    runs = [("two", base), ("one", base + ["--single-thread"])]
    if r % 2:
        runs.reverse()
    t = {name: measure(argv) for name, argv in runs}
    ratios.append(t["two"][0] / t["one"][0])
    print(f"round {r + 1} (load {load:.2f}): two threads {t['two'][0]:.2f} s wall {t['two'][1]:.2f} s CPU, "
          f"--single-thread {t['one'][0]:.2f} s wall {t['one'][1]:.2f} s CPU, wall ratio {ratios[-1]:.2f}")
print(f"median wall ratio two threads / --single-thread: {statistics.median(ratios):.2f} over {a.rounds} "
      f"interleaved rounds; load {os.getloadavg()[0]:.2f} after")
