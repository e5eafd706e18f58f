#!/usr/bin/env python3
"""pto-sim's din replay against Dinero IV on the same trace, same minutes.

usage: vs_dinero.py BUILD_DIR DINERO [--rounds N]

DINERO is a dineroIV binary built from Dinero IV's d4-7 sources (not part of
this project; docs/PERFORMANCE.md says how it was built here). The script
writes the replay benchmark's trace (BUILD_DIR/bench/gen_matmul_trace 128),
checks that Dinero IV, with 3C classification, counts what
`pto-sim run --trace T --flush` counts (Dinero IV writes dirty blocks back at
the end, as --flush does), then times N interleaved rounds of: Dinero IV
without 3C, Dinero IV with 3C, `pto-sim run --trace T` (the benchmark's
command). It prints each round and the medians of the per-round ratios:
this VM's speed drifts by 2-3x within an hour, so only same-minute ratios
mean anything.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_benchmarks import ENV, find  # noqa: E402

GEOMETRY = ("-l1-usize 32k -l1-uassoc 8 -l1-ubsize 64 -l1-urepl l -l1-uwback a -l1-uwalloc a "
            "-l2-usize 256k -l2-uassoc 8 -l2-ubsize 64 -l2-urepl l -l2-uwback a -l2-uwalloc a").split()
CCC = ["-l1-uccc", "-l2-uccc"]


def run(cmd, stdin_path=None):
    """Runs cmd (stdin from a file if given); returns (wall seconds, stdout)."""
    with open(stdin_path or os.devnull) as stdin:
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdin=stdin, capture_output=True, text=True, env=ENV)
        wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"vs_dinero: {' '.join(cmd)} exited {p.returncode}:\n{p.stderr}")
    return wall, p.stdout


def dinero_counts(out):
    """{level: {metric: (total, read, write)}} from Dinero IV's report."""
    counts, level = {}, None
    for line in out.splitlines():
        if line.endswith("-ucache"):
            level = "L" + line[1]
            counts[level] = {}
        elif level:
            for metric in ("Demand Fetches", "Demand Misses", "Compulsory misses", "Capacity misses",
                           "Conflict misses"):
                if line.strip().startswith(metric):
                    f = line.split()[len(metric.split()):]
                    counts[level][metric] = (int(f[0]), int(f[3]), int(f[4]))
    return counts


def check_counts(dinero, report):
    levels = {l["name"]: l for l in report["levels"]}
    for name, d in dinero.items():
        l = levels[name]
        want = {
            "Demand Fetches": (l["reads"] + l["writes"], l["reads"], l["writes"]),
            "Demand Misses": (l["read_misses"] + l["write_misses"], l["read_misses"], l["write_misses"]),
        }
        for metric, key in (("Compulsory misses", "compulsory_misses"), ("Capacity misses", "capacity_misses"),
                            ("Conflict misses", "conflict_misses")):
            want[metric] = l[key]
            d[metric] = d[metric][0]  # totals only: pto-sim does not split the three Cs by kind
        if {k: d[k] for k in want} != want:
            sys.exit(f"vs_dinero: counts differ at {name}: Dinero IV {d}, pto-sim {want}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("dinero")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    pto_sim = find(a.build, "sim/cli/pto-sim", "pto-sim", "bin/pto-sim")
    gen = find(a.build, "bench/gen_matmul_trace", "gen_matmul_trace", "bin/gen_matmul_trace")
    with tempfile.TemporaryDirectory(prefix="pto-sim-vs-dinero-") as tmp:
        trace = os.path.join(tmp, "matmul128.din")
        with open(trace, "w") as f:
            subprocess.run([gen, "128"], stdout=f, check=True)
        _, out = run([a.dinero, "-informat", "D", *GEOMETRY, *CCC], trace)
        _, rep = run([pto_sim, "run", "--trace", trace, "--flush", "--format", "json"])
        check_counts(dinero_counts(out), json.loads(rep))
        print("counts equal (L1, L2: demand fetches and misses by kind, 3C)")
        accesses = 4210688
        rows = []
        print(f"{'round':>5} {'dinero s':>9} {'dinero+3C s':>12} {'pto-sim s':>10}  {'x dinero':>8} {'x dinero+3C':>11}")
        for r in range(1, max(1, a.rounds) + 1):
            d, _ = run([a.dinero, "-informat", "D", *GEOMETRY], trace)
            c, _ = run([a.dinero, "-informat", "D", *GEOMETRY, *CCC], trace)
            p, _ = run([pto_sim, "run", "--trace", trace, "--format", "json"])
            rows.append((d, c, p))
            print(f"{r:>5} {d:>9.3f} {c:>12.3f} {p:>10.3f}  {d / p:>8.2f} {c / p:>11.2f}")
        med = lambda xs: statistics.median(xs)  # noqa: E731
        print(f"median M accesses/s: Dinero IV {accesses / med([x[0] for x in rows]) / 1e6:.1f}, "
              f"with 3C {accesses / med([x[1] for x in rows]) / 1e6:.1f}, "
              f"pto-sim {accesses / med([x[2] for x in rows]) / 1e6:.1f}")
        print(f"median per-round ratio: pto-sim is {med([x[0] / x[2] for x in rows]):.2f}x Dinero IV, "
              f"{med([x[1] / x[2] for x in rows]):.2f}x Dinero IV with 3C (the replay target is 60/18 = 3.33x)")


if __name__ == "__main__":
    main()
