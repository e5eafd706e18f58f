#!/usr/bin/env python3
"""End-to-end tests of where-the-misses-come-from: `annotate` and by_line
(exact per-line counts on a program whose counts are known), the region tree
(inclusive = own + children), epochs by time and by accesses (they add up to
the run's totals, JSON and CSV agree), the trace-event timeline (validated
against the format: keys, monotonic timestamps, matched B/E pairs), leaks
(file:line:col, --leaks=error) and that attribution changes no count.

usage: insight_tests.py PTO_SIM SOURCE_DIR
"""
import csv
import json
import os

from harness import Harness, level

H = Harness("pto-sim-insight-")
run, check, write, tmp = H.run, H.check, H.write, H.tmp


def run_json(*args):
    code, out, err = run("run", *args, "--format", "json")
    try:
        return code, json.loads(out) if out.strip() else None, err
    except json.JSONDecodeError as e:
        return code, None, f"{err}\nbad JSON: {e}"


CFG = write("cfg.yaml", """\
name: insight
clock: 1 GHz
core: {issue_width: 1, max_outstanding: 4, flops_per_cycle: 4, vector_bytes: 32 B}
memories:
  - {name: register, size: 64 KiB, latency: 0 cycles, bandwidth: 256 B/cycle}
  - {name: shared, size: 64 KiB, latency: 4 cycles, bandwidth: 128 B/cycle}
caches:
  - {name: L1, size: 4 KiB, ways: 4, line: 64 B, latency: 2 cycles}
  - {name: L2, size: 32 KiB, ways: 8, line: 64 B, latency: 8 cycles}
dram: {timing: detailed}
""")

# Line 6 copies A into B (256 reads, 256 writes: 16 + 16 lines miss L1);
# line 9 reads A's first column again (16 reads, all hits: A is 1 KiB).
COPY = write("copy.pto", """\
param N = 16
A = pto.tensor([N, N], pto.float32, init="random", seed=1)
B = pto.tensor([N, N], pto.float32)
for i in range(N):
    for j in range(N):
        B[i, j] = A[i, j]
s = 0.0
for i in range(N):
    s += A[i, 0]
""")

# ---- by_line and annotate ----
code, rep, err = run_json(COPY, "--config", CFG, "--by-line")
check("by_line run", code == 0 and rep, err)
rows = {r["line"]: r for r in rep["by_line"]}
lv = lambda r, name: next(x for x in r["levels"] if x["name"] == name)
check("by_line lines", set(rows) >= {6, 9} and all(r["line"] in (0, 6, 9) or r["accesses"] == 0 for r in rep["by_line"]),
      sorted(rows))
check("line 6 accesses", rows[6]["accesses"] == 512 and lv(rows[6], "L1")["accesses"] == 512, rows[6])
check("line 6 L1 misses", lv(rows[6], "L1")["misses"] == 32, lv(rows[6], "L1"))
check("line 9 accesses / misses", rows[9]["accesses"] == 16 and lv(rows[9], "L1")["misses"] == 0, rows[9])
check("line 6 source", rows[6]["source"] == "        B[i, j] = A[i, j]", rows[6].get("source"))
check("line 6 DRAM bytes", rows[6]["dram_bytes"] == lv(rows[6], "DRAM")["bytes"] and rows[6]["dram_bytes"] > 0,
      rows[6])
for name in ("L1", "L2", "DRAM"):
    total = level(rep, name)
    check(f"by_line sums to {name}",
          sum(lv(r, name)["accesses"] for r in rep["by_line"]) == total["reads"] + total["writes"] and
          sum(lv(r, name)["misses"] for r in rep["by_line"]) == total["read_misses"] + total["write_misses"] and
          sum(lv(r, name)["bytes"] for r in rep["by_line"]) == total["bytes_read"] + total["bytes_written"])
check("by_line cycles within the run", 0 < sum(r["cycles"] for r in rep["by_line"]) <= rep["cycles"] + 1e-6,
      (sum(r["cycles"] for r in rep["by_line"]), rep["cycles"]))
check("line 6 costs more cycles than line 9", rows[6]["cycles"] > rows[9]["cycles"] > 0, rows)

# Attribution changes no count and no time.
code, plain, err = run_json(COPY, "--config", CFG)
code2, full, err2 = run_json(COPY, "--config", CFG, "--by-line", "--epoch", "97", "--timeline", os.path.join(tmp, "t0.json"))
check("attribution is invisible in the figures",
      plain["levels"] == full["levels"] and plain["cycles"] == full["cycles"] and plain["core"] == full["core"],
      (plain["cycles"], full["cycles"]))

