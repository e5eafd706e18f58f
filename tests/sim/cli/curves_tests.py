#!/usr/bin/env python3
"""End-to-end tests of `pto-sim curves`: its counts equal those of separate
`pto-sim run`s at a few size x associativity points (a program at L1, a din
trace at L1, the L2 behind a fixed L1), the three formats and -o, --sample's
estimates and error, and the refusals (exit 2 naming the flag or key).
Usage: curves_tests.py PTO_SIM SOURCE_DIR"""
import csv
import io
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Harness, level

h = Harness("ptosim-curves-")
check, run, write = h.check, h.run, h.write
NAIVE = os.path.join(h.src, "workloads", "matmul_naive.pto")
TILED = os.path.join(h.src, "workloads", "matmul_tiled.pto")
T = lambda name: os.path.join(h.tmp, name)
KEYS = ("reads", "writes", "read_misses", "write_misses", "compulsory_misses", "capacity_misses", "conflict_misses")


def curves(*args):
    code, out, err = run("curves", *args, "--format", "json")
    check(f"curves {' '.join(args)}", code == 0, err)
    return json.loads(out) if code == 0 else {"points": []}


def point(c, size, ways):
    return next(p for p in c["points"] if p["size"] == size and str(p["ways"]) == str(ways))


def run_level(args, name, size, ways, line=64):
    w = size // line if ways == "full" else ways
    code, out, err = run("run", *args, "--set", f"caches.{name}.size={size}B", "--set", f"caches.{name}.ways={w}",
                         "--format", "json")
    check(f"run {size} {ways}", code == 0, err)
    return level(json.loads(out), name) if code == 0 else {}


def same(what, p, lv):
    got = (p["reads"], p["writes"], p["read_misses"], p["write_misses"], p["compulsory"], p["capacity"], p["conflict"])
    want = tuple(lv.get(k) for k in KEYS)
    check(f"{what}: curves = run", got == want, f"curves {got} run {want}")


# A program at L1: a few points of the grid against runs.
prog = [NAIVE, "-D", "M=48", "-D", "N=40", "-D", "K=36"]
c = curves(*prog, "--sizes", "2KiB..32KiB:x2", "--ways", "1,2,4,8,16,full")
check("program: 5 sizes x 6 ways", len(c["points"]) == 30, len(c["points"]))
check("program: exact, level L1", c["exact"] and c["level"] == "L1" and c["line"] == 64, c)
for size, ways in [(2048, 1), (4096, 4), (8192, "full"), (32768, 8), (16384, 16)]:
    same(f"program {size} x {ways}", point(c, size, ways), run_level(prog, "L1", size, ways))
check("program: the config's own point marked",
      [(p["size"], p["ways"]) for p in c["points"] if p["config_point"]] == [(32768, 8)], c["points"][-6:])

# A din trace with writes, straddling and zero-sized accesses.
rng = random.Random(5)
lines = []
for i in range(30000):
    kind = "w" if rng.random() < 0.3 else "r"
    addr = rng.randrange(0, 96 * 1024) if i % 3 else (i * 68) % (200 * 1024)
    lines.append(f"{kind} {0x100000 + addr:x} {rng.choice([1, 4, 8, 100]):x}")
din = write("t.din", "\n".join(lines) + "\n")
c = curves("--trace", din, "--sizes", "4KiB,16KiB,64KiB", "--ways", "1,2,8,full")
for size, ways in [(4096, 1), (16384, 2), (65536, 8), (16384, "full")]:
    same(f"trace {size} x {ways}", point(c, size, ways), run_level(["--trace", din], "L1", size, ways))

# The L2 behind the fixed L1: exact over the L1's miss and writeback stream.
c = curves(*prog, "--level", "L2", "--sizes", "8KiB..64KiB:x2", "--ways", "1,4,full", "--flush")
for size, ways in [(8192, 1), (32768, 4), (65536, "full")]:
    same(f"L2 {size} x {ways}", point(c, size, ways), run_level(prog + ["--flush"], "L2", size, ways))

