#!/usr/bin/env python3
"""`pto-sim tune` and the probe it is built on (`run --stop-after`): a probe
reports the events it simulated and exits 0; tune prunes tiles that do not
fit (naming the capacity error) and tiles whose estimate is beyond the
margin, simulates the rest, and its best equals the exhaustive sweep's when
the probes run to the end; bad input is exit 2.
Usage: tune_tests.py PTO_SIM SOURCE_DIR"""
import csv
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Harness

h = Harness("ptosim-tune-")
check, run = h.check, h.run
TILED = os.path.join(h.src, "workloads", "matmul_tiled.pto")
T = lambda name: os.path.join(h.tmp, name)


def cpu_parts(err):
    """tune's stderr line of where its CPU went: {part: (seconds, runs)}, the
    rest of its own and the total (None when the line is missing)."""
    m = re.search(r"^pto-sim tune: CPU \(user \+ sys\): (.*), tune's own rest ([0-9.]+) s; total ([0-9.]+) s$", err, re.M)
    if not m:
        return None
    parts = {n: (float(v), int(k) if k else None)
             for n, v, k in re.findall(r"(?:^|, )([a-z' ]+?) ([0-9.]+) s \((?:(\d+) runs?|in tune's process)\)", m.group(1))}
    return parts, float(m.group(2)), float(m.group(3))

# run --stop-after: the first N events (a chunk of 512 at most past them), exit 0.
code, out, err = run("run", TILED, "-D", "M=128", "-D", "N=128", "-D", "K=128", "--stop-after", "3000",
                     "--epoch-accesses", "1000", "--format", "json")
rep = json.loads(out) if code == 0 else {}
check("--stop-after: exit 0, interrupted", code == 0 and rep.get("interrupted") is True, (code, err))
check("--stop-after: about N events", 3000 <= rep.get("events_done", 0) < 3000 + 1024, rep.get("events_done"))
check("--stop-after: its epochs", len(rep.get("epochs", [])) >= 3, len(rep.get("epochs", [])))
code, _, err = run("run", TILED, "--stop-after", "100", "--check-data")
check("--stop-after with --check-data: exit 2", code == 2 and "--stop-after" in err, (code, err))
# --stop-after-compute: conv2d's im2col (no flops) runs whole, then N events of the compute.
CONV = os.path.join(h.src, "workloads", "conv2d_im2col_tiled.pto")
CONV_SIZE = ["-D", "C=8", "-D", "H=32", "-D", "W=32", "-D", "F=16"]
code, out, err = run("run", CONV, *CONV_SIZE, "--format", "json")
whole = json.loads(out) if code == 0 else {}
code, out, err = run("run", CONV, *CONV_SIZE, "--stop-after", "200", "--format", "json")
plain = json.loads(out) if code == 0 else {}
code, out, err = run("run", CONV, *CONV_SIZE, "--stop-after-compute", "200", "--format", "json")
anchored = json.loads(out) if code == 0 else {}
check("--stop-after 200 on conv2d: no flops yet (im2col)", plain.get("interrupted") is True and plain.get("flops") == 0,
      (plain.get("flops"), err))
check("--stop-after-compute 200: past the im2col, into the compute",
      anchored.get("interrupted") is True and anchored.get("flops", 0) > 0 and
      anchored.get("events_done", 0) > plain.get("events_done", 0) + 200, (anchored.get("events_done"), err))
check("--stop-after-compute: fewer events than the whole run", anchored.get("events_done", 0) <
      whole.get("program", {}).get("events", 0), (anchored.get("events_done"), whole.get("program", {}).get("events")))
code, _, err = run("run", TILED, "--stop-after", "5", "--stop-after-compute", "5")
check("--stop-after and --stop-after-compute together: exit 2", code == 2 and "excludes" in err, (code, err))
code, _, err = run("run", TILED, "--stop-after", "0")
check("--stop-after 0: exit 2", code == 2, (code, err))

# run --no-values (tune's probes): the same counts as with values, marked.
def flat(d, p=""):
    if isinstance(d, dict):
        return {k2: v2 for k, v in d.items() for k2, v2 in flat(v, p + "." + k).items()}
    if isinstance(d, list):
        return {k2: v2 for i, v in enumerate(d) for k2, v2 in flat(v, p + f"[{i}]").items()}
    return {p: d}