code, out, err = run("annotate", COPY, "--config", CFG)
check("annotate exit", code == 0, err)
listing = [l for l in out.splitlines() if l.rstrip().endswith("B[i, j] = A[i, j]") and "    6  " in l]
check("annotate listing line 6", len(listing) == 1 and listing[0].split()[:2] == ["512", "32"], out[:3000])
top = out.split("top lines by L1 misses\n")[1].splitlines()
check("annotate summary first is line 6", "6: B[i, j] = A[i, j]" in top[1], top[:3])
check("annotate lines fit", all(len(l) <= 100 for l in out.splitlines() if "source" not in l and "    " not in l[:4]))
code, out, err = run("annotate", COPY, "--config", CFG, "--level", "L2", "--sort", "cycles")
check("annotate --level L2", code == 0 and "L2 misses" in out and "L1 misses" not in out and "top lines by cycles" in out,
      out[:800] + err)
code, out, err = run("annotate", COPY, "--config", CFG, "--level", "L9")
check("annotate unknown level", code == 2 and err.startswith("--level: unknown level 'L9'") and out == "", err)
code, out, err = run("annotate", COPY, "--config", CFG, "--sort", "bogus")
check("annotate bad sort", code == 2 and out == "", err)
code, out, err = run("annotate", COPY, "--config", CFG, "--format", "json")
check("annotate json", code == 0 and json.loads(out)["by_line"], err)

# ---- region tree ----
NEST = write("nest.pto", """\
param N = 32
A = pto.tensor([N, N], pto.float32, init="random", seed=1)
B = pto.tensor([N, N], pto.float32)
with pto.scope("outer"):
    for i in range(N):
        B[i, 0] = A[i, 0]
    with pto.scope("inner"):
        for i in range(N):
            for j in range(N):
                B[i, j] = A[j, i]
        with pto.scope("deep"):
            C = pto.add(A, B)
    with pto.scope("side"):
        D = pto.add(A, A)
""")
code, rep, err = run_json(NEST, "--config", CFG)
check("nest run", code == 0, err)
for name in ("L1", "L2"):  # (outer/side misses nothing below L1... at L2 it still asks)
    regions = level(rep, name)["regions"]
    paths = [r["name"] for r in regions]
    want = ["outer", "outer/inner", "outer/inner/deep", "outer/side"]
    check(f"{name} region tree order", [p for p in paths if p != "(untagged)"] == want, paths)
    by = {r["name"]: r for r in regions}
    check(f"{name} depths", [by[p]["depth"] for p in want] == [0, 1, 2, 1], [by[p]["depth"] for p in want])
    for key in ("accesses", "misses", "bytes"):
        ok = all(by[p]["inclusive_" + key] == by[p][key] + sum(by[c]["inclusive_" + key] for c in want
                                                                 if c.startswith(p + "/") and c.count("/") == p.count("/") + 1)
                 for p in want)
        check(f"{name} inclusive {key}", ok, regions)
    total = level(rep, name)
    check(f"{name} exclusive sums to total", sum(r["accesses"] for r in regions) == total["reads"] + total["writes"])
code, out, err = run("run", NEST, "--config", CFG)
check("text region tree", "\n      inner " in out and "\n        deep " in out, out[:3000])

