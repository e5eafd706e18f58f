#!/usr/bin/env python3
"""What attribution costs: matmul_naive.pto (256³ by default) run plainly,
with per-line attribution and epochs (--by-line --epoch 10000), and with a
timeline as well, in interleaved rounds (the order rotates each round), so
that every ratio compares runs taken in the same minute on a VM whose speed
drifts 2-3x within an hour. With --base BUILD it also runs that build's
pto-sim plainly (the build without attribution): `off` against `base` is
what the feature costs when it is not asked for.

usage: attribution_overhead.py BUILD SOURCE_DIR [--rounds 5] [--size 256] [--base BUILD] [--json FILE]

The target (issue 14): on / off <= 1.15; off / base within the noise.
Before timing, it checks that attribution changed no count of the report.
Besides the wall time it prints each run's CPU time (user + system of the
process, both of its threads): on a loaded VM the wall time also measures
the waiting for a core, the CPU time only the work; it prints the load
average before and after.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def binary(build):
    for p in ("sim/cli/pto-sim", "pto-sim"):
        if os.path.exists(os.path.join(build, p)):
            return os.path.join(build, p)
    sys.exit(f"no pto-sim in {build}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("src")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--base")
    ap.add_argument("--json")
    a = ap.parse_args()
    exe = binary(a.build)
    prog = os.path.join(a.src, "workloads", "matmul_naive.pto")
    dims = ["-D", f"M={a.size}", "-D", f"N={a.size}", "-D", f"K={a.size}"]
    tmp = tempfile.mkdtemp(prefix="pto-sim-attr-")
    timeline = os.path.join(tmp, "t.json")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    variants = {
        "off": [exe, "run", prog, *dims, "--format", "json"],
        "on": [exe, "run", prog, *dims, "--format", "json", "--by-line", "--epoch", "10000"],
        "timeline": [exe, "run", prog, *dims, "--format", "json", "--by-line", "--epoch", "10000",
                     "--timeline", timeline],
    }
    if a.base:
        variants["base"] = [binary(a.base), "run", prog, *dims, "--format", "json"]

    def once(name):
        before = os.times()
        t = time.perf_counter()
        p = subprocess.run(variants[name], capture_output=True, text=True, env=env)
        wall = time.perf_counter() - t
        after = os.times()
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        if p.returncode != 0:
            sys.exit(f"{name}: exit {p.returncode}: {p.stderr[:500]}")
        return wall, json.loads(p.stdout), cpu

    # The counts first: attribution must change none of them.
    print("load average: %.2f %.2f %.2f" % os.getloadavg())
    _, off, _ = once("off")
    _, on, _ = once("on")
    if off["levels"] != on["levels"] or off["cycles"] != on["cycles"]:
        sys.exit("attribution changed the report's counts")
    accesses = sum(l["reads"] + l["writes"] for l in off["levels"] if l["name"] == "L1")
    print(f"matmul_naive {a.size}^3: {accesses:,} L1 line requests, {len(on['epochs'])} epochs, "
          f"{len(on['by_line'])} lines attributed; counts equal with and without attribution")

    names = list(variants)
    walls = {n: [] for n in names}
    cpus = {n: [] for n in names}
    for r in range(a.rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for n in order:
            w, _, c = once(n)
            walls[n].append(w)
            cpus[n].append(c)
        print(f"round {r + 1}: " + ", ".join(f"{n} {walls[n][-1]:.2f} s (cpu {cpus[n][-1]:.2f} s)" for n in names),
              flush=True)

    def per_round(t):
        out = {"on/off": [o / f for o, f in zip(t["on"], t["off"])],
               "timeline/off": [o / f for o, f in zip(t["timeline"], t["off"])]}
        if a.base:
            out["off/base"] = [o / b for o, b in zip(t["off"], t["base"])]
        return out

    ratios, cpu_ratios = per_round(walls), per_round(cpus)
    for label, rs in (("wall", ratios), ("cpu", cpu_ratios)):
        for k, v in rs.items():
            print(f"{label} {k}: median {statistics.median(v):.3f} (rounds: {', '.join(f'{x:.3f}' for x in v)})")
    print("load average: %.2f %.2f %.2f" % os.getloadavg())
    print(f"median walls: " + ", ".join(f"{n} {statistics.median(walls[n]):.2f} s "
                                        f"({accesses / statistics.median(walls[n]) / 1e6:.1f} M/s)" for n in names))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"walls": walls, "cpus": cpus, "ratios": ratios, "cpu_ratios": cpu_ratios,
                       "accesses": accesses}, f, indent=1)


if __name__ == "__main__":
    main()