VARYING = (".command_line", ".wall_seconds", ".started_at", ".values_off", ".program.outputs")
for prog, size in ((TILED, ["-D", "M=96", "-D", "N=64", "-D", "K=80", "-D", "TM=32", "-D", "TN=16"]),
                   (os.path.join(h.src, "workloads", "attention_tiled.pto"), ["-D", "L=64", "-D", "D=16"]),
                   (CONV, ["-D", "C=4", "-D", "H=12", "-D", "W=12", "-D", "F=8", "-D", "TM=8", "-D", "TN=32"])):
    code1, out1, err1 = run("run", prog, *size, "--format", "json")
    code0, out0, err0 = run("run", prog, *size, "--no-values", "--format", "json")
    with_v = flat(json.loads(out1)) if code1 == 0 else {}
    without = flat(json.loads(out0)) if code0 == 0 else {}
    differ = sorted(k for k in set(with_v) | set(without)
                    if with_v.get(k) != without.get(k) and not k.startswith(VARYING))
    name = os.path.basename(prog)
    check(f"--no-values on {name}: exit 0, values_off", code0 == 0 and without.get(".values_off") is True, (code0, err0))
    check(f"--no-values on {name}: every count as with values", code1 == 0 and with_v and not differ, differ[:10])
code, _, err = run("run", TILED, "--no-values", "--check-data")
check("--no-values with --check-data: exit 2", code == 2 and "excludes" in err, (code, err))
din = T("t.din")
open(din, "w").write("0 1000\n1 1040\n")
code, _, err = run("run", "--trace", din, "--no-values")
check("--no-values with a trace: exit 2, named", code == 2 and "--no-values" in err and "PROGRAM" in err, (code, err))

# tune with probes longer than the program: every estimate is exact, the
# best is the sweep's best (--simulate-prefix: a probe that only warmed the
# accesses before the first compute is never exact; the next check).
axes = ["-D", "M=64", "-D", "N=64", "-D", "K=64", "-D", "TM=16,32,64", "-D", "TN=16,64"]
code, out, err = run("tune", "--whole-below", "1", TILED, *axes, "--objective", "dram_bytes", "--probe-events", "10000000")
check("tune, prefix warmed: no probe taken as exact, a finalist simulated",
      code == 0 and "(the probe ran to the end)" not in out and "(simulated)" in out, (code, out, err))
code, out, err = run("tune", "--whole-below", "1", TILED, *axes, "--objective", "dram_bytes", "--probe-events", "10000000", "--simulate-prefix",
                     "--search", "all")
check("tune: exit 0", code == 0, (code, err))
check("tune: every probe ran to the end", out.count("(the probe ran to the end)") == 6, out)
code, _, err = run("sweep", TILED, *axes, "-o", T("s.csv"))
rows = list(csv.DictReader(open(T("s.csv")))) if code == 0 else []
best = min(rows, key=lambda r: int(r["dram_bytes"])) if rows else {}
m = re.search(r"^best: .*TM=(\d+) TN=(\d+) dram_bytes (\d+) B$", out, re.M)
check("tune: the sweep's best objective", m and rows and int(m.group(3)) == int(best["dram_bytes"]), (out, best))

# Tiles that do not fit the 64 KiB shared memory are pruned at their first
# allocation, the capacity error named; the others are probed briefly.
code, out, err = run("tune", "--whole-below", "1", TILED, "-D", "M=256", "-D", "N=256", "-D", "K=256", "-D", "TK=256",
                     "-D", "TM=16,32,64", "-D", "TN=16,32", "--probe-events", "4000", "--keep", "1", "--search", "all")
check("tune: exit 0 with infeasible points", code == 0, (code, err))
check("tune: the 64-row tiles (with TK=256) pruned for capacity",
      re.search(r"TM=64 TN=16: pruned: capacity: .*shared", out) and
      re.search(r"TM=64 TN=32: pruned: capacity: .*shared", out), out)
check("tune: one point simulated in full", out.count("(simulated)") == 1, out)
check("tune: the others pruned by their estimate", "% above the best estimate" in out, out)
code, out, err = run("tune", "--whole-below", "1", TILED, "-D", "M=256", "-D", "N=256", "-D", "K=256", "-D", "TK=256", "-D", "TM=64",
                     "-D", "TN=64", "--probe-events", "4000")
