#!/usr/bin/env python3
"""What --check-data costs, off and on (docs/CACHES.md, "Data-integrity mode").

usage: check_data_cost.py BUILD BASE_BUILD SOURCE_DIR [--rounds N] [--dims N]

Off: the data path must cost nothing on the normal run. BUILD's pto-sim has
it compiled in (a second instantiation of every cache level, the data
pointer in requests); BASE_BUILD's is the same program without it (e.g. the
commit before it, built the same way). Each round runs both, in alternating
order, on the same inputs; the script checks that their reports agree and
prints, per case, the median of the per-round ratios BUILD / BASE_BUILD of
the CPU time of the process (both threads; 1.00 = no cost), and of the wall
time. This VM is shared and its speed drifts by 2-3x within an hour: only
ratios taken in the same minutes mean anything, and CPU time drifts less
than wall time when other processes compete for the cores.

On: BUILD's run with --check-data against BUILD's normal run, the same way.

Cases: the naive 128^3 matmul din trace (BUILD/bench/gen_matmul_trace 128,
4.2 M accesses, replayed on the default config), matmul_op.pto and
matmul_naive.pto (the interpreter's per-statement path) at --dims^3
(default 128).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
ENV.pop("PTOSIM_TEST_CACHE_FAULT", None)


def find(build, *names):
    for n in names:
        p = os.path.join(build, n)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    sys.exit(f"check_data_cost: none of {names} under {build}")


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd):
    """Runs cmd; returns (CPU seconds of both its threads, wall seconds, JSON report)."""
    c0, t0 = cpu_seconds(), time.perf_counter()
    p = subprocess.run(cmd + ["--format", "json"], capture_output=True, text=True, env=ENV)
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    if p.returncode != 0:
        sys.exit(f"check_data_cost: {' '.join(cmd)} exited {p.returncode}:\n{p.stderr}")
    return cpu, wall, json.loads(p.stdout)


def levels(rep):
    return [{k: v for k, v in l.items() if not isinstance(v, float)} for l in rep["levels"]]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("base_build")
    ap.add_argument("source")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--dims", type=int, default=128)
    a = ap.parse_args()
    new = find(a.build, "sim/cli/pto-sim", "pto-sim")
    base = find(a.base_build, "sim/cli/pto-sim", "pto-sim")
    gen = find(a.build, "bench/gen_matmul_trace", "gen_matmul_trace")
    tmp = tempfile.mkdtemp(prefix="pto-sim-check-data-cost-")
    trace = os.path.join(tmp, "matmul128.din")
    with open(trace, "w") as f:
        subprocess.run([gen, "128"], stdout=f, check=True)
    d = [x for k in "MNK" for x in ("-D", f"{k}={a.dims}")]
    prog = [os.path.join(a.source, "workloads", "matmul_op.pto"), *d]
    naive = [os.path.join(a.source, "workloads", "matmul_naive.pto"), *d]
    cases = [("din replay, matmul 128^3 trace", ["run", "--trace", trace]),
             (f"matmul_op.pto {a.dims}^3", ["run", *prog]),
             (f"matmul_naive.pto {a.dims}^3", ["run", *naive])]

    print("CPU seconds (both threads; medians) and the medians of the per-round ratios, CPU and wall")
    print(f"{'case':<32} {'accesses':>10} {'base s':>8} {'off s':>8} {'on s':>8} {'off/base':>9} {'on/off':>7}"
          f" {'wall off/base':>14}")
    for label, args in cases:
        t_base, t_off, t_on, r_off, r_on, w_off = [], [], [], [], [], []
        for i in range(a.rounds):
            runs = [("base", [base, *args, "--flush"]), ("off", [new, *args, "--flush"]),
                    ("on", [new, *args, "--check-data"])]
            if i % 2:
                runs.reverse()
            got = {}
            for name, cmd in runs:
                got[name] = timed(cmd)
            if levels(got["base"][2]) != levels(got["off"][2]):
                sys.exit(f"check_data_cost: {label}: the two builds' counts differ")
            on_rep = dict(got["on"][2])
            if levels(on_rep) != levels(got["off"][2]) or on_rep["cycles"] != got["off"][2]["cycles"]:
                sys.exit(f"check_data_cost: {label}: --check-data changed the counts or the cycles")
            t_base.append(got["base"][0])
            t_off.append(got["off"][0])
            t_on.append(got["on"][0])
            r_off.append(got["off"][0] / got["base"][0])
            r_on.append(got["on"][0] / got["off"][0])
            w_off.append(got["off"][1] / got["base"][1])
        l1 = next(l for l in got["off"][2]["levels"] if l["name"] == "L1")
        print(f"{label:<32} {l1['reads'] + l1['writes']:>10} {statistics.median(t_base):>8.3f} "
              f"{statistics.median(t_off):>8.3f} {statistics.median(t_on):>8.3f} "
              f"{statistics.median(r_off):>9.3f} {statistics.median(r_on):>7.2f} {statistics.median(w_off):>14.3f}")
        print(f"{'':<32} CPU off/base per round: {' '.join(f'{r:.3f}' for r in r_off)}")
        sys.stdout.flush()
    os.remove(trace)
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
