#!/usr/bin/env python3
"""End-to-end tests of `pto-sim compare`: the side-by-side table (aligned by
name, deltas, largest first, three formats, level by level across configs)
and --baseline (exit 0 / 1 naming every moved metric / 2 not comparable,
tolerances, exact counters). Usage: run_compare_tests.py PTO_SIM SOURCE_DIR"""
import csv
import io
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Harness

h = Harness("ptosim-compare-")
check, run, write = h.check, h.run, h.write
TILED = os.path.join(h.src, "workloads", "matmul_tiled.pto")
XEON = os.path.join(h.src, "configs", "xeon-gold-6248r.yaml")
T = lambda name: os.path.join(h.tmp, name)


def report(name, *args):
    code, _, err = run("run", TILED, *args, "--format", "json", "-o", T(name))
    check(f"run {name}", code == 0, err)
    return T(name), json.load(open(T(name)))


a, ra = report("a.json")
a2, _ = report("a2.json")
b, rb = report("b.json", "--set", "caches.L1.size=8KiB")
c, rc = report("c.json", "-D", "TM=16", "-D", "TN=16", "--config", XEON)

# Side by side.
code, out, err = run("compare", a, b)
lines = out.splitlines()
check("text: exit 0, both named", code == 0 and lines[0].startswith("A: " + a) and lines[1].startswith("B: " + b), out[:300])
head = lines[2].split()
check("text: header", head == ["metric", "A", "B", "B-A", "B/A"], head)
body = [l.split() for l in lines[3:]]
names = [r[0] for r in body]
check("text: aligned by name, one row each", len(names) == len(set(names)) and "L1.miss_rate" in names and
      "cycles" in names and "L2.tensors.A.accesses" in names, names[:10])
check("text: identity keys left out", not any(n.startswith(("started_at", "wall_seconds", "config_hash", "command_line"))
                                              for n in names), names)
# Largest relative change first: the L1 capacity misses rise most (192 -> 512).
l1c = next(r for r in body if r[0] == "L1.capacity_misses")
check("text: L1 capacity misses and their delta", l1c[1:] == [str(ra["levels"][3]["capacity_misses"]),
      str(rb["levels"][3]["capacity_misses"]), "+320", "+166.67%"], l1c)
changed = [r for r in body if len(r) >= 5 and r[4] not in ("0%",)]
check("text: time, misses per cache level and DRAM bytes lead", names[:6] == [
      "cycles", "seconds", "L1.demand_misses", "L2.demand_misses", "dram_bytes"][:5] + names[5:6], names[:8])
rest = names[5:]
check("text: then the largest changes first", rest[0] in ("config_overrides.caches.L1.size", "L1.capacity_misses") and
      rest.index("L1.capacity_misses") < rest.index("L1.reads"), rest[:8])
# --metrics: those rows only, in the order given; globs; a name that matches nothing is exit 2.
code, out, err = run("compare", a, b, "--metrics", "dram_bytes,cycles,L1.tensors.*.misses")
picked = [l.split()[0] for l in out.splitlines()[3:]]
check("--metrics picks and orders", code == 0 and picked[:2] == ["dram_bytes", "cycles"] and len(picked) > 2 and
      all(re.fullmatch(r"L1\.tensors\.\w+\.misses", n) for n in picked[2:]), (picked, err))
code, out, err = run("compare", a, b, "--metrics", "cycles,L1.missez")
check("--metrics: unknown name is exit 2", code == 2 and "L1.missez" in err and "names no metric" in err and out == "",
      (code, err))
code, out, err = run("compare", a, b, "--metrics", "cycles", "--format", "csv")
check("--metrics in CSV", code == 0 and [r[0] for r in csv.reader(io.StringIO(out))][1:] == ["cycles"], out)
# A difference of two doubles in at most 12 significant digits: no round-off tail (b - a in seconds is
# 2.845000000000004e-07 in doubles).
code, out, err = run("compare", a, b, "--metrics", "seconds")
sec = out.splitlines()[3].split() if code == 0 else []
digits = lambda s: len(s.lstrip("+-").split("e")[0].replace(".", "").strip("0"))
check("a seconds delta without round-off digits", len(sec) == 5 and float(sec[3]) == float("%.12g" % (rb["seconds"] -
      ra["seconds"])) and digits(sec[3]) <= 12, (sec, err))