check("tune: nothing fits: exit 1, says why", code == 1 and "no point could be ranked" in err and "capacity" in err,
      (code, err))

# Coordinate search (the default): a line search along TM from TN's middle
# (32) — the middle and the next larger, then (the larger no better) down
# from the middle: all 3 — then along TN at the best TM: 3 + 2 of the 9
# points probed; the other 4 pruned as off its path, exactly those.
code, out, err = run("tune", "--whole-below", "1", TILED, "-D", "M=64", "-D", "N=64", "-D", "K=64", "-D", "TM=16,32,64",
                     "-D", "TN=16,32,64", "--probe-events", "2000")
m = re.search(r"^# coordinate search: (\d+) of (\d+) points probed, a line search along each parameter in turn "
              r"\(TM=(\d+), then TN=(\d+)\)",
              out, re.M)
check("tune --search axes: exit 0, 5 of 9 points probed", code == 0 and m and m.group(1, 2) == ("5", "9"), (code, out, err))
off = set(re.findall(r"TM=(\d+) TN=(\d+): pruned: not probed: off the coordinate search's path", out))
tm = m.group(3) if m else "?"
check("tune --search axes: exactly the points off TN=32 and off the best TM pruned unprobed",
      off == {(a, b) for a in ("16", "32", "64") for b in ("16", "64") if a != tm}, (off, tm))
best = re.search(r"^best: .*TM=(\d+) TN=(\d+) ", out, re.M)
check("tune --search axes: the best is on the search's lines", best and (best.group(2) == "32" or best.group(1) == tm),
      out)

# The table of points never simulated: every pruned point once, under its
# reason, and the count.
pruned = set(re.findall(r"^  (.*?): pruned: ", out, re.M))
tab = re.search(r"^# never simulated in full: (\d+) of (\d+) points, by reason$", out, re.M)
listed = [p.strip() for line in re.findall(r"^#   .+ \(\d+\): (.*)$", out, re.M) for p in line.split(",")]
check("tune: the pruned points' table lists each pruned point once", tab and int(tab.group(1)) == len(pruned) == 8 and
      sorted(listed) == sorted(pruned), (out, listed))
check("tune: the table says which were never probed",
      re.search(r"^#   not probed: off the coordinate search's path \(4\): ", out, re.M), out)

# The lower bound (tune_bound.h) is a true one: on small cases it is below
# every point of the exhaustive sweep, for both objectives; it assumes one
# flop count for every tile, which the sweep shows; a point pruned by it
# is never better than the sweep's best.
TINY = os.path.join(h.src, "configs", "tiny.yaml")
ATT = os.path.join(h.src, "workloads", "attention_tiled.pto")
MM = ["-D", "M=64", "-D", "N=64", "-D", "K=64", "-D", "TK=16", "-D", "TM=8,16,32", "-D", "TN=8,16,32"]
BOUND_CASES = [
    ("matmul_tiled on tiny.yaml", TILED, MM, ["--config", TINY], ["--bound-matmul", "M,N,K"]),
    ("conv2d_im2col_tiled", CONV, ["-D", "C=4", "-D", "H=12", "-D", "W=12", "-D", "F=8", "-D", "TM=4,8", "-D", "TN=16,32"],
     [], []),
    ("attention_tiled", ATT, ["-D", "L=64", "-D", "D=16", "-D", "TQ=4,8,16,32"], [], ["--bound-matmul", "L,L,D"]),
]
for name, prog, axes, cfg, extra in BOUND_CASES:
    code, _, err = run("sweep", prog, *axes, *cfg, "-o", T(f"b-{len(name)}.csv"))
    rows = [r for r in csv.DictReader(open(T(f"b-{len(name)}.csv")))] if code in (0, 1) else []
    ok = [r for r in rows if r["status"] == "ok"]
    check(f"bound, {name}: the sweep ran, one flop count for every tile",
          ok and len({r["flops"] for r in ok}) == 1, (code, err, {r["flops"] for r in ok}))
    for obj in ("seconds", "dram_bytes"):
        if obj == "dram_bytes" and prog != TILED:
            continue  # a traffic bound only where the data outgrow the fast memory (tiny.yaml)
        code, out, err = run("tune", prog, *axes, *cfg, *extra, "--objective", obj, "--search", "all",
                             "--probe-events", "2000")
        m = re.search(r"^# lower bound on every point: ([0-9.e+-]+) ", out, re.M)
        lb = float(m.group(1)) if m else None
        least = min(float(r[obj]) for r in ok) if ok else 0
        check(f"bound, {name}, {obj}: a bound above zero, at most every point's figure in the sweep",
              code == 0 and lb and 0 < lb <= least, (code, out, err, lb, least))
        winner = re.search(r"^best: (.*) " + obj + " ", out, re.M)
        beaten = [p for p in re.findall(r"^  (.*): pruned: .*it cannot win", out, re.M)]
        names = [a.split("=")[0] for a in axes[1::2]]
        by_params = {" ".join(f"{n}={r['param.' + n]}" for n in names): float(r[obj]) for r in ok}
        check(f"bound, {name}, {obj}: no point it pruned beats the sweep's best",
              winner and all(p in by_params and by_params[p] >= least for p in beaten), (beaten, by_params))

