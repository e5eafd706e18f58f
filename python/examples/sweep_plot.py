#!/usr/bin/env python3
"""Sweeps the tile sizes of workloads/matmul_tiled.pto and plots cycles and
L1 miss rate against TN, one line per TM (docs/PYTHON.md).

    PYTHONPATH=python python3 python/examples/sweep_plot.py [OUT.png] [--size N]
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files, no display
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ptosim  # noqa: E402

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
ap = argparse.ArgumentParser()
ap.add_argument("out", nargs="?", default="matmul_tiles.png")
ap.add_argument("--size", type=int, default=128, help="M = N = K")
args = ap.parse_args()

n = args.size
rows = ptosim.sweep(os.path.join(root, "workloads", "matmul_tiled.pto"),
                    params={"M": n, "N": n, "K": n, "TM": [16, 32], "TN": f"16..{n}:x2", "TK": 32})
ok = [r for r in rows if r["status"] == "ok"]
for r in rows:
    if r["status"] != "ok":
        print(f"skipped {r['point']}: {r['status']}: {r['error']}")

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
for tm in sorted({r["param.TM"] for r in ok}):
    line = sorted((r["param.TN"], r["cycles"], r["L1.miss_rate"]) for r in ok if r["param.TM"] == tm)
    ax1.plot([x[0] for x in line], [x[1] for x in line], marker="o", label=f"TM={tm}")
    ax2.plot([x[0] for x in line], [x[2] for x in line], marker="o", label=f"TM={tm}")
for ax, label in ((ax1, "cycles"), (ax2, "L1 miss rate")):
    ax.set_xscale("log", base=2)
    ax.set_xlabel("TN")
    ax.set_ylabel(label)
    ax.legend()
fig.suptitle(f"matmul_tiled {n}x{n}x{n}, built-in config")
fig.tight_layout()
fig.savefig(args.out)
best = min(ok, key=lambda r: r["cycles"])
print(f"{len(ok)} points plotted to {args.out}; fewest cycles: TM={best['param.TM']} TN={best['param.TN']} "
      f"({best['cycles']} cycles)")