code, out, err = run("compare", a, a2, "--changed")
check("identical runs: --changed prints no metric", code == 0 and len(out.splitlines()) == 3, out)

code, out, err = run("compare", a, b, "--format", "json")
j = json.loads(out) if code == 0 else {}
m = {x["name"]: x for x in j.get("metrics", [])}
check("json: values and deltas", m.get("cycles", {}).get("values") == [ra["cycles"], rb["cycles"]] and
      m["cycles"]["delta"] == [rb["cycles"] - ra["cycles"]], m.get("cycles"))
code, out, err = run("compare", a, b, c, "--format", "csv")
rows = list(csv.reader(io.StringIO(out)))
check("csv: three reports, two delta pairs", code == 0 and len(rows[0]) == 1 + 3 + 4, rows[0])
# Different configs compare level by level: L1 vs L1D are both cache1.
code, out, err = run("compare", a, c)
check("configs with other level names: by position", code == 0 and "cache1.miss_rate" in out and
      "cache3.reads" in out and "\nDRAM.reads" in out, out[:500])

# Baselines.
code, out, err = run("compare", "--baseline", a, a2)
check("baseline: the same run passes", code == 0 and out.startswith("ok: "), (code, out, err))
code, out, err = run("compare", "--baseline", a, b)
moved = [l for l in out.splitlines() if l.startswith("  ")]
check("baseline: exit 1 and every moved metric named", code == 1 and "REGRESSION" in out and
      any(l.startswith("  cycles: ") for l in moved) and any(l.startswith("  L1.read_misses: ") for l in moved), out)
check("baseline: exact counters exact", any("L1.evictions: 448 -> 1152 (+704, +157.14%; exact)" in l for l in moved), moved)
nmoved = len(moved)
code, out, err = run("compare", "--baseline", a, b, "--tolerance", "cycles=100%,L1.miss_rate=50pp")
moved2 = [l.split(":")[0].strip() for l in out.splitlines() if l.startswith("  ")]
check("tolerance: the named metrics pass", code == 1 and "cycles" not in moved2 and "L1.miss_rate" not in moved2 and
      len(moved2) == nmoved - 2, (nmoved, moved2))
code, out, err = run("compare", "--baseline", a, b, "--tolerance", "cycles=1%")
check("tolerance: beyond it still moves", code == 1 and "cycles: " in out and "tolerance 1%" in out, out)
code, out, err = run("compare", "--baseline", a, b, "--tolerance", "*=1000%")
check("tolerance: a glob for all", code == 0 and re.search(r"\nok: \d+ metrics", out) is not None, out)
code, out, err = run("compare", "--baseline", a, b, "--tolerance", "L1.*=1000%")
moved3 = [l.split(":")[0].strip() for l in out.splitlines() if l.startswith("  ")]
check("tolerance: a glob for one level", code == 1 and moved3 and not any(x.startswith("L1.") for x in moved3) and
      "L2.reads" in moved3, moved3)
for tol, msg in (("cycles=2x", "--tolerance: cycles: '2x' is not a tolerance"),
                 ("cyclez=2%", "--tolerance: cyclez: matches no metric"),
                 ("cycles", "--tolerance: cycles: expected METRIC=VALUE")):
    code, out, err = run("compare", "--baseline", a, a2, "--tolerance", tol)
    check(f"bad tolerance {tol}: exit 2", code == 2 and msg in err, (code, err))
code, out, err = run("compare", "--baseline", a, c)
check("not comparable (parameters): exit 2", code == 2 and "not comparable" in err and "parameters" in err, (code, err))
code, out, err = run("compare", "--baseline", a, c, "--allow-different")
check("--allow-different compares", code == 1 and "note: not the same run inputs: parameters" in out, (code, out[:300]))
other = write("other.pto", open(TILED).read() + "\n# changed\n")
code, _, err = run("run", other, "--format", "json", "-o", T("o.json"))
code, out, err = run("compare", "--baseline", a, T("o.json"))
check("not comparable (program hash): exit 2", code == 2 and "source hash" in err, (code, err))
# A baseline from before the source hash's algorithm changed (FNV-1a): the
# input's identity cannot be checked, which is said, and the counts compare.
oldhash = write("oldhash.json", json.dumps(dict(ra, source_hash="fnv1a64:0123456789abcdef")))
code, out, err = run("compare", "--baseline", oldhash, a2)
check("baseline with another hash algorithm: compared, said so", code == 0 and
      "note: the input's identity is not checked: the baseline's source hash is fnv1a64, this run's ptowh64" in out and
      "not the same run inputs" not in out and "\nok: " in out, (code, out, err))
