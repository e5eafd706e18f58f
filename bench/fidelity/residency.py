#!/usr/bin/env python3
"""What the power-of-two store columns (tr_blk_32) do in L1D, natively.

Builds residency.cpp and store_window.cpp with the suite's flags and runs
them: for K store lines 2 KiB apart (and K = 32 at 4 KiB) the stores of each
pass that find their line in L1D and the lines resident after a column
(residency), then cycles a position against K for 1..4 stores a position
and, at 4 KiB, with every address behind 3 dependent multiplies
(store_window), then the runs of fast and slow calls of K = 28, 32, 40, 64
(store_regimes). Native only; about a minute at low load. What they showed:
docs/PERFORMANCE.md, "Calibration" (issue 12, tr_blk_32).

    python3 bench/fidelity/residency.py [--trials N] [--skip-residency] [--skip-window] [--skip-regimes]
"""
import argparse
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FLAGS = ["-std=c++17", "-O2", "-fno-tree-vectorize", "-fno-unroll-loops", "-falign-loops=32"]
WINDOW_K = [16, 20, 24, 26, 28, 30, 32, 34, 36, 40, 48, 56, 64, 72, 96, 128]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=60)
    ap.add_argument("--skip-residency", action="store_true")
    ap.add_argument("--skip-window", action="store_true")
    ap.add_argument("--skip-regimes", action="store_true")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="pto-residency-")
    exe = {}
    for name in ("residency", "store_window", "store_regimes"):
        exe[name] = os.path.join(work, name)
        subprocess.run(["g++"] + FLAGS + ["-o", exe[name], os.path.join(HERE, name + ".cpp")], check=True)
    print("load", open("/proc/loadavg").read().split()[0])
    if not a.skip_residency:
        for k, spacing in ((24, 2048), (28, 2048), (32, 2048), (40, 2048), (64, 2048), (32, 4096)):
            subprocess.run([exe["residency"], str(k), str(spacing), str(a.trials)], check=True)
    if not a.skip_window:
        runs = [(2048, r, 0) for r in (1, 2, 3, 4)] + [(4096, 1, 0), (4096, 1, 3), (1024, 1, 0)]
        for spacing, r, chain in runs:
            out = subprocess.run([exe["store_window"], str(spacing), f"{r}:{chain}"] + [str(k) for k in WINDOW_K],
                                 capture_output=True, text=True, check=True).stdout.split()
            print(f"store_window {spacing} B apart, {r} store(s) a position, {chain} multiplies an address:",
                  " ".join(f"{out[i]}:{float(out[i + 1]):.1f}" for i in range(0, len(out), 2)))
    if not a.skip_regimes:
        # thresholds between the two regimes seen (docs/PERFORMANCE.md)
        for k, threshold in ((28, 6.5), (32, 5.5), (40, 7.5), (64, 5.0)):
            subprocess.run([exe["store_regimes"], str(k), "3000", str(threshold)], check=True)


if __name__ == "__main__":
    main()