# The bound prunes: with probes that simulate everything before their stop
# (--simulate-prefix), a probe's own time is a lower bound on its point's
# whole run; a 1 x 1 tile's probe (100000 of its 331776 events) took
# longer than the whole run of the best tile, so it cannot win.
code, out, err = run("tune", "--whole-below", "1", TILED, "-D", "M=64", "-D", "N=64", "-D", "K=64", "-D", "TM=1,64", "-D", "TN=1,64",
                     "--simulate-prefix", "--search", "all", "--probe-events", "100000")
check("bound: a point whose probe alone outlasts the best's whole run is pruned as unable to win",
      code == 0 and re.search(r"^  M=64 N=64 K=64 TM=1 TN=1: pruned: .*it cannot win", out, re.M) and
      re.search(r"^#   lower bound not below the best found: cannot win \(1\): M=64 N=64 K=64 TM=1 TN=1$", out, re.M), (code, out, err))
code, _, err = run("tune", TILED, "-D", "TM=16,32", "--bound-matmul", "M,N,K")
check("tune --bound-matmul naming no -D parameter: exit 2", code == 2 and "--bound-matmul" in err, (code, err))

# run --probe-period (tune's probe of a phased program): attention_tiled's
# block (q.K^T, softmax, .V) is one period; a tiled matmul has one compute
# statement and no period.
ATT = os.path.join(h.src, "workloads", "attention_tiled.pto")
code, out, err = run("run", ATT, "-D", "L=64", "-D", "D=16", "-D", "TQ=16", "--no-values", "--stop-after-compute", "16",
                     "--probe-period", "32", "--epoch-accesses", "64", "--format", "json")
rep = json.loads(out) if code == 0 else {}
check("--probe-period on attention_tiled: one period, its bounds in order",
      rep.get("probe_periods") == 1 and 0 < rep.get("probe_first_period_from", 0) < rep.get("probe_first_period_to", 0)
      and rep.get("interrupted") is True, (code, err, {k: v for k, v in rep.items() if k.startswith("probe")}))
code, out, err = run("run", ATT, "-D", "L=64", "-D", "D=16", "-D", "TQ=4", "--no-values", "--stop-after-compute", "16",
                     "--probe-period", "3000", "--epoch-accesses", "64", "--format", "json")
rep2 = json.loads(out) if code == 0 else {}
check("--probe-period past M events: several short periods, the last after the first",
      rep2.get("probe_periods", 0) >= 2 and
      rep2.get("probe_last_period_from", 0) >= rep2.get("probe_first_period_to", 1), (code, err, rep2.get("probe_periods")))
code, out, err = run("run", TILED, "-D", "M=256", "-D", "N=256", "-D", "K=256", "--no-values", "--stop-after-compute", "200",
                     "--probe-period", "400", "--format", "json")
rep3 = json.loads(out) if code == 0 else {}
check("--probe-period on matmul_tiled: no period, stops near N", rep3.get("probe_periods") == 0 and
      rep3.get("interrupted") is True, (code, err, rep3.get("probe_periods")))