code, out, err = run("compare", "--baseline", oldhash, b)
check("baseline with another hash algorithm: moved metrics still found", code == 1 and "REGRESSION" in out, (code, out[:300]))

# Bad reports.
bad = write("bad.json", '{"schema_version": 2,\n  "levels": [}\n')
code, out, err = run("compare", a, bad)
check("bad JSON: position", code == 2 and "bad.json:2:" in err and "JSON" in err, err)
old = write("old.json", json.dumps(dict(ra, schema_version=1)))
code, out, err = run("compare", a, old)
check("schema 1: exit 2, said so", code == 2 and "schema_version: is 1, this pto-sim reads 2" in err, err)
code, out, err = run("compare", a)
check("one report: exit 2", code == 2 and "two or more" in err, err)


def edited(name, change):
    r = json.loads(json.dumps(ra))
    change(r)
    return write(name, json.dumps(r))


# Malformed reports are bad input naming the key (they once escaped as an
# uncaught JSON type error on stdout, exit 1: "a metric moved" to --baseline).
def set_level_name(r):
    r["levels"][1]["name"] = 5


def set_misses(r):
    r["levels"][3]["read_misses"] = "many"


for name, change, key in (("levels_ints.json", lambda r: r.update(levels=[1, 2]), "levels[0]: is 1, expected an object"),
                          ("level_name.json", set_level_name, "levels[1].name: is 5, expected a string"),
                          ("levels_str.json", lambda r: r.update(levels="nope"), 'levels: is "nope", expected an array'),
                          ("levels_obj.json", lambda r: r.update(levels={}), "levels: is {}, expected an array"),
                          ("cycles_null.json", lambda r: r.update(cycles=None), "cycles: is null, expected an integer"),
                          ("misses.json", set_misses, 'levels[3].read_misses: is "many", expected an integer')):
    path = edited(name, change)
    for args in (("compare", a, path), ("compare", "--baseline", a, path), ("compare", "--baseline", path, a)):
        code, out, err = run(*args)
        check(f"malformed {name} ({args[1]}): exit 2, file: key: message", code == 2 and out == "" and
              f"{path}: {key}" in err and "exception" not in err, (code, out[:300], err))

# A metric in one report only: "added" or "removed", and a new key does not fail a baseline.
def drop_metric(r):
    del r["levels"][3]["conflict_misses"]


def add_metric(r):
    r["levels"][3]["future_counter"] = 7


fewer, more = edited("fewer.json", drop_metric), edited("more.json", add_metric)
code, out, err = run("compare", a, more)
row = next((l.split() for l in out.splitlines() if l.startswith("L1.future_counter")), [])
check("table: a new metric is 'added'", code == 0 and row == ["L1.future_counter", "-", "7", "added"], (row, err))
code, out, err = run("compare", a, fewer)
row = next((l.split() for l in out.splitlines() if l.startswith("L1.conflict_misses")), [])
check("table: a gone metric is 'removed'", code == 0 and row[-1:] == ["removed"], (row, err))
code, out, err = run("compare", a, fewer, more, "--format", "json")
m = {x["name"]: x for x in json.loads(out)["metrics"]} if code == 0 else {}
check("json: change added/removed", m.get("L1.future_counter", {}).get("change") == [None, "added"] and
      m.get("L1.conflict_misses", {}).get("change") == ["removed", None], (code, err))
code, out, err = run("compare", "--baseline", a, more)
check("baseline: a key new in the run is added, not moved", code == 0 and
      "added: L1.future_counter = 7 (not in the baseline)" in out and "\nok: " in out, (code, out, err))
code, out, err = run("compare", "--baseline", a, fewer)
check("baseline: a key gone from the run is removed and moves", code == 1 and
      "  L1.conflict_misses: removed (was " in out, (code, out, err))

h.finish()
