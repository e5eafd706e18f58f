#!/usr/bin/env python3
"""End-to-end speed benchmarks of pto-sim (docs/PERFORMANCE.md).

usage: run_benchmarks.py BUILD_DIR SOURCE_DIR [--repeat N] [--only NAME[,NAME]] [--json FILE]

Cases (all on the built-in default config, wall time of the whole process,
best of --repeat runs, default 3):
  din_replay   pto-sim run --trace <naive 128^3 matmul din trace>    target 60 M/s
               (trace from BUILD_DIR/bench/gen_matmul_trace 128 into a temp
               file; its generation is not timed, its parsing is)
  din_replay_simple  the same on the default config with `dram: {timing:
               simple}` (latency + bandwidth, no banks or rows): what the
               detailed DRAM model costs the replay
  pto_naive    pto-sim run workloads/matmul_naive.pto -D M=256 -D N=256 -D K=256   target 25 M/s
  pto_matmul   pto-sim run workloads/matmul_op.pto -D M=256 -D N=256 -D K=256      target 60 M/s

With din_replay, BUILD_DIR/bench/floor_model replays the same trace (held in
memory, best of --repeat in-process runs) through the least code that yields
the same cache counts, with no parsing, timing or reports; the script checks
that its counts equal pto-sim's and prints pto-sim's rate as a fraction of
the floor's, a figure that drifts less with the machine's speed than either.

"Accesses" are the simulated accesses: the L1's reads + writes from the JSON
report, i.e. the line requests the cache hierarchy served (an access that
straddles a line counts once per line). `core.accesses` (the events the
producer emitted) is printed alongside; for these three cases every event is
a global access within one line, so the two agree.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def find(build, *candidates):
    for c in candidates:
        p = os.path.join(build, c)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    sys.exit(f"run_benchmarks: none of {candidates} found under {build} (build the targets pto-sim and gen_matmul_trace)")


def timed(cmd):
    """Runs cmd once; returns (wall seconds, JSON report)."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"run_benchmarks: {' '.join(cmd)} exited {p.returncode}:\n{p.stderr}")
    return wall, json.loads(p.stdout)


COUNTED = ("reads", "writes", "read_misses", "write_misses", "evictions", "writebacks",
           "compulsory_misses", "capacity_misses", "conflict_misses")


def floor_counts(floor, trace, report, repeat=1):
    """Runs floor_model on `trace`; exits if its counts differ from pto-sim's `report`. Returns its JSON."""
    p = subprocess.run([floor, trace, str(max(1, repeat))], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"run_benchmarks: floor_model exited {p.returncode}:\n{p.stderr}")
    f = json.loads(p.stdout)
    levels = {l["name"]: l for l in report["levels"]}
    for fl in f["levels"]:
        got = {k: levels[fl["name"]][k] for k in COUNTED}
        want = {k: fl[k] for k in COUNTED}
        if got != want:
            sys.exit(f"run_benchmarks: floor_model and pto-sim disagree on {fl['name']}: {want} vs {got}")
    return f


def floor_case(floor, trace, report, rate, repeat):
    f = floor_counts(floor, trace, report, repeat)
    frate = f["accesses_per_second"]
    print(f"{'  floor_model':<17} {f['accesses']:>12} {'':>12} {f['seconds']:>8.3f} {frate / 1e6:>9.1f}"
          f"   (same counts; din_replay runs at {rate / frate:.2f} of it)")
    sys.stdout.flush()
    return dict(case="floor_model", label="the same cache work, nothing else (bench/floor_model.cpp)",
                command=f"{floor} {trace}", accesses=f["accesses"], seconds=f["seconds"],
                accesses_per_second=frate, din_replay_fraction=rate / frate)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("source")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated case names")
    ap.add_argument("--json", default="", help="also write the results here")
    a = ap.parse_args()

    pto_sim = find(a.build, "sim/cli/pto-sim", "pto-sim", "bin/pto-sim")
    gen = find(a.build, "bench/gen_matmul_trace", "gen_matmul_trace", "bin/gen_matmul_trace")
    floor = find(a.build, "bench/floor_model", "floor_model", "bin/floor_model")
    wl = os.path.join(a.source, "workloads")
    tmp = tempfile.mkdtemp(prefix="pto-sim-bench-")
    trace = os.path.join(tmp, "matmul128.din")
    simple_cfg = os.path.join(tmp, "default-simple-dram.yaml")
    with open(os.path.join(a.source, "configs", "default.yaml")) as f:
        text = f.read()
    if "timing: detailed" not in text:
        sys.exit("run_benchmarks: configs/default.yaml no longer says `timing: detailed`")
    with open(simple_cfg, "w") as f:
        f.write(text.replace("timing: detailed", "timing: simple", 1))

    dims = ["-D", "M=256", "-D", "N=256", "-D", "K=256"]
    cases = [
        ("din_replay", "din replay, naive 128^3 matmul trace", [pto_sim, "run", "--trace", trace], 60e6),
        ("din_replay_simple", "the same with simple DRAM timing",
         [pto_sim, "run", "--trace", trace, "--config", simple_cfg], 60e6),
        ("pto_naive", "pto-sim run matmul_naive.pto 256^3", [pto_sim, "run", os.path.join(wl, "matmul_naive.pto"), *dims], 25e6),
        ("pto_matmul", "pto-sim run matmul_op.pto 256^3", [pto_sim, "run", os.path.join(wl, "matmul_op.pto"), *dims], 60e6),
    ]
    only = set(filter(None, a.only.split(",")))
    cases = [c for c in cases if not only or c[0] in only]
    if any(c[0].startswith("din_replay") for c in cases):
        with open(trace, "w") as f:
            subprocess.run([gen, "128"], stdout=f, check=True)

    results = []
    print(f"{'case':<17} {'accesses':>12} {'events':>12} {'best s':>8} {'M acc/s':>9} {'target':>7} {'ratio':>6}")
    for key, label, cmd, target in cases:
        best, rep = None, None
        for _ in range(max(1, a.repeat)):
            wall, r = timed(cmd + ["--format", "json"])
            if best is None or wall < best:
                best, rep = wall, r
        l1 = next(l for l in rep["levels"] if l["name"] == "L1")
        accesses = l1["reads"] + l1["writes"]
        events = rep.get("core", {}).get("accesses", 0)
        rate = accesses / best
        results.append(dict(case=key, label=label, command=" ".join(cmd), accesses=accesses, events=events,
                            seconds=best, accesses_per_second=rate, target=target, ratio=rate / target))
        print(f"{key:<17} {accesses:>12} {events:>12} {best:>8.3f} {rate / 1e6:>9.1f} {target / 1e6:>6.0f}M {rate / target:>6.2f}")
        sys.stdout.flush()
        if key == "din_replay":
            results.append(floor_case(floor, trace, rep, rate, a.repeat))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=2)
    try:
        for f in (trace, simple_cfg):
            if os.path.exists(f):
                os.remove(f)
        os.rmdir(tmp)
    except OSError:
        pass


if __name__ == "__main__":
    main()
