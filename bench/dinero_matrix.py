#!/usr/bin/env python3
"""CPU time of pto-sim against Dinero IV over a matrix of traces x hierarchies
(issue 11, "No cliffs"), plus the two checks that cost must not depend on
geometry: a fully associative 16384-way level against an 8-way one, and the
peak memory of a 10^8-access streaming trace against a 10^7 one.

usage: dinero_matrix.py BUILD_DIR DINERO [--rounds N] [--scale F] [--only matrix,assoc,rss]
                        [--traces T1,T2] [--hierarchies H1,H2]

DINERO is a dineroIV binary built from Dinero IV's d4-7 sources (not part of
this project). Traces (BUILD_DIR/bench/gen_trace, gen_matmul_trace; written to
a temporary directory, not timed): matmul 128^3 (4.2 M accesses, whatever
--scale), random over 64 MiB, streaming (read a[i], write b[i]), stride
4160 B, conv-like (3x3, 8 channels, 64x64) -- 4.2 M accesses each (conv
4.75 M) at --scale 1, the number of accesses times --scale otherwise.
Hierarchies: LRU, write-back, write-allocate at every level, as in
HIERARCHIES below. Per cell and round the script runs, in rotating order,
Dinero IV without 3C, Dinero IV with 3C (-lN-uccc at every level) and
`pto-sim run --trace T --config C` (its default: timing model, 3C at every
level), and takes each one's CPU time (user + system, all threads, from
wait4). It prints, per cell, the medians over the rounds of
pto-sim / Dinero and pto-sim / Dinero-with-3C; this VM's speed drifts by
2-3x within an hour and other builds share its two cores, so only ratios
taken in the same minutes mean anything. Targets: <= 1 and <= 0.5.
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

KIB, MIB = 1024, 1024 * 1024
# name -> levels (size, ways, line)
HIERARCHIES = {
    "2-level": [(32 * KIB, 8, 64), (256 * KIB, 8, 64)],
    "xeon-3-level": [(32 * KIB, 8, 64), (1 * MIB, 16, 64), (32 * MIB, 16, 64)],
    "direct-mapped": [(32 * KIB, 1, 64), (256 * KIB, 1, 64)],
    "fa-4KiB": [(4 * KIB, 64, 64), (256 * KIB, 8, 64)],
    "fa-256KiB": [(32 * KIB, 8, 64), (256 * KIB, 4096, 64)],
    "lines-32-128": [(32 * KIB, 8, 32), (256 * KIB, 8, 128)],
}


TRACES = ["matmul-128", "random-64MiB", "stream", "stride-4160", "conv"]


def traces(build, scale):
    gen = find(build, "bench/gen_trace", "gen_trace")
    mm = find(build, "bench/gen_matmul_trace", "gen_matmul_trace")
    n = int(4_200_000 * scale)
    return {
        "matmul-128": [mm, "128"],
        "random-64MiB": [gen, "random", str(n)],
        "stream": [gen, "stream", str(n)],
        "stride-4160": [gen, "stride", str(n)],
        "conv": [gen, "conv", str(max(1, round(8 * scale ** 0.5)))],
    }


def config_yaml(levels):
    lines = ["name: matrix", "caches:"]
    for i, (size, ways, line) in enumerate(levels, 1):
        lines.append(f"  - {{name: L{i}, size: {size} B, ways: {ways}, line: {line} B}}")
    return "\n".join(lines) + "\n"


def dinero_args(levels, ccc):
    args = ["-informat", "D"]
    for i, (size, ways, line) in enumerate(levels, 1):
        p = f"-l{i}-u"
        args += [p + "size", str(size), p + "assoc", str(ways), p + "bsize", str(line), p + "repl", "l",
                 p + "wback", "a", p + "walloc", "a"] + ([p + "ccc"] if ccc else [])
    return args


def cpu(cmd, stdin_path=None, stdout=subprocess.DEVNULL):
    """Runs cmd; returns (CPU seconds of the child, peak RSS in KiB)."""
    with open(stdin_path or os.devnull) as stdin:
        p = subprocess.Popen(cmd, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, env=ENV)
        _, status, ru = os.wait4(p.pid, 0)
        err = p.stderr.read().decode()
        p.stderr.close()
        p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"dinero_matrix: {' '.join(cmd)} exited {p.returncode}:\n{err}")
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def matrix(a, pto_sim, tmp):
    tr = {t: cmd for t, cmd in traces(a.build, a.scale).items() if t in a.traces}
    files = {}
    for name, cmd in tr.items():
        files[name] = os.path.join(tmp, name + ".din")
        with open(files[name], "w") as f:
            subprocess.run(cmd, stdout=f, check=True)
    cfgs = {}
    for name, levels in HIERARCHIES.items():
        cfgs[name] = os.path.join(tmp, name + ".yaml")
        with open(cfgs[name], "w") as f:
            f.write(config_yaml(levels))
    cells = [(t, h) for t in tr for h in HIERARCHIES if t in a.traces and h in a.hierarchies]
    runs = {c: {"d": [], "c": [], "p": []} for c in cells}
    for r in range(a.rounds):
        t0 = time.time()
        for i, (t, h) in enumerate(cells):
            order = ["d", "c", "p"]
            k = (i + r) % 3
            for which in order[k:] + order[:k]:
                if which == "p":
                    s, _ = cpu([pto_sim, "run", "--trace", files[t], "--config", cfgs[h]])
                else:
                    s, _ = cpu([a.dinero, *dinero_args(HIERARCHIES[h], which == "c")], files[t])
                runs[(t, h)][which].append(s)
        print(f"round {r + 1} of {a.rounds}: {time.time() - t0:.0f} s", file=sys.stderr)
    med = statistics.median
    print(f"\nCPU seconds, medians of {a.rounds} interleaved rounds; ratios are medians of the per-round ratios")
    print(f"{'trace':<13} {'hierarchy':<14} {'dinero':>7} {'+3C':>7} {'pto-sim':>8} {'p/d':>6} {'p/d3C':>6}")
    worst = [0.0, 0.0]
    for (t, h), v in runs.items():
        pd = med([p / d for p, d in zip(v["p"], v["d"])])
        pc = med([p / c for p, c in zip(v["p"], v["c"])])
        worst = [max(worst[0], pd), max(worst[1], pc)]
        print(f"{t:<13} {h:<14} {med(v['d']):>7.2f} {med(v['c']):>7.2f} {med(v['p']):>8.2f} {pd:>6.2f} {pc:>6.2f}")
    print(f"worst cell: pto-sim / Dinero IV {worst[0]:.2f} (target <= 1), "
          f"pto-sim / Dinero IV with 3C {worst[1]:.2f} (target <= 0.5)")


def assoc(a, pto_sim, tmp):
    """1 MiB, 64 B lines: 16384 ways (fully associative) against 8 ways."""
    gen = find(a.build, "bench/gen_trace", "gen_trace")
    mm = find(a.build, "bench/gen_matmul_trace", "gen_matmul_trace")
    n = int(4_200_000 * a.scale)
    cases = {"random-64MiB": [gen, "random", str(n)], "matmul-128": [mm, "128"]}
    cfg = {}
    for ways in (8, 16384):
        cfg[ways] = os.path.join(tmp, f"assoc{ways}.yaml")
        with open(cfg[ways], "w") as f:
            f.write(config_yaml([(32 * KIB, 8, 64), (1 * MIB, ways, 64)]))
    print("\nL1 32 KiB 8-way over a 1 MiB L2: 16384 ways (fully associative) against 8, pto-sim CPU seconds")
    for name, cmd in cases.items():
        path = os.path.join(tmp, name + ".din")
        with open(path, "w") as f:
            subprocess.run(cmd, stdout=f, check=True)
        ratios = []
        for r in range(a.rounds):
            s8, _ = cpu([pto_sim, "run", "--trace", path, "--config", cfg[8]])
            sfa, _ = cpu([pto_sim, "run", "--trace", path, "--config", cfg[16384]])
            ratios.append(sfa / s8)
            print(f"  {name} round {r + 1}: 8-way {s8:.2f} s, 16384-way {sfa:.2f} s, ratio {sfa / s8:.2f}")
        print(f"  {name}: median ratio {statistics.median(ratios):.2f} (target <= 2)")


def rss(a, pto_sim, tmp):
    """Peak RSS of pto-sim replaying 10^7 and 10^8 streaming accesses from a pipe."""
    gen = find(a.build, "bench/gen_trace", "gen_trace")
    print("\npeak RSS of `gen_trace stream N | pto-sim run --trace -` (default config)")
    out = {}
    for n in (10_000_000, 100_000_000):
        g = subprocess.Popen([gen, "stream", str(n)], stdout=subprocess.PIPE)
        p = subprocess.Popen([pto_sim, "run", "--trace", "-", "--format", "json"], stdin=g.stdout,
                             stdout=subprocess.PIPE, env=ENV)
        g.stdout.close()
        report = p.stdout.read()
        _, status, ru = os.wait4(p.pid, 0)
        g.wait()
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("dinero_matrix: pto-sim failed on the streaming trace")
        l1 = next(l for l in json.loads(report)["levels"] if l["name"] == "L1")
        out[n] = ru.ru_maxrss
        print(f"  {n:>11,} accesses ({l1['reads'] + l1['writes']:,} L1 requests): {ru.ru_maxrss / 1024:.1f} MiB, "
              f"{ru.ru_utime + ru.ru_stime:.1f} CPU s")
    print(f"  10^8 / 10^7: {out[100_000_000] / out[10_000_000]:.3f} (targets: <= 64 MiB, within 10 %)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("dinero")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--only", default="matrix,assoc,rss")
    ap.add_argument("--traces", default=",".join(TRACES), help="matrix rows to run (a subset while iterating)")
    ap.add_argument("--hierarchies", default=",".join(HIERARCHIES), help="matrix columns to run")
    a = ap.parse_args()
    for opt, known in (("traces", TRACES), ("hierarchies", HIERARCHIES)):
        chosen = getattr(a, opt).split(",")
        unknown = [c for c in chosen if c not in known]
        if unknown:
            ap.error(f"--{opt}: unknown {', '.join(unknown)} (known: {', '.join(known)})")
        setattr(a, opt, chosen)
    pto_sim = find(a.build, "sim/cli/pto-sim", "pto-sim", "bin/pto-sim")
    parts = a.only.split(",")
    with tempfile.TemporaryDirectory(prefix="pto-sim-matrix-") as tmp:
        if "matrix" in parts:
            matrix(a, pto_sim, tmp)
        if "assoc" in parts:
            assoc(a, pto_sim, tmp)
        if "rss" in parts:
            rss(a, pto_sim, tmp)


if __name__ == "__main__":
    main()
