#!/usr/bin/env python3
"""Calibration suite: does pto-sim rank loop nests the way this machine does?

Times the native kernels of kernels.cpp on this machine (the minimum over
interleaved rounds of a call that follows a call of the same kernel, by
the thread's CPU time, measured twice) and
predicts each one with `pto-sim run` of its .pto twin in pto/ on a config
of this machine (`pto-sim config host --measure`, or --config): the
simulated time of two calls (-D REPS=2) minus that of one, the same warm
call. With --cold, one call from cold caches on both sides. Prints a table (measured,
predicted, predicted/measured), the Spearman rank correlation, how many
ratios lie within [0.67, 1.5] and whether the fastest measured variant is
among the predicted top 3 (the targets of issue 12; docs/PERFORMANCE.md),
and the core's state while measuring: a canary timed in every round (the
clock by a dependent add chain, and independent adds per cycle, which drop
when another tenant's thread shares the core).

    python3 bench/fidelity/run.py BUILD_DIR [--rounds 7] [--config FILE] [--only a,b] [--json OUT]
    python3 bench/fidelity/run.py BUILD_DIR --measured OLD.json [--config FILE]   # predictions only

--measured takes the native times from an earlier run's --json instead of
timing the kernels again: models compared against one measurement.

The native side is built with `-O2 -fno-tree-vectorize -fno-unroll-loops
-falign-loops=32` and no -march: scalar SSE code whose loads, stores and
flops are the loop nest's own (no FMA contraction, no unrolling).
"""
import argparse
import atexit
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else 0.0


def load_average():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def core_lines(canaries, cfg):
    """The canary's verdict per measurement (kernels.cpp, timing.h): shared with ops/run.py."""
    with open(cfg) as f:
        cm = re.search(r"^clock:\s*([0-9.]+)\s*MHz", f.read(), re.M)
    lines = []
    for i, c in enumerate(canaries):
        if len(c) == 3:
            lines.append(f"Core while measuring ({'1st' if i == 0 else '2nd'}): clock {c[0]:.0f} MHz (the config "
                         f"predicts at {cm.group(1) if cm else '?'}), independent adds per cycle best {c[1]:.2f}, median "
                         f"{c[2]:.2f} (the canary of kernels.cpp: fewer than on an idle core, another thread shares "
                         f"its issue slots and compute-bound variants measure slow)")
    return lines