# ---- epochs ----
code, rep, err = run_json(COPY, "--config", CFG, "--epoch-accesses", "100", "--epoch-csv", os.path.join(tmp, "e.csv"))
check("epoch-accesses run", code == 0, err)
ep = rep["epochs"]
events = rep["core"]["accesses"]
check("epochs of 100 accesses", [e["accesses"] for e in ep] == [100] * (events // 100) + ([events % 100] if events % 100 else []),
      [e["accesses"] for e in ep])
check("epochs contiguous", all(a["end_cycles"] == b["start_cycles"] for a, b in zip(ep, ep[1:])) and ep[0]["start_cycles"] == 0)
for name in ("L1", "L2", "DRAM"):
    total = level(rep, name)
    el = [next(l for l in e["levels"] if l["name"] == name) for e in ep]
    check(f"epochs sum to {name}", sum(l["accesses"] for l in el) == total["reads"] + total["writes"] and
          sum(l["misses"] for l in el) == total["read_misses"] + total["write_misses"])
with open(os.path.join(tmp, "e.csv")) as f:
    crow = list(csv.DictReader(f))
check("epoch csv rows", len(crow) == len(ep) and [int(r["L1_accesses"]) for r in crow] ==
      [next(l for l in e["levels"] if l["name"] == "L1")["accesses"] for e in ep], crow[:2])
check("epoch csv columns", {"epoch", "start_cycles", "end_cycles", "region", "dram_row_hit_rate", "L2_miss_rate",
                            "DRAM_bandwidth_bytes_per_s", "footprint_global"} <= set(crow[0]), list(crow[0]))

code, rep, err = run_json(COPY, "--config", CFG, "--epoch", "100")
ep = rep["epochs"]
check("time epochs", len(ep) >= 3 and all(e["end_cycles"] - e["start_cycles"] == 100 for e in ep[:-1]) and
      ep[-1]["end_cycles"] <= rep["cycles"] + 1e-6 and ep[-1]["end_cycles"] > ep[-1]["start_cycles"],
      [(e["start_cycles"], e["end_cycles"]) for e in ep])
check("time epochs sum", sum(e["accesses"] for e in ep) == rep["core"]["accesses"])
l1 = level(rep, "L1")
check("time epochs per-level sum",
      sum(next(l for l in e["levels"] if l["name"] == "L1")["accesses"] for e in ep) == l1["reads"] + l1["writes"])
check("epoch bandwidth", all(abs(l["bandwidth_bytes_per_s"] - l["bytes"] / ((e["end_cycles"] - e["start_cycles"]) / 1e9)) <=
                             1e-6 * max(1, l["bandwidth_bytes_per_s"]) for e in ep for l in e["levels"]))
check("epoch region", {e["region"] for e in ep} <= {"(untagged)", ""}, {e["region"] for e in ep})
code, rep, err = run_json(NEST, "--config", CFG, "--epoch", "2000")
check("epoch regions named", {"outer/inner"} <= {e["region"] for e in rep["epochs"]}, [e["region"] for e in rep["epochs"]])

out_csv = os.path.join(tmp, "never.csv")
for args, msg in ((["--epoch", "10", "--epoch-accesses", "10"], "--epoch: give either"),
                  (["--epoch-csv", out_csv], "--epoch-csv: needs"),
                  (["--epoch", "0"], ""), (["--epoch-accesses", "x"], "")):
    code, out, err = run("run", COPY, "--config", CFG, *args)
    check(f"bad epoch flags {args}", code == 2 and out == "" and err.startswith(msg or err[:1]) and not os.path.exists(out_csv),
          (code, err))

# ---- timeline ----
def validate_trace(path):
    """Problems found in a Chrome / Perfetto trace-event JSON file (empty: valid)."""
    problems = []
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return ["no traceEvents list"]
    last = None
    stacks = {}
    for i, e in enumerate(doc["traceEvents"]):
        for k in ("name", "ph", "pid", "tid", "ts"):
            if k not in e:
                problems.append(f"event {i} lacks {k}")
        ph = e.get("ph")
        if ph not in ("B", "E", "X", "C", "M"):
            problems.append(f"event {i}: phase {ph}")
        if not isinstance(e.get("ts"), (int, float)) or e["ts"] < 0:
            problems.append(f"event {i}: ts {e.get('ts')}")
            continue
        if ph == "M":
            continue
        if last is not None and e["ts"] < last:
            problems.append(f"event {i}: ts {e['ts']} before {last}")
        last = e["ts"]
        key = (e["pid"], e["tid"])
        if ph == "B":
            stacks.setdefault(key, []).append((e["name"], e["ts"]))
        elif ph == "E":
            if not stacks.get(key) or stacks[key][-1][0] != e["name"]:
                problems.append(f"event {i}: E {e['name']} does not match {stacks.get(key)}")
            else:
                stacks[key].pop()
        elif ph == "X":
            if not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
                problems.append(f"event {i}: dur {e.get('dur')}")
            # A complete slice lies inside the innermost open B slice of its track.
        elif ph == "C":
            if not isinstance(e.get("args"), dict) or not all(isinstance(v, (int, float)) for v in e["args"].values()):
                problems.append(f"event {i}: counter args {e.get('args')}")
    for key, st in stacks.items():
        if st:
            problems.append(f"unclosed slices on {key}: {st}")
    # Slices nest: a complete (X) slice ends inside the region slice it begins
    # in, and X slices of one track do not overlap.
    spans, xs = {}, {}
    open_ = {}
    for e in doc["traceEvents"]:
        key = (e.get("pid"), e.get("tid"))
        if e.get("ph") == "B":
            open_.setdefault(key, []).append(e["ts"])
        elif e.get("ph") == "E" and open_.get(key):
            spans.setdefault(key, []).append((open_[key].pop(), e["ts"]))
        elif e.get("ph") == "X":
            xs.setdefault(key, []).append((e["ts"], e["ts"] + e["dur"]))
    eps = 1e-9
    for key, lst in xs.items():
        # Complete slices of one track nest (an op inside its line): each lies
        # inside the innermost one open at its start, or after it.
        lst.sort(key=lambda x: (x[0], -x[1]))
        stack = []
        for b0, b1 in lst:
            while stack and b0 >= stack[-1][1] - eps:
                stack.pop()
            if stack and b1 > stack[-1][1] + eps:
                problems.append(f"X slices overlap on {key}: {stack[-1]} {(b0, b1)}")
            stack.append((b0, b1))
        for x0, x1 in lst:
            inner = [sp for sp in spans.get(key, []) if sp[0] <= x0 + eps and x0 < sp[1] - eps]
            if inner and x1 > min(sp[1] for sp in inner) + eps:
                problems.append(f"X slice {(x0, x1)} crosses the end of its region on {key}")
    return problems, doc


tl = os.path.join(tmp, "t.json")
code, rep, err = run_json(NEST, "--config", CFG, "--timeline", tl)
check("timeline run", code == 0 and os.path.exists(tl), err)
problems, doc = validate_trace(tl)
check("timeline valid", not problems, problems[:5])
ev = doc["traceEvents"]
names = {e["name"] for e in ev}
check("timeline region slices", {"outer", "inner", "deep", "side"} <= {e["name"] for e in ev if e["ph"] == "B"}, names)
check("timeline line slices", {"line 10: B[i, j] = A[j, i]", "line 12: C = pto.add(A, B)", "line 14: D = pto.add(A, A)"}
      <= {e["name"] for e in ev if e["ph"] == "X"}, names)
# Ops are slices of their own inside their statement's line slice.
ops = [e for e in ev if e["ph"] == "X" and e.get("cat") == "op"]
check("timeline op slices", sorted(e["name"] for e in ops) == ["pto.add", "pto.add"], [e["name"] for e in ops])
line_x = [e for e in ev if e["ph"] == "X" and e.get("cat") == "line"]
for o in ops:
    host = [x for x in line_x if x["tid"] == o["tid"] and x["ts"] <= o["ts"] + 1e-9 and
            o["ts"] + o["dur"] <= x["ts"] + x["dur"] + 1e-9]
    check(f"op slice at {o['ts']} inside its line slice", len(host) == 1 and host[0]["name"] in
          ("line 12: C = pto.add(A, B)", "line 14: D = pto.add(A, A)"), (o, host))
check("timeline op slices in order", [e["ts"] for e in ops] == sorted(e["ts"] for e in ops))
check("timeline counters", {"L1 miss rate", "L2 miss rate", "DRAM bandwidth", "DRAM row-buffer hit rate",
                            "footprint global"} <= {e["name"] for e in ev if e["ph"] == "C"}, names)
peak_fp = max(e["args"]["bytes"] for e in ev if e["name"] == "footprint global")
check("timeline footprint peak", peak_fp == rep["program"]["footprint"][0]["peak_bytes"] or
      peak_fp == next(r for r in rep["program"]["footprint"] if r["name"] == "global")["peak_bytes"],
      (peak_fp, rep["program"]["footprint"]))
end_us = rep["cycles"] / 1e9 * 1e6
check("timeline ends with the run", max(e["ts"] + e.get("dur", 0) for e in ev) <= end_us * 1.000001 + 1e-9)

PAR_CFG = write("par.yaml", open(CFG).read().replace("core: {", "core: {cores: 4, "))
tl2 = os.path.join(tmp, "t2.json")
code, rep, err = run_json(os.path.join(H.src, "workloads/matmul_parallel.pto"), "-D", "M=128", "-D", "N=64", "-D", "K=64",
                          "--config", PAR_CFG, "--timeline", tl2)
check("parallel timeline run", code == 0, err)
problems, doc = validate_trace(tl2)
check("parallel timeline valid", not problems, problems[:5])
check("one track per core", {e["tid"] for e in doc["traceEvents"] if e["ph"] in "BX"} == {0, 1, 2, 3},
      {e["tid"] for e in doc["traceEvents"]})
par_ops = [e for e in doc["traceEvents"] if e.get("cat") == "op"]
check("parallel timeline: op slices on every core", {e["tid"] for e in par_ops} == {0, 1, 2, 3} and
      {e["name"] for e in par_ops} >= {"pto.matmul"}, sorted({(e["tid"], e["name"]) for e in par_ops}))
code, plain_par, err = run_json(os.path.join(H.src, "workloads/matmul_parallel.pto"), "-D", "M=128", "-D", "N=64", "-D",
                                "K=64", "--config", PAR_CFG)
check("parallel timeline changes no count", plain_par["levels"] == rep["levels"] and plain_par["cycles"] == rep["cycles"]
      and plain_par["core"] == rep["core"], (plain_par["cycles"], rep["cycles"]))

bad = write("bad.pto", "A = pto.tensor([4], pto.float32)\nB = A +\n")
tl3 = os.path.join(tmp, "t3.json")
code, out, err = run("run", bad, "--timeline", tl3)
check("no timeline on error", code == 2 and not os.path.exists(tl3) and err.startswith(bad + ":2:"), err)
code, out, err = run("run", COPY, "--timeline", COPY)
check("timeline over the program", code == 2 and "not writing over it" in err, err)

# ---- leaks ----
LEAK = write("leak.pto", """\
S = pto.tensor([16, 16], pto.float32, memory="shared")
G = pto.tensor([16, 16], pto.float32)

def make():
    return pto.tensor([8, 8], pto.float32, memory="shared")

T = make()
with pto.scope("k"):
    U = pto.tensor([4, 4], pto.float32, memory="shared")
R = pto.tensor([2, 2], pto.float32, memory="register")
del_me = pto.tensor([2, 2], pto.float32, memory="register")
del_me = 0
""")
code, rep, err = run_json(LEAK, "--config", CFG)
check("leak run exit 0", code == 0, err)
leaks = rep["program"].get("leaks", [])
check("leaks listed", [(l["name"], l["tensor"], l["space"], l["bytes"], l["scope"]) for l in leaks] ==
      [(LEAK + ":1:1", "S", "shared", 1024, "the top level"), (LEAK + ":5:5", "T", "shared", 256, "make()"),
       (LEAK + ":10:1", "R", "register", 16, "the top level")], leaks)
code, out, err = run("run", LEAK, "--config", CFG, "--leaks=error")
lines = err.splitlines()
check("--leaks=error", code == 1 and len(lines) == 3 and lines[0].startswith(LEAK + ":1:1: leak: 'S' (1024 bytes in shared)")
      and "make()" in lines[1] and out, err)
code, rep, err = run_json(LEAK, "--config", CFG, "--leaks", "off")
check("--leaks off", code == 0 and "leaks" not in rep["program"], rep["program"].keys())
code, out, err = run("run", COPY, "--config", CFG, "--leaks=error")
check("no leaks, exit 0", code == 0, err)
# Leaks are tracked whatever the space maps to: on the Xeon config `shared`
# is an alias of L1D (a cache), and the leak was missed there (exit 0).
# On the NPU config `shared` is the l1 buffer itself (one space): the leak
# is reported there.
for cfg in sorted(os.listdir(os.path.join(H.src, "configs"))):
    code, out, err = run("run", LEAK, "--config", os.path.join(H.src, "configs", cfg), "--leaks=error")
    space = "l1" if cfg == "npu.yaml" else "shared"
    check("--leaks=error on " + cfg, code == 1 and f"leak: 'S' (1024 bytes in {space})" in err, (code, err))
code, out, err = run("run", COPY, "--leaks=maybe")
check("bad --leaks", code == 2 and out == "", err)

# The epoch length is printed as it was asked: the femtosecond rounding of
# 20000 cycles at tiny.yaml's clock read back as 20000.000001.
code, out, err = run("run", COPY, "--config", os.path.join(H.src, "configs", "tiny.yaml"), "--epoch", "20000")
check("epoch_cycles printed as the integer asked", code == 0 and "\nepoch_cycles: 20000\n" in out,
      [l for l in out.splitlines() if "epoch_cycles" in l] or err)

# Footprint over time: the epochs' peaks reach the program's peak.
code, rep, err = run_json(LEAK, "--config", CFG, "--epoch", "50")
peak = max(next(f for f in e["footprint"] if f["name"] == "shared")["peak_bytes"] for e in rep["epochs"])
want = next(r for r in rep["program"]["footprint"] if r["name"] == "shared")["peak_bytes"]
check("footprint peak over epochs", peak == want and want >= 1024 + 256, (peak, want))

# ---- hot spots ----
NAIVE = os.path.join(H.src, "workloads", "matmul_naive.pto")
dims = ["-D", "M=64", "-D", "N=64", "-D", "K=64"]
code, plain, err = run_json(NAIVE, *dims, "--config", CFG)
code, hot, err = run_json(NAIVE, *dims, "--config", CFG, "--hot-spots", "100", "--hot-tile", "16x16")
check("hot spots run", code == 0, err)
check("hot spots change no count", [{k: v for k, v in l.items()} for l in plain["levels"]] == hot["levels"] and
      plain["cycles"] == hot["cycles"], [l.get("tensors") for l in hot["levels"]])
l1 = next(h for h in hot["hot_spots"] if h["name"] == "L1")["by_accesses"]
acc = {t["name"]: t["accesses"] for t in l1}
# Per C element: a read and a write per k (2 K); per A and B element: one read per N (M).
check("hot tiles: 48 tiles of 16x16", len(l1) == 48 and all(t["tile"] == "16x16" for t in l1), len(l1))
check("hot tiles: C tiles first", [t["tensor"] for t in l1[:16]] == ["C"] * 16 and
      all(acc[f"C[{i}:{i + 16}, {j}:{j + 16}]"] == 256 * 2 * 64 for i in range(0, 64, 16) for j in range(0, 64, 16)), l1[:3])
check("hot tiles: A, B", all(acc[f"{t}[{i}:{i + 16}, {j}:{j + 16}]"] == 256 * 64 for t in "AB"
                             for i in range(0, 64, 16) for j in range(0, 64, 16)), acc)
top_miss = next(h for h in hot["hot_spots"] if h["name"] == "L1")["by_misses"]
check("hot tiles by misses", top_miss == sorted(top_miss, key=lambda t: -t["misses"]) and
      sum(t["misses"] for t in top_miss) == level(hot, "L1")["read_misses"] + level(hot, "L1")["write_misses"], top_miss[:3])
code, out, err = run("run", NAIVE, *dims, "--config", CFG, "--hot-spots", "2", "--hot-tile", "16x16")
check("hot spots text", "hot spots (tensor tiles)\n  L1, most accesses: C[0:16, 0:16] 32768, C[0:16, 16:32] 32768" in out,
      out[-800:])
MT = os.path.join(H.src, "workloads", "matmul_tiled.pto")
code, rep, err = run_json(MT, "-D", "TM=16", "-D", "TN=16", "--config", CFG, "--hot-spots", "3")
names = [t["name"] for h in rep["hot_spots"] for t in h.get("by_accesses", [])]
check("tile from the program's pto.tile", "A[0:16, 0:16]" in names and all(t["tile"] == "16x16" for h in rep["hot_spots"]
                                                                         for t in h.get("by_accesses", [])
                                                                         if t["tensor"] in "ABC"), names)
for args, msg in ((["--hot-spots", "2", "--hot-tile", "3x"], "--hot-tile: 3x: expected"), (["--hot-spots", "2", "--hot-tile", "0x4"], "--hot-tile: 0x4"),
                  (["--hot-tile", "4x4"], "--hot-tile: needs --hot-spots"), (["--hot-spots", "0"], "")):
    code, out, err = run("run", NAIVE, *args)
    check(f"bad hot flags {args}", code == 2 and out == "" and err.startswith(msg or err[:1]), err)
din = write("t.din", "r 0 4\n")
code, out, err = run("run", "--trace", din, "--hot-spots", "3")
check("hot spots need a program", code == 2 and err.startswith("--hot-spots: needs a PROGRAM"), err)

# ---- per-line flops of batched scalar arithmetic ----
# Two lines' scalar operations interleave; a batch of 256 holds one line's only.
FLOPS = write("flops.pto", """\
x = 0.0
y = 1.0
for i in range(300):
    x = x + 1.0
    y = y * 1.0
    x = x - 0.5
""")
code, rep, err = run_json(FLOPS, "--config", CFG, "--by-line")
rows = {r["line"]: r for r in rep["by_line"]}
check("scalar flops per line exact", code == 0 and rows[4]["flops"] == 300 and rows[5]["flops"] == 300 and
      rows[6]["flops"] == 300 and sum(r["flops"] for r in rep["by_line"]) == rep["core"]["flops"] == 900,
      [(r["line"], r["flops"]) for r in rep["by_line"]])
code, rep, err = run_json(NAIVE, *dims, "--config", CFG, "--by-line")
rows = {r["line"]: r for r in rep["by_line"]}
check("naive matmul: every flop on line 19", rows[19]["flops"] == 2 * 64 ** 3 == rep["core"]["flops"],
      [(r["line"], r["flops"]) for r in rep["by_line"]])

# ---- the heatmap by address within each tensor ----
# A is 16 x 16 float32 = 1 KiB: 4 bins of 256 B (4 rows each). Epochs of 16
# accesses: row 0 (bin 0), row 15 (bin 3), then column 0 (4 in each bin).
BINS = write("bins.pto", """\
param N = 16
A = pto.tensor([N, N], pto.float32, init="random", seed=1)
s = 0.0
for j in range(N):
    s += A[0, j]
for j in range(N):
    s += A[N - 1, j]
for i in range(N):
    s += A[i, 0]
""")
code, rep, err = run_json(BINS, "--config", CFG, "--epoch-accesses", "16", "--heatmap-bins", "4")
check("heatmap bins run", code == 0 and rep["heatmap_bins"] == 4, err)
check("heatmap tensors", rep["heatmap_tensors"] == [{"name": "A", "bytes": 1024, "bin_bytes": 256.0}],
      rep.get("heatmap_tensors"))


def bins_of(e, lvl, key):
    t = next((t for l in e["levels"] if l["name"] == lvl for t in l.get("tensors", []) if t["name"] == "A"), None)
    return {b["bin"]: b[key] for b in t["bins"]} if t else {}


ep = rep["epochs"]
check("heatmap: 3 epochs", len(ep) == 3, len(ep))
check("heatmap L1 accesses per bin", [bins_of(e, "L1", "accesses") for e in ep] ==
      [{0: 16}, {3: 16}, {0: 4, 1: 4, 2: 4, 3: 4}], [bins_of(e, "L1", "accesses") for e in ep])
# 64-byte lines, one per row: row 0 and row 15 miss once; then rows 1-14.
check("heatmap L1 misses per bin", [bins_of(e, "L1", "misses") for e in ep] ==
      [{0: 1}, {3: 1}, {0: 3, 1: 4, 2: 4, 3: 3}], [bins_of(e, "L1", "misses") for e in ep])
check("heatmap L2 accesses per bin = L1 misses", [bins_of(e, "L2", "accesses") for e in ep] ==
      [bins_of(e, "L1", "misses") for e in ep], [bins_of(e, "L2", "accesses") for e in ep])
code, plain, err = run_json(BINS, "--config", CFG, "--epoch-accesses", "16")
check("heatmap bins change no count (levels folded per tensor)",
      plain["levels"] == rep["levels"] and plain["cycles"] == rep["cycles"] and
      [[{k: v for k, v in t.items()} for l in e["levels"] for t in l.get("tensors", [])] for e in plain["epochs"]] ==
      [[{k: v for k, v in t.items() if k != "bins"} for l in e["levels"] for t in l.get("tensors", [])] for e in ep],
      (plain["epochs"][0], ep[0]))
for args, msg in ((["--heatmap-bins", "4"], "--heatmap-bins: needs --epoch"),
                  (["--heatmap-bins", "0", "--epoch", "100"], ""), (["--heatmap-bins", "x", "--epoch", "100"], ""),
                  (["--heatmap-bins", "1025", "--epoch", "100"], ""),
                  (["--heatmap-bins", "4", "--epoch", "100", "--hot-spots", "3"], "--heatmap-bins: not with --hot-spots")):
    out_json = os.path.join(tmp, "never.json")
    code, out, err = run("run", BINS, "--config", CFG, *args, "-o", out_json)
    check(f"bad heatmap flags {args}", code == 2 and out == "" and err.startswith(msg or err[:1]) and
          not os.path.exists(out_json), (code, err))
code, out, err = run("run", "--trace", din, "--heatmap-bins", "4", "--epoch", "100")
check("heatmap bins need a program", code == 2 and err.startswith("--heatmap-bins: needs a PROGRAM"), err)

# ---- core.model: cpu ----
CPU_CFG = write("cpu.yaml", open(CFG).read().replace("core: {", "core: {model: cpu, rob_entries: 32, "))
PAR_CPU = write("parcpu.yaml", open(CPU_CFG).read().replace("core: {", "core: {cores: 2, "))
for prog, pargs, cfg, label in ((COPY, [], CPU_CFG, "copy"), (NAIVE, dims, CPU_CFG, "naive"),
                                (NEST, [], CPU_CFG, "nest"),
                                (os.path.join(H.src, "workloads/matmul_parallel.pto"), ["-D", "M=64", "-D", "N=32", "-D", "K=32"],
                                 PAR_CPU, "parallel")):
    code, plain, err = run_json(prog, *pargs, "--config", cfg)
    check(f"cpu {label}: plain run", code == 0 and plain["core"].get("model") == "cpu", err)
    tl_cpu = os.path.join(tmp, f"cpu-{label}.json")
    code, full, err = run_json(prog, *pargs, "--config", cfg, "--by-line", "--epoch", "300", "--timeline", tl_cpu,
                               "--hot-spots", "4")
    check(f"cpu {label}: attributed run", code == 0, err)
    check(f"cpu {label}: attribution changes no count or cycle",
          plain["levels"] == full["levels"] and plain["cycles"] == full["cycles"] and plain["core"] == full["core"],
          (plain["cycles"], full["cycles"]))
    for name in ("L1", "L2", "DRAM"):
        total = level(full, name)
        n = total["reads"] + total["writes"]
        m = total["read_misses"] + total["write_misses"]
        b = total["bytes_read"] + total["bytes_written"]
        check(f"cpu {label}: by_line sums to {name}",
              sum(lv(r, name)["accesses"] for r in full["by_line"]) == n and
              sum(lv(r, name)["misses"] for r in full["by_line"]) == m and
              sum(lv(r, name)["bytes"] for r in full["by_line"]) == b, (name, total))
        el = [next(l for l in e["levels"] if l["name"] == name) for e in full["epochs"]]
        check(f"cpu {label}: epochs sum to {name}", sum(l["accesses"] for l in el) == n and sum(l["misses"] for l in el) == m)
    check(f"cpu {label}: by_line accesses and flops", sum(r["accesses"] for r in full["by_line"]) ==
          full["core"]["line_requests"] and sum(r["flops"] for r in full["by_line"]) == full["core"]["flops"],
          ([(r["line"], r["accesses"]) for r in full["by_line"]], full["core"]))
    check(f"cpu {label}: cycles attributed within the run (each core's)",
          0 < sum(r["cycles"] for r in full["by_line"]) <= full["cycles"] * full["core"]["cores"] + 1e-6,
          (sum(r["cycles"] for r in full["by_line"]), full["cycles"]))
    check(f"cpu {label}: epochs of 300 cycles", all(abs(e["end_cycles"] - e["start_cycles"] - 300) < 1e-6
                                                    for e in full["epochs"][:-1]) and
          sum(e["accesses"] for e in full["epochs"]) == full["core"]["accesses"], len(full["epochs"]))
    problems, doc = validate_trace(tl_cpu)
    check(f"cpu {label}: timeline valid", not problems and any(e["ph"] == "X" for e in doc["traceEvents"]), problems[:5])
    l1 = next(h for h in full["hot_spots"] if h["name"] == "L1")
    check(f"cpu {label}: hot spots", l1["by_accesses"] and l1["by_accesses"][0]["accesses"] > 0, l1)
code, rep, err = run_json(COPY, "--config", CPU_CFG, "--by-line")
rows = {r["line"]: r for r in rep["by_line"]}
check("cpu: line 6 exact", rows[6]["accesses"] == 512 and lv(rows[6], "L1")["misses"] == 32 and
      rows[9]["accesses"] == 16 and lv(rows[9], "L1")["misses"] == 0, (rows[6], rows[9]))
code, rep, err = run_json(FLOPS, "--config", CPU_CFG, "--by-line")
rows = {r["line"]: r for r in rep["by_line"]}
check("cpu: scalar flops per line", code == 0 and [rows[k]["flops"] for k in (4, 5, 6)] == [300, 300, 300], err or rep["by_line"])

# ---- with --check-data (every event goes one by one, its bytes checked) ----
# (--check-data refuses private levels of several cores: the 4-core run's L1 is shared.)
PAR_SHARED_CFG = write("par-shared.yaml", open(PAR_CFG).read().replace("{name: L1, ", "{name: L1, sharing: shared, "))
for cfg, label in ((CFG, "simple"), (CPU_CFG, "cpu"), (PAR_SHARED_CFG, "4 cores")):
    prog, pargs = (os.path.join(H.src, "workloads/matmul_parallel.pto"), ["-D", "M=64", "-D", "N=32", "-D", "K=32"]) \
        if label == "4 cores" else (COPY, [])
    code, plain, err = run_json(prog, *pargs, "--config", cfg, "--check-data")
    tl_cd = os.path.join(tmp, f"cd-{label}.json")
    code2, full, err2 = run_json(prog, *pargs, "--config", cfg, "--check-data", "--by-line", "--epoch", "97",
                                 "--timeline", tl_cd)
    check(f"check-data {label}: runs", code == 0 and code2 == 0, err + err2)
    check(f"check-data {label}: attribution changes no count or cycle",
          plain["levels"] == full["levels"] and plain["cycles"] == full["cycles"] and plain["core"] == full["core"],
          (plain["cycles"], full["cycles"]))
    l1 = level(full, "L1")
    check(f"check-data {label}: by_line and epochs sum to L1",
          sum(lv(r, "L1")["accesses"] for r in full["by_line"]) == l1["reads"] + l1["writes"] ==
          sum(next(l for l in e["levels"] if l["name"] == "L1")["accesses"] for e in full["epochs"]) and
          all(r["line"] > 0 for r in full["by_line"]), [(r["line"], r["accesses"]) for r in full["by_line"]])
    problems, doc = validate_trace(tl_cd)
    check(f"check-data {label}: timeline valid", not problems, problems[:5])
code, rep, err = run_json(COPY, "--config", CFG, "--check-data", "--by-line")
rows = {r["line"]: r for r in rep["by_line"]}
check("check-data: line 6 exact", rows[6]["accesses"] == 512 and lv(rows[6], "L1")["misses"] == 32, rows.get(6))

H.finish()
