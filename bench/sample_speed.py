#!/usr/bin/env python3
"""What a sampled run (`pto-sim run --sample`, docs/SAMPLING.md) costs and how
close it comes (issue 30, item 3): for each long workload, the full run and
the sampled runs (functional warming, and none) in interleaved rounds (order
rotated each round); prints each sampled run's CPU time (user + system,
wait4) as a fraction of the full run's, medians over the rounds, and each
headline estimate's error against the full run with its 95 % interval.

usage: sample_speed.py PTO_SIM SOURCE_DIR [--rounds N] [--quick] [--check]
       [--sample-unit U] [--sample-every K] [--sample-warmup W]
--quick: the reduced sizes the suite runs; --check: exit 1 unless every
estimate's interval holds the full run's value (the CPU fractions are
printed, never asserted: timing must not make a test flaky).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from host_name import host

ap = argparse.ArgumentParser()
ap.add_argument("pto_sim")
ap.add_argument("src")
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--quick", action="store_true")
ap.add_argument("--check", action="store_true")
ap.add_argument("--sample-unit", default="1000")
ap.add_argument("--sample-every", default="50")
ap.add_argument("--sample-warmup", default="2000")
a = ap.parse_args()
W = lambda n: os.path.join(a.src, "workloads", n)
env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")

# (name, program, -D)
if a.quick:
    CASES = [("attention_naive", W("attention_naive.pto"), ["L=128", "D=32"]),
             ("conv2d_basic", W("conv2d_basic.pto"), ["C=4", "H=12", "W=12", "F=4"])]
else:
    CASES = [("attention_naive", W("attention_naive.pto"), ["L=1024", "D=64"]),
             # The seven-loop conv2d at the reduced ResNet layer bench/vs_cachegrind.py runs.
             ("conv2d_basic", W("conv2d_basic.pto"), ["C=32", "H=28", "W=28", "F=32"])]
SAMPLE = ["--sample", "--sample-unit", a.sample_unit, "--sample-every", a.sample_every,
          "--sample-warmup", a.sample_warmup]
MODES = {"full": [], "functional": SAMPLE, "none": SAMPLE + ["--sample-warming", "none"]}


def timed(argv):
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    ru2 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {p.returncode}: {p.stderr[-2000:]}")
    return json.loads(p.stdout), wall, (ru2.ru_utime - ru.ru_utime) + (ru2.ru_stime - ru.ru_stime)


def truth(report, metric):
    if metric in ("cycles", "seconds", "dram_bytes"):
        return report[metric]
    name, key = metric.rsplit(".", 1)
    return next(l for l in report["levels"] if l["name"] == name)[key]


print(f"host: {host()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}; sample {' '.join(SAMPLE[1:])}")
missed = 0
for name, prog, D in CASES:
    argv = [a.pto_sim, "run", prog, *[x for d in D for x in ("-D", d)], "--format", "json"]
    cpu = {m: [] for m in MODES}
    last = {}
    for r in range(a.rounds):
        order = list(MODES)[r % len(MODES):] + list(MODES)[:r % len(MODES)]
        for m in order:
            rep, wall, c = timed(argv + MODES[m])
            cpu[m].append(c)
            last[m] = rep
    full = last["full"]
    print(f"{name} {' '.join(D)}: full run {statistics.median(cpu['full']):.2f} s CPU, "
          f"{full['core']['accesses']} accesses")
    for m in ("functional", "none"):
        fr = statistics.median(x / y for x, y in zip(cpu[m], cpu["full"]))
        s = last[m]["sample"]
        print(f"  warming {m}: {s['units']} units, CPU {100 * fr:.1f} % of the full run's (median of {a.rounds})")
        for iv in s["intervals"]:
            t = truth(full, iv["name"])
            inside = iv["low"] <= t <= iv["high"]
            missed += not inside
            err = (iv["estimate"] - t) / t if t else 0.0
            print(f"    {iv['name']:<20} true {t:<14.6g} estimate {iv['estimate']:<14.6g} error {100 * err:+6.2f} % "
                  f"+- {100 * iv['relative_half_width']:.2f} % {'inside' if inside else 'OUTSIDE'}")
print(f"{missed} estimate(s) outside their interval")
sys.exit(1 if a.check and missed else 0)