def work_dir(prefix):
    """A temporary directory for the native binary and the host config,
    removed when the script exits (--json keeps the config's text)."""
    work = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, work, True)
    return work


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--config", help="a config of this machine (default: pto-sim config host --measure)")
    ap.add_argument("--only", help="comma-separated variants")
    ap.add_argument("--json", help="write the figures here too")
    ap.add_argument("--cold", action="store_true", help="time one call from cold caches instead")
    ap.add_argument("-j", type=int, default=2, help="simulations at once")
    ap.add_argument("--measured", help="an earlier run's --json: its native times, nothing timed again")
    a = ap.parse_args()
    sim = os.path.join(a.build, "sim", "cli", "pto-sim")
    work = work_dir("pto-fidelity-")
    variants = sorted(f[:-4] for f in os.listdir(os.path.join(HERE, "pto")) if f.endswith(".pto"))
    if a.only:
        variants = [v for v in variants if v in a.only.split(",")]

    cfg = a.config
    if not cfg:
        cfg = os.path.join(work, "host.yaml")
        with open(cfg, "w") as f:
            subprocess.run([sim, "config", "host", "--measure"], stdout=f, check=True)
    print(f"config: {cfg}" + (" (removed at exit; --json keeps its text)" if cfg.startswith(work) else ""),
          file=sys.stderr)

    exe = os.path.join(work, "kernels")
    if not a.measured:
        subprocess.run(["g++", "-std=c++17", "-O2", "-fno-tree-vectorize", "-fno-unroll-loops", "-falign-loops=32",
                        "-o", exe, os.path.join(HERE, "kernels.cpp")], check=True)

    def measure():
        out = subprocess.run([exe, "--rounds", str(a.rounds)] + (["--cold"] if a.cold else []) + variants,
                             capture_output=True, text=True, check=True)
        lines = out.stdout.splitlines()
        canaries.append([float(x) for l in lines if l.startswith("#canary") for x in l.split()[1:]])
        return {l.split()[0]: float(l.split()[1]) for l in lines if not l.startswith("#")}

    canaries = []

    if a.measured:
        with open(a.measured) as f:
            old = json.load(f)
        missing = [v for v in variants if v not in old["first"] or v not in old["second"]]
        if missing:
            sys.exit(f"{a.measured}: no measurement of {', '.join(missing)}")
        first, second, loads = old["first"], old["second"], old["load"]
        canaries = old.get("canary", [])
    else:
        loads = [load_average()]
        # Two measurements, each the minimum over its interleaved rounds: their
        # agreement says how stable the measured order is on this machine now;
        # the comparison takes the minimum over both.
        first = measure()
        second = measure()
        loads.append(load_average())
    measured = {v: min(first[v], second[v]) for v in variants}

    def simulate(job):
        v, reps = job
        r = subprocess.run([sim, "run", os.path.join(HERE, "pto", v + ".pto"), "--config", cfg, "--format", "json",
                            "-D", f"REPS={reps}"], capture_output=True, text=True, check=True)
        return job, json.loads(r.stdout)["seconds"]

    jobs = [(v, 1) for v in variants] + ([] if a.cold else [(v, 2) for v in variants])
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        sims = dict(pool.map(simulate, jobs))
    predicted = {v: sims[(v, 1)] if a.cold else sims[(v, 2)] - sims[(v, 1)] for v in variants}
    for v in variants:
        print(f"  {v}: predicted {predicted[v] * 1e3:.3f} ms, measured {measured[v] * 1e3:.3f} ms", file=sys.stderr)

    m = [measured[v] for v in variants]
    p = [predicted[v] for v in variants]
    rho = spearman(m, p)
    within = [v for v in variants if 0.67 <= predicted[v] / measured[v] <= 1.5]
    fastest = min(variants, key=lambda v: measured[v])
    top3 = sorted(variants, key=lambda v: predicted[v])[:3]
    mr, pr = ranks(m), ranks(p)
    print("| variant | measured ms (1st / 2nd) | predicted ms | predicted / measured | rank measured | rank predicted |")
    print("|---|---|---|---|---|---|")
    for i, v in enumerate(variants):
        print(f"| {v} | {first[v] * 1e3:.3f} / {second[v] * 1e3:.3f} | {predicted[v] * 1e3:.3f} | "
              f"{predicted[v] / measured[v]:.2f} | {mr[i]:g} | {pr[i]:g} |")
    print()
    ratios = [predicted[v] / measured[v] for v in variants]
    agree = spearman([first[v] for v in variants], [second[v] for v in variants])
    print(f"Spearman {rho:.3f} over {len(variants)} variants (vs the 1st measurement alone "
          f"{spearman([first[v] for v in variants], p):.3f}, the 2nd {spearman([second[v] for v in variants], p):.3f}); "
          f"{len(within)} of {len(variants)} ratios within [0.67, 1.5] (range {min(ratios):.2f}-{max(ratios):.2f}); "
          f"fastest measured {fastest} is {'' if fastest in top3 else 'not '}in the predicted top 3 "
          f"({', '.join(top3)})")
    rounds = f"measured earlier ({a.measured})" if a.measured else f"{a.rounds} interleaved rounds each"
    print(f"The two measured orders agree at Spearman {agree:.3f}; {rounds}; "
          f"load average {loads[0]} before, {loads[1]} after measuring")
    for line in core_lines(canaries, cfg):
        print(line)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"config_yaml": open(cfg).read(), "measured": measured, "first": first, "second": second, "predicted": predicted,
                       "spearman": rho, "measured_agreement": agree, "within": len(within),
                       "variants": len(variants), "fastest_in_top3": fastest in top3, "load": loads,
                       "canary": canaries}, f, indent=1)


if __name__ == "__main__":
    main()
