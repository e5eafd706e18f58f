#!/usr/bin/env python3
"""What the op lowering costs in simulation time: the same programs run by
two builds (BUILD and --base BUILD_OF_MAIN) in interleaved rounds (the
order alternates each round), so each ratio compares runs taken in the same
minute on a VM whose speed drifts 2-3x within an hour. Prints, per program,
the medians of each build's CPU time (user + system of the process, all its
threads) and their ratio, and the geometric mean of the ratios.

usage: lowering_speed.py BUILD SOURCE_DIR --base BUILD_OF_MAIN [--rounds 5] [--quick] [--json FILE]

The target (issue 26): the lowering costs no more simulation time per
program than main's (geometric mean <= 1.0). Programs main cannot run (a
tile its register file cannot hold) are skipped.
"""
import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile

from attribution_overhead import binary

XEON = "configs/xeon-gold-6248r.yaml"

# (name, program, -D values, config or None for the built-in default)
PROGRAMS = [
    ("matmul_naive 192^3", "matmul_naive.pto", {"M": 192, "N": 192, "K": 192}, XEON),
    ("matmul_tiled 256^3 16x16x32", "matmul_tiled.pto", {"M": 256, "N": 256, "K": 256, "TM": 16, "TN": 16, "TK": 32}, XEON),
    ("matmul_tiled 256^3 32x32x32 default", "matmul_tiled.pto",
     {"M": 256, "N": 256, "K": 256, "TM": 32, "TN": 32, "TK": 32}, None),
    # One pto.conv2d (workloads/conv2d_basic.pto is now the article's seven
    # scalar loops, which the op lowering does not touch).
    ("conv2d op C=F=16 28x28", "../bench/fidelity/ops/pto/conv2d_op.pto", {"C": 16, "F": 16, "H": 28, "W": 28}, XEON),
    ("conv2d_im2col_tiled C=F=16 28x28", "conv2d_im2col_tiled.pto", {"C": 16, "F": 16, "H": 28, "W": 28}, XEON),
    ("attention_naive L=256 D=64", "attention_naive.pto", {"L": 256, "D": 64}, XEON),
    ("attention_tiled L=256 D=64", "attention_tiled.pto", {"L": 256, "D": 64, "TQ": 32}, XEON),
]


def cpu_run(cmd, env):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return r, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("src")
    ap.add_argument("--base", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="one round of the first three programs")
    ap.add_argument("--json")
    a = ap.parse_args()
    exes = {"new": binary(a.build), "base": binary(a.base)}
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    progs = PROGRAMS[:3] if a.quick else PROGRAMS
    rounds = 1 if a.quick else a.rounds
    tmp = tempfile.mkdtemp(prefix="pto-sim-lowering-")
    rows, ratios = [], []
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for name, prog, defs, cfg in progs:
        args = ["run", os.path.join(a.src, "workloads", prog), "--format", "json"]
        for k, v in defs.items():
            args += ["-D", f"{k}={v}"]
        if cfg:
            args += ["--config", os.path.join(a.src, cfg)]
        times = {"new": [], "base": []}
        skipped = None
        for rnd in range(rounds):
            order = ["new", "base"] if rnd % 2 == 0 else ["base", "new"]
            for which in order:
                out = os.path.join(tmp, which + ".json")
                r, cpu = cpu_run([exes[which], *args, "-o", out], env)
                if r.returncode != 0:
                    if which == "base" and r.returncode == 2:
                        skipped = r.stderr.strip().splitlines()[0] if r.stderr.strip() else "exit 2"
                        continue
                    sys.exit(f"{which} failed on {name}: {r.stderr}")
                times[which].append(cpu)
        if skipped or not times["base"]:
            print(f"{name:40s} base cannot run it: {skipped}")
            rows.append({"program": name, "skipped": skipped})
            continue
        mn, mb = statistics.median(times["new"]), statistics.median(times["base"])
        ratio = mn / mb if mb > 0 else float("nan")
        ratios.append(ratio)
        print(f"{name:40s} new {mn:7.3f} s  base {mb:7.3f} s  ratio {ratio:5.2f}")
        rows.append({"program": name, "new_cpu_s": mn, "base_cpu_s": mb, "ratio": ratio})
    gm = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else float("nan")
    print(f"geometric mean of new/base CPU time: {gm:.3f} over {len(ratios)} programs, {rounds} rounds")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "geomean": gm, "rounds": rounds}, f, indent=1)


if __name__ == "__main__":
    main()
