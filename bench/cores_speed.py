#!/usr/bin/env python3
"""What several cores cost in simulation time (issue 27), in interleaved
rounds (the order alternates each round) on a VM whose speed drifts:

1. One core against main: the same one-core runs by this build and by a
   build of main (--base BUILD_OF_MAIN, with main's source tree --base-src
   for its configs, which lack the `sharing:` keys). Median CPU time (user +
   system, all threads) per run and the ratio new / main; target <= 1.05.
   A case whose cycles differ from the base's (a later change moved its
   counts on purpose: conv2d_basic since the masked lanes) is left out.
2. Eight cores against one: matmul_parallel on the Xeon and on the default
   config with core.cores=8 and 1 (this build), the simulated accesses per
   CPU second of each and their ratio; target >= 0.60.

usage: cores_speed.py BUILD SOURCE_DIR --base BUILD_OF_MAIN --base-src MAIN_SOURCE [--rounds 5] [--quick]
       [--configs-of-base]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attribution_overhead import binary  # noqa: E402
from lowering_speed import cpu_run  # noqa: E402

XEON = "configs/xeon-gold-6248r.yaml"
# (name, arguments after `run`, relative to a source tree)
ONE_CORE = [
    ("matmul_tiled 256^3 xeon", ["workloads/matmul_tiled.pto", "-D", "M=256", "-D", "N=256", "-D", "K=256",
                                 "--config", XEON]),
    ("matmul_naive 128^3 default", ["workloads/matmul_naive.pto", "-D", "M=128", "-D", "N=128", "-D", "K=128"]),
    ("conv2d_basic C=F=16 28x28 xeon", ["workloads/conv2d_basic.pto", "-D", "C=16", "-D", "F=16", "-D", "H=28",
                                        "-D", "W=28", "--config", XEON]),
]
# (name, arguments): on the Xeon (cpu core, L1D and L2 private: coherence
# among the cores) and on the default config (simple core, L1 private).
PARALLEL = [
    ("xeon", ["workloads/matmul_parallel.pto", "-D", "M=512", "-D", "N=512", "-D", "K=512", "-D", "TM=64",
              "--config", XEON]),
    ("default", ["workloads/matmul_parallel.pto", "-D", "M=512", "-D", "N=512", "-D", "K=512", "-D", "TM=64"]),
]


def run(exe, src, args, env, out):
    full = [exe, "run"] + [os.path.join(src, a) if a.startswith(("workloads/", "configs/")) else a for a in args]
    r, cpu = cpu_run(full + ["--format", "json", "-o", out], env)
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join(full)}\n{r.stderr}")
    return cpu, json.load(open(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("src")
    ap.add_argument("--base", required=True)
    ap.add_argument("--base-src", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="one round, the first program")
    ap.add_argument("--configs-of-base", action="store_true",
                    help="this build runs the one-core cases on the base tree's configs and workloads too: the "
                         "same cycles when this tree changed a config on purpose (the Xeon L3's slices)")
    a = ap.parse_args()
    new, base = binary(a.build), binary(a.base)
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    rounds = 1 if a.quick else a.rounds
    tmp = tempfile.mkdtemp(prefix="ptosim-cores-speed-")
    # A din replay: the first level's run() loop, the one-core hot path.
    din = os.path.join(tmp, "naive.din")
    r, _ = cpu_run([new, "trace", os.path.join(a.src, "workloads/matmul_naive.pto"), "-D", "M=128", "-D", "N=128",
                    "-D", "K=128", "-o", din], env)
    if r.returncode != 0:
        sys.exit(r.stderr)
    programs = [("din replay, naive 128^3 default", ["--trace", din])] + ONE_CORE
    if a.quick:
        programs = programs[:1]
    out = os.path.join(tmp, "r.json")
    times = {name: {"new": [], "base": []} for name, _ in programs}
    rate = {(p, c): [] for p, _ in PARALLEL for c in (1, 8)}
    differ = {}
    for r in range(rounds):
        order = [("new", new, a.base_src if a.configs_of_base else a.src), ("base", base, a.base_src)]
        if r % 2:
            order.reverse()
        for name, args in programs:
            cycles = {}
            for who, exe, src in order:
                cpu, rep = run(exe, src, args, env, out)
                times[name][who].append(cpu)
                cycles[who] = rep["cycles"]
            if cycles["new"] != cycles["base"]:  # not the same work: no ratio (a later change moved its counts)
                differ[name] = (cycles["new"], cycles["base"])
        for pname, pargs in PARALLEL:
            for cores in ([1, 8] if r % 2 == 0 else [8, 1]):
                cpu, rep = run(new, a.src, pargs + ["--set", f"core.cores={cores}"], env, out)
                rate[(pname, cores)].append(rep["core"]["accesses"] / cpu)
    print(f"one core, this build / main, median CPU seconds of {rounds} interleaved round(s):")
    ratios = []
    for name, _ in programs:
        if name in differ:
            print(f"  {name:34s} left out: cycles {differ[name][0]} here, {differ[name][1]} in the base")
            continue
        n, b = statistics.median(times[name]["new"]), statistics.median(times[name]["base"])
        ratios.append(n / b)
        print(f"  {name:34s} {n:7.3f} s / {b:7.3f} s = {n / b:.3f}")
    geo = 1.0
    for x in ratios:
        geo *= x
    geo **= 1 / len(ratios)
    print(f"  geometric mean {geo:.3f} (target <= 1.05)")
    for pname, _ in PARALLEL:
        r1, r8 = statistics.median(rate[(pname, 1)]), statistics.median(rate[(pname, 8)])
        print(f"matmul_parallel 512^3 TM=64 on the {pname} config: {r8 / 1e6:.3f} M accesses/CPU s with 8 cores, "
              f"{r1 / 1e6:.3f} with 1: {r8 / r1:.3f} of the one-core rate (target >= 0.60)")


if __name__ == "__main__":
    main()