# Formats and -o.
code, out, err = run("curves", TILED, "--sizes", "4KiB..16KiB:x2", "--ways", "2,full", "--format", "csv", "-o", T("c.csv"))
rows = list(csv.DictReader(open(T("c.csv")))) if code == 0 else []
check("csv -o: 6 rows, columns", code == 0 and out == "" and len(rows) == 6 and
      {"size", "ways", "misses", "compulsory", "capacity", "conflict", "miss_ratio", "config_point"} <= set(rows[0]), (err, rows[:1]))
code, out, err = run("curves", TILED, "--sizes", "4KiB..16KiB:x2", "--ways", "2,full")
check("text: a table with the config point and the exactness line", code == 0 and "exact:" in out and
      "conflict" in out.splitlines()[2], out[:600])

# --sample: estimates with an error, close to the exact curve.
big = [NAIVE, "-D", "M=96", "-D", "N=96", "-D", "K=96"]
exact = curves(*big, "--sizes", "1KiB..64KiB:x2", "--ways", "4,full")
est = curves(*big, "--sizes", "1KiB..64KiB:x2", "--ways", "4,full", "--sample", "0.1")
errs = [abs(a["miss_ratio"] - b["miss_ratio"]) for a, b in zip(exact["points"], est["points"])]
check("sample: marked as estimates, with an error per point", not est["exact"] and est["sample_rate"] == 0.1 and
      all("miss_ratio_error" in p for p in est["points"]), est["points"][:1])
check("sample: mean absolute error of the miss ratio under 0.02", sum(errs) / len(errs) < 0.02, errs)

# Refusals: exit 2 and the flag or key named.
for args, word in [(["--sizes", "4KiB..1KiB"], "--sizes"), (["--sizes", "abc"], "--sizes"), (["--ways", "0"], "--ways"),
                   (["--ways", "3x"], "--ways"), (["--level", "L9"], "--level"), (["--sample", "0"], "--sample"),
                   (["--sample", "2"], "--sample"), (["--format", "xml"], "--format"),
                   (["--set", "caches.L1.replacement=fifo"], "replacement"),
                   (["--set", "caches.L1.prefetcher=next_line"], "prefetcher"),
                   (["--set", "caches.L1.write_allocate=false"], "write_allocate")]:
    code, out, err = run("curves", TILED, *args)
    check(f"refused {args}", code == 2 and word in err and out == "", (code, err))
# Every reason at once, with the --set line that removes them all: added, it runs.
code, cfg, err = run("config", "show", "--set", "caches.L1.prefetcher=next_line", "--set", "caches.L1.replacement=fifo")
cfg = write("two_reasons.yaml", cfg)
code, out, err = run("curves", TILED, "--config", cfg)
fix = err.rsplit("one pass for all sizes:", 1)[-1].split()
check("two reasons named in one refusal", code == 2 and "prefetcher" in err and "replacement" in err and
      fix == ["--set", "caches.L1.replacement=lru", "--set", "caches.L1.prefetcher=none"], (code, err))
code, out, err = run("curves", TILED, "--config", cfg, *fix)
check("the refusal's --set line runs", code == 0 and "exact" in out, (code, err))
# A `cpu` core answers a load of a queued store's bytes from its queue (that
# load never reaches L1; matmul_naive's C[i, j] after its store): refused
# even with stores at dispatch, and its --set line gives run's counts.
code, cfg, err = run("config", "show", "--set", "core.model=cpu", "--set", "core.store_request=dispatch")
cpu = [NAIVE, "-D", "M=16", "-D", "N=16", "-D", "K=16", "--config", write("cpu_core.yaml", cfg)]
code, out, err = run("curves", *cpu)
fix = err.rsplit("one pass for all sizes:", 1)[-1].split()
check("a store queue is refused", code == 2 and "store queue" in err and fix == ["--set", "core.model=simple"], (code, err))
c = curves(*cpu, *fix, "--sizes", "256B,1KiB", "--ways", "1,2")
for size, ways in [(256, 1), (1024, 2)]:
    same(f"a store queue's --set line {size} x {ways}", point(c, size, ways), run_level(cpu + fix, "L1", size, ways))
code, out, err = run("curves", "--trace", write("v.din", "r 100 4\nv 100 4\n"))
check("a one-line invalidate is refused", code == 2 and "invalidate" in err, (code, err))
code, out, err = run("curves", TILED, "-o", TILED)
check("-o the input is refused", code == 2, err)
h.finish()
