#!/usr/bin/env python3
"""Why: issue 30 asks `pto-sim curves` to give >= 32 size x associativity
points in <= 1.5x the CPU time of one `pto-sim run` of the same input. This
runs both in interleaved rounds and prints the median ratio of their CPU
times (user + sys of the child). Usage:
  curves_speed.py PTO_SIM SOURCE_DIR [--rounds N] [-D NAME=VALUE ...]"""
import argparse
import os
import resource
import statistics
import subprocess

ap = argparse.ArgumentParser()
ap.add_argument("pto_sim")
ap.add_argument("src")
ap.add_argument("--rounds", type=int, default=5)
ap.add_argument("--program", default="workloads/matmul_naive.pto")
ap.add_argument("-D", action="append", default=None)
a = ap.parse_args()
defines = a.D or ["M=128", "N=128", "K=128"]
prog = [os.path.join(a.src, a.program)] + [x for d in defines for x in ("-D", d)]
env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
CURVES = ["curves", *prog, "--sizes", "4KiB..1MiB:x2", "--ways", "1,2,4,8,16,full"]
RUN = ["run", *prog]


def cpu(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([a.pto_sim, *args], env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


ratios = []
for r in range(a.rounds):
    t_run, t_curves = cpu(RUN), cpu(CURVES)
    ratios.append(t_curves / t_run)
    print(f"round {r + 1}: run {t_run:.3f} s CPU, curves (54 points) {t_curves:.3f} s CPU, ratio {ratios[-1]:.3f}")
print(f"median CPU ratio curves / run: {statistics.median(ratios):.3f} over {a.rounds} interleaved rounds")