code, _, err = run("run", TILED, "--probe-period", "400")
check("--probe-period without --stop-after-compute: exit 2", code == 2 and "--probe-period" in err, (code, err))
code, out, err = run("tune", ATT, "-D", "L=128", "-D", "D=32", "-D", "TQ=4..64:x2", "--probe-events", "2000")
check("tune on attention_tiled: probes over whole periods, said", code == 0 and "# probes over whole periods" in out,
      (code, out, err))
# The walk goes up from the middle (16) while the larger block is better,
# and then never probes below the middle.
best = re.search(r"^best: .*TQ=(\d+) ", out, re.M)
below = re.findall(r"TQ=(4|8): pruned: not probed: off the coordinate search's path", out)
check("tune: a walk up from the middle probes nothing below it", best and int(best.group(1)) > 16 and
      sorted(below) == ["4", "8"], (best and best.group(1), below, out))
# Where tune's CPU went, on stderr: one run per point probed (the table's
# count) and one full run, every child charged to a part: the parts and
# tune's own rest add up to the total (each figure rounded to 1 ms).
cpu = cpu_parts(err)
probed = re.search(r"^# coordinate search: (\d+) of", out, re.M)
check("tune: its CPU by part on stderr, the runs counted exactly",
      cpu and probed and cpu[0].get("probes", (0, 0))[1] == int(probed.group(1)) and
      cpu[0].get("full runs", (0, 0))[1] == 1 and set(cpu[0]) <= {"probes", "the count", "full runs"},
      (cpu, probed and probed.group(1), err))
check("tune: the CPU parts add up to the total",
      cpu and all(v >= 0 for v, _ in cpu[0].values()) and cpu[1] >= 0 and
      abs(sum(v for v, _ in cpu[0].values()) + cpu[1] - cpu[2]) <= 0.0005 * (len(cpu[0]) + 2), cpu)

# A short run is run whole, not probed: at 256³ (default config) the
# search's first point, 128 x 128, has 6,816 events, under 12 probes of
# 16000; probes of these runs ranked 256 x 128 first (2026-12-07's main:
# 88 % slower than the best). Tune's pick is the exhaustive sweep's best.
short = ["-D", "M=256", "-D", "N=256", "-D", "K=256", "-D", "TM=64..256:x2", "-D", "TN=64..256:x2"]
code, out, err = run("tune", TILED, *short)
scode, _, serr = run("sweep", TILED, *short, "-o", T("short.csv"))
ok = [r for r in csv.DictReader(open(T("short.csv"))) if r["status"] == "ok"] if scode in (0, 1) else []
least = min(float(r["seconds"]) for r in ok) if ok else 0
m = re.search(r"^best: .* seconds ([0-9.e+-]+) s$", out, re.M)
check("tune, a short run: said, every point reached run whole", code == 0 and "# a short program (" in out and
      "(run whole)" in out and "probed (" not in out, (code, out, err))
check("tune, a short run: the exhaustive sweep's best (within 2 %)", m and ok and float(m.group(1)) <= least * 1.02,
      (m and m.group(1), least, len(ok), serr))
cpu = cpu_parts(err)
whole = len(re.findall(r"\(run whole\)", out))
check("tune, a short run: its CPU has the count and the whole runs, one run per point run whole",
      cpu and "the count" in cpu[0] and cpu[0].get("whole runs", (0, 0))[1] == whole and "full runs" not in cpu[0],
      (cpu, whole, err))
code, out, err = run("tune", TILED, *short, "--whole-below", "1000")
check("tune --whole-below under the program's events: probed", code == 0 and "# a short program" not in out and
      "probed (16000 events)" in out, (code, out, err))

# Bad input: exit 2.
code, _, err = run("tune", TILED)
check("tune without -D: exit 2", code == 2 and "give the choices to tune" in err, (code, err))
code, _, err = run("tune", TILED, "-D", "TX=1,2")
check("tune: unknown parameter: exit 2", code == 2 and "TX" in err, (code, err))
code, _, err = run("tune", TILED, "-D", "TM=16", "--objective", "speed")
check("tune: unknown objective: exit 2", code == 2 and "speed" in err, (code, err))
code, _, err = run("tune", TILED, "-D", "TM=16", "-D", "TM=32")
check("tune: -D twice: exit 2", code == 2 and "given twice" in err, (code, err))
code, _, err = run("tune", TILED, "-D", "TM=16", "-o", TILED)
check("tune: -o over the program: exit 2", code == 2, (code, err))

h.finish()
