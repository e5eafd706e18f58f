#!/usr/bin/env python3
"""Tests of scripts/plot.py: every picture is a valid PNG of the size asked
for (chunks and CRCs checked, image data decompresses, not one flat colour),
and the numbers it drew (--data) are the report's or the sweep CSV's. The
sweep CSV is generated here from pto-sim runs (parameters and report keys as
columns, one row per point), as `pto-sim sweep` writes one.

usage: plot_tests.py PTO_SIM SOURCE_DIR   (run with a Python that has matplotlib)
"""
import csv
import json
import math
import os
import struct
import subprocess
import sys
import zlib

from harness import Harness, level

H = Harness("pto-sim-plot-")
run, check, write, tmp = H.run, H.check, H.write, H.tmp
PLOT = os.path.join(H.src, "scripts", "plot.py")


def plot(*args):
    p = subprocess.run([sys.executable, PLOT, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def png_problems(path, width, height):
    """Why `path` is not a valid PNG of width x height (empty: it is)."""
    try:
        data = open(path, "rb").read()
    except OSError as e:
        return [str(e)]
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return ["no PNG signature"]
    at, chunks, idat, problems = 8, [], b"", []
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        (crc,) = struct.unpack(">I", data[at + 8 + n:at + 12 + n])
        if zlib.crc32(kind + body) != crc:
            problems.append(f"bad CRC in {kind}")
        chunks.append(kind)
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            if (w, h) != (width, height):
                problems.append(f"size {w}x{h}, expected {width}x{height}")
        if kind == b"IDAT":
            idat += body
        at += 12 + n
    if not chunks or chunks[0] != b"IHDR" or chunks[-1] != b"IEND":
        problems.append(f"chunks {chunks[:3]}...{chunks[-1:]}")
    raw = zlib.decompress(idat)
    if len(set(raw[i] for i in range(0, len(raw), 97))) < 4:
        problems.append("one flat colour")
    return problems


CFG = write("cfg.yaml", """\
name: plots
clock: 1 GHz
core: {issue_width: 2, max_outstanding: 8, flops_per_cycle: 16, vector_bytes: 32 B}
memories:
  - {name: register, size: 64 KiB, latency: 0 cycles, bandwidth: 256 B/cycle}
  - {name: shared, size: 64 KiB, latency: 4 cycles, bandwidth: 128 B/cycle}
caches:
  - {name: L1, size: 8 KiB, ways: 4, line: 64 B, latency: 2 cycles}
  - {name: L2, size: 64 KiB, ways: 8, line: 64 B, latency: 8 cycles}
dram: {timing: detailed}
""")
MT = os.path.join(H.src, "workloads", "matmul_tiled.pto")


def report(*args):
    code, out, err = run("run", MT, "--config", CFG, "--format", "json", *args)
    if not check(f"run {args}", code == 0, err):
        sys.exit(1)
    return json.loads(out) if out.strip() else None


rep_path = os.path.join(tmp, "r.json")
report("--epoch", "2000", "-D", "M=64", "-D", "N=64", "-D", "K=64", "-o", rep_path)
rep = json.load(open(rep_path))

# ---- one report ----
for kind, extra in (("heatmap", []), ("heatmap", ["--metric", "misses"]), ("levels", []), ("roofline", [])):
    png, data = os.path.join(tmp, f"{kind}{len(extra)}.png"), os.path.join(tmp, f"{kind}{len(extra)}.json")
    code, out, err = plot(kind, rep_path, "-o", png, "--data", data, *extra)
    check(f"{kind} {extra} exit", code == 0, err)
    check(f"{kind} {extra} png", not png_problems(png, 1000, 600), png_problems(png, 1000, 600))
    d = json.load(open(data))
    if kind == "heatmap":
        metric = extra[1] if extra else "accesses"
        for name, grid in d["levels"].items():
            # Summed over time, each tensor's row is its count at that level.
            tensors = {t["name"]: t[metric] for t in level(rep, name).get("tensors", [])}
            got = {t: sum(row) for t, row in zip(d["tensors"][name], grid) if sum(row)}
            check(f"heatmap {metric} {name} totals", got == {t: v for t, v in tensors.items() if v and t != "(untagged)"},
                  (got, tensors))
        check(f"heatmap {metric} time edges", len(d["time_edges_us"]) == len(rep["epochs"]) + 1 and
              abs(d["time_edges_us"][-1] - rep["epochs"][-1]["end_cycles"] / 1e3) < 1e-9)
        if metric == "misses":
            check("misses heatmap shows caches only", set(d["levels"]) <= {"L1", "L2"} and d["levels"], d["levels"].keys())
    elif kind == "levels":
        lv = [l for l in rep["levels"] if l["reads"] + l["writes"]]
        check("levels data", d["levels"] == [l["name"] for l in lv] and
              d["misses"] == [l["read_misses"] + l["write_misses"] for l in lv] and
              d["hits"] == [l["read_hits"] + l["write_hits"] for l in lv], d)
    else:
        # One point per level at that level's intensity (issue 28: one DRAM-intensity point under cache roofs).
        want = [{"level": l["name"], "ai": rep["flops"] / (l["bytes_read"] + l["bytes_written"]),
                 "flops_per_s": rep["gflops_per_s"] * 1e9} for l in rep["levels"]
                if l["kind"] in ("cache", "dram") and l["bytes_read"] + l["bytes_written"]]
        check("roofline data: a point per level at its own intensity", d["points"] == want and len(want) >= 2
              and d["peak_flops_per_s"] == rep["peak_flops_per_s"] and
              ["DRAM", level(rep, "DRAM")["peak_bandwidth_bytes_per_s"]] in d["roofs"], d)

# The heatmap by address within each tensor (--heatmap-bins): each bin's
# row, summed over time, is the bin's count in the report's epochs, and the
# bins of a tensor add up to the tensor's count at the level.
bins_path = os.path.join(tmp, "bins.json")
report("--epoch", "2000", "-D", "M=64", "-D", "N=64", "-D", "K=64", "--heatmap-bins", "16", "-o", bins_path)
brep = json.load(open(bins_path))
for metric in ("accesses", "misses"):
    png, data = os.path.join(tmp, f"bins-{metric}.png"), os.path.join(tmp, f"bins-{metric}.json")
    code, out, err = plot("heatmap", bins_path, "-o", png, "--data", data, "--metric", metric)
    check(f"address heatmap {metric} exit", code == 0, err)
    check(f"address heatmap {metric} png", not png_problems(png, 1000, 600), png_problems(png, 1000, 600))
    d = json.load(open(data))
    check(f"address heatmap {metric} rows", d["bins"] == 16 and
          all(len(g) == 16 * len(d["tensors"][n]) for n, g in d["levels"].items()) and
          set(d["tensors"]["L1"]) >= {"A", "B", "C"}, (d["bins"], d["tensors"]))
    for name, grid in d["levels"].items():
        want = {}
        for x, e in enumerate(brep["epochs"]):
            for t in next(l for l in e["levels"] if l["name"] == name).get("tensors", []):
                for b in t.get("bins", []):
                    if b[metric]:
                        want[(t["name"], b["bin"], x)] = b[metric]
        got = {(d["tensors"][name][r // 16], r % 16, x): v for r, row in enumerate(grid) for x, v in enumerate(row) if v}
        check(f"address heatmap {metric} {name} cells", got == want, (len(got), len(want)))
        totals = {t["name"]: t[metric] for t in level(brep, name).get("tensors", [])}
        per = {}
        for (t, _, _), v in got.items():
            per[t] = per.get(t, 0) + v
        check(f"address heatmap {metric} {name} bins sum to the tensor", per == {t: v for t, v in totals.items()
                                                                                if v and t != "(untagged)"}, (per, totals))

png = os.path.join(tmp, "small.png")
code, out, err = plot("levels", rep_path, "-o", png, "--width", "800", "--height", "450")
check("size asked for", code == 0 and not png_problems(png, 800, 450), png_problems(png, 800, 450))

# ---- a sweep CSV: tile size x problem size ----
sweep = os.path.join(tmp, "sweep.csv")
rows = []
for m in (32, 64):
    for tile in (8, 16, 32):
        r = report("-D", f"M={m}", "-D", f"N={m}", "-D", f"K={m}", "-D", f"TM={tile}", "-D", f"TN={tile}", "-D", f"TK={tile}")
        rows.append({"M": m, "tile": tile, "accesses": level(r, "L1")["reads"] + level(r, "L1")["writes"], "cycles": r["cycles"], "flops": r["flops"],
                     "seconds": r["seconds"], "dram_bytes": r["dram_bytes"],
                     **{f"{n}_miss_rate": level(r, n)["miss_rate"] for n in ("L1", "L2")},
                     **{f"{n}_misses": level(r, n)["read_misses"] + level(r, n)["write_misses"] for n in ("L1", "L2")}})
with open(sweep, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
big = [r for r in rows if r["M"] == 64]

png, data = os.path.join(tmp, "rate.png"), os.path.join(tmp, "rate.json")
code, out, err = plot("sweep-rate", sweep, "--x", "tile", "--x-unit", "elements", "--group", "M", "-o", png, "--data", data)
check("sweep-rate", code == 0 and not png_problems(png, 1000, 600), err)
d = json.load(open(data))
check("sweep-rate columns found", set(d["miss_rate"]) == {f"L{l}_miss_rate (M={m})" for l in (1, 2) for m in (32, 64)} and
      set(d["mpka"]) == {f"L{l}_misses (M={m})" for l in (1, 2) for m in (32, 64)}, d.keys())
for m in (32, 64):
    mine = sorted((r for r in rows if r["M"] == m), key=lambda r: r["tile"])
    check(f"sweep-rate data M={m}", d["x"][f"L1_miss_rate (M={m})"] == [r["tile"] for r in mine] and
          d["miss_rate"][f"L1_miss_rate (M={m})"] == [r["L1_miss_rate"] for r in mine] and
          all(abs(a - 1000 * r["L2_misses"] / r["accesses"]) < 1e-9 for a, r in zip(d["mpka"][f"L2_misses (M={m})"], mine)), d)
code, out, err = plot("sweep-rate", sweep, "--x", "tile", "--group", "Q", "-o", os.path.join(tmp, "q.png"))
check("unknown group", code == 2 and "no column 'Q'" in err, err)

# DRAM bytes vs tile size where the operands do not fit the last level (8 KiB L2).
SMALL = write("small.yaml", open(CFG).read().replace("{name: L2, size: 64 KiB", "{name: L2, size: 8 KiB")
              .replace("{name: L1, size: 8 KiB", "{name: L1, size: 2 KiB"))
big = []
for tile in (4, 8, 16, 32):
    code, out, err = run("run", MT, "--config", SMALL, "--format", "json", "-D", "M=64", "-D", "N=64", "-D", "K=64",
                         "-D", f"TM={tile}", "-D", f"TN={tile}", "-D", f"TK={tile}")
    check(f"small-L2 run {tile}", code == 0, err)
    big.append({"tile": tile, "dram_bytes": json.loads(out)["dram_bytes"]})
big_csv = os.path.join(tmp, "big.csv")
with open(big_csv, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(big[0]))
    w.writeheader()
    w.writerows(big)
png, data = os.path.join(tmp, "dram.png"), os.path.join(tmp, "dram.json")
code, out, err = plot("sweep-dram", big_csv, "--x", "tile", "-o", png, "--data", data, "--matmul", "64", "64", "64",
                      "--capacity", "8192")
check("sweep-dram", code == 0 and not png_problems(png, 1000, 600), err)
d = json.load(open(data))
bound = 2 * 64 ** 3 / math.sqrt(8192 / 4) * 4
sim = d["bytes"]["dram_bytes"]
check("sweep-dram bound", abs(d["lower_bound_bytes"] - bound) < 1e-6 and sim == [r["dram_bytes"] for r in big], d)
check("simulated traffic above the bound", all(b >= bound for b in sim), (sim, bound))
check("bigger tiles move fewer bytes", sim[0] >= sim[-1], sim)

png, data = os.path.join(tmp, "hm.png"), os.path.join(tmp, "hm.json")
code, out, err = plot("sweep-heatmap", sweep, "--x", "tile", "--y", "M", "--metric", "cycles", "--unit", "core cycles",
                      "-o", png, "--data", data)
check("sweep-heatmap", code == 0 and not png_problems(png, 1000, 600), err)
d = json.load(open(data))
check("sweep-heatmap grid", d["x"] == [8, 16, 32] and d["y"] == [32, 64] and
      all(d["grid"][[32, 64].index(r["M"])][[8, 16, 32].index(r["tile"])] == r["cycles"] for r in rows), d)

png, data = os.path.join(tmp, "sr.png"), os.path.join(tmp, "sr.json")
code, out, err = plot("sweep-roofline", sweep, "-o", png, "--data", data, "--peak-flops", str(rep["peak_flops_per_s"]),
                      "--peak-bw", str(rep["peak_dram_bandwidth_bytes_per_s"]), "--label", "M", "tile")
check("sweep-roofline", code == 0 and not png_problems(png, 1000, 600), err)
d = json.load(open(data))
check("sweep-roofline points", [p["ai"] for p in d["points"]] == [r["flops"] / r["dram_bytes"] for r in rows] and
      d["points"][0]["label"] == "M=32, tile=8", d)

# ---- pto-sim's own sweep CSV, every default ----
own = os.path.join(tmp, "own.csv")
code, out, err = run("sweep", os.path.join(H.src, "workloads", "matmul_tiled.pto"), "-D", "M=64", "-D", "N=64", "-D", "K=64",
                     "-D", "TM=16,32", "-D", "TN=16,32", "-o", own)
if check("own sweep", code == 0, err):
    png, data = os.path.join(tmp, "own_rate.png"), os.path.join(tmp, "own_rate.json")
    # It failed on `no column 'accesses'`, then on the empty L1.block_misses; its legend held 25 series.
    code, out, err = plot("sweep-rate", own, "--x", "TM", "--group", "TN", "-o", png, "--data", data)
    d = json.load(open(data)) if code == 0 else {}
    check("sweep-rate on pto-sim's CSV with its defaults", code == 0 and not png_problems(png, 1000, 600), err)
    check("sweep-rate: one line per cache level and group", sorted(d.get("miss_rate", {})) == sorted(
        f"{l}.miss_rate (param.TN={t})" for l in ("L1", "L2") for t in (16, 32)) and sorted(d["mpka"]) == sorted(
        f"{l}.demand_misses (param.TN={t})" for l in ("L1", "L2") for t in (16, 32)), d.get("miss_rate"))
    # Without --group a TM x TN sweep drew one zigzag line through both TN at each TM: TN groups by itself.
    code, out, err = plot("sweep-rate", own, "--x", "TM", "-o", png, "--data", data)
    d2 = json.load(open(data)) if code == 0 else {}
    check("sweep-rate: x repeats, the varying parameter groups", code == 0 and d2.get("miss_rate", {}).keys() ==
          d.get("miss_rate", {}).keys(), (err, d2.get("miss_rate", {}).keys()))
    code, out, err = plot("sweep-dram", own, "--x", "N", "-o", os.path.join(tmp, "two.png"))
    check("sweep-dram: x repeats while two parameters vary: exit 2 naming them",
          code == 2 and "param.TM, param.TN vary" in err and not os.path.exists(os.path.join(tmp, "two.png")), err)
    # README's `plot.py sweep-rate|sweep-dram|sweep-heatmap|sweep-roofline SWEEP.csv -o out.png` as a newcomer
    # types it: --x/--y were required (exit 2), and sweep-roofline's peaks, which the CSV holds.
    for verb in ("sweep-rate", "sweep-dram", "sweep-heatmap", "sweep-roofline"):
        png, data = os.path.join(tmp, f"own_{verb}.png"), os.path.join(tmp, f"own_{verb}.json")
        code, out, err = plot(verb, own, "-o", png, "--data", data)
        check(f"{verb} on pto-sim's CSV without --x/--y/peaks", code == 0 and not png_problems(png, 1000, 600), err)
    d = json.load(open(os.path.join(tmp, "own_sweep-heatmap.json")))
    check("sweep-heatmap defaults: x the first swept parameter, y the second", d.get("x") == [16, 32] and
          d.get("y") == [16, 32], d)
    d = json.load(open(os.path.join(tmp, "own_sweep-roofline.json")))
    own_rows = list(csv.DictReader(open(own)))
    check("sweep-roofline defaults: each point labelled by its swept parameters",
          [p["label"] for p in d["points"]] == [f"param.TM={r['param.TM']}, param.TN={r['param.TN']}"
                                                for r in own_rows], d["points"])
    code, out, err = plot("sweep-heatmap", own, "--x", "TM", "-o", os.path.join(tmp, "noy.png"))
    check("sweep-heatmap --x only: y the other swept parameter", code == 0, err)

# ---- a sweep over a config key too (--set): README's own sweep line ----
own2 = os.path.join(tmp, "own2.csv")
code, out, err = run("sweep", os.path.join(H.src, "workloads", "matmul_tiled.pto"), "-D", "M=64", "-D", "N=64", "-D", "K=64",
                     "-D", "TM=16,32", "-D", "TN=16", "--set", "caches.L1.size=16KiB,32KiB", "-o", own2)
if check("own sweep with --set", code == 0, err):
    # The set.* column was not seen as a parameter: one line zigzagged through both L1 sizes at each TM.
    png, data = os.path.join(tmp, "own2_rate.png"), os.path.join(tmp, "own2_rate.json")
    code, out, err = plot("sweep-rate", own2, "--x", "TM", "-o", png, "--data", data)
    d = json.load(open(data)) if code == 0 else {}
    check("sweep-rate: a swept config key groups the lines", code == 0 and sorted(d.get("miss_rate", {})) == sorted(
        f"{l}.miss_rate (set.caches.L1.size={v})" for l in ("L1", "L2") for v in ("16KiB", "32KiB")), (err, d))
    # Two L1 sizes at each (TM, TN) cell: one of them was drawn, the other silently dropped.
    png = os.path.join(tmp, "own2_heat.png")
    code, out, err = plot("sweep-heatmap", own2, "--x", "TM", "--y", "TN", "-o", png)
    check("sweep-heatmap: a cell with several points is exit 2 naming what varies",
          code == 2 and "set.caches.L1.size varies too" in err and not os.path.exists(png), err)

# ---- the timeline picture ----
tl_rep = os.path.join(tmp, "tl.json")
report("--epoch", "2000", "-D", "M=64", "-D", "N=64", "-D", "K=64", "-o", tl_rep)
png, data = os.path.join(tmp, "tl.png"), os.path.join(tmp, "tl_data.json")
code, out, err = plot("timeline", tl_rep, "-o", png, "--data", data)
d = json.load(open(data)) if code == 0 else {}
r = json.load(open(tl_rep))
check("timeline", code == 0 and not png_problems(png, 1000, 600), err)
check("timeline: a point per epoch, the report's bandwidths",
      len(d.get("time_us", [])) == len(r["epochs"]) and d["bandwidth_gb_s"]["L1"] ==
      [next(l for l in e["levels"] if l["name"] == "L1")["bandwidth_bytes_per_s"] / 1e9 for e in r["epochs"]], d.keys())
code, out, err = plot("timeline", tl_rep, "-o", png, "--data", data, "--cycles", "0:2000")
check("timeline --cycles: the epochs inside", code == 0 and len(json.load(open(data))["time_us"]) == 1, err)

# ---- the miss-ratio curves: the config's levels marked ----
MATMUL = os.path.join(H.src, "workloads", "matmul_naive.pto")
curves_csv, png, data = os.path.join(tmp, "curves.csv"), os.path.join(tmp, "curves.png"), os.path.join(tmp, "cd.json")
code, out, err = run("curves", MATMUL, "-D", "M=32", "-D", "N=32", "-D", "K=32", "--format", "csv", "-o", curves_csv)
check("curves csv", code == 0, err)
code, out, err = plot("curves", curves_csv, "-o", png, "--data", data)
d = json.load(open(data)) if code == 0 else {}
rows = list(csv.DictReader(open(curves_csv)))
check("curves picture", code == 0 and not png_problems(png, 1000, 600), err)
check("curves: every level of the config marked at its size (default sizes 4 KiB..256 KiB)",
      [(m["level"], m["size"], m["ways"]) for m in d.get("config_levels", [])] ==
      [("L1", 32768, "8"), ("L2", 262144, "8")], d.get("config_levels"))
check("curves: the fully associative curve is the CSV's",
      d.get("fully associative") == sorted([float(r["size"]), float(r["miss_ratio"])] for r in rows
                                           if r["ways"] == "full"), d.keys())
# The config's associativity left out of --ways, L2 outside --sizes: both said, not dropped.
code, out, err = run("curves", MATMUL, "-D", "M=32", "-D", "N=32", "-D", "K=32", "--ways", "1,2", "--sizes",
                     "8KiB..64KiB:x2", "--format", "csv", "-o", curves_csv)
code2, out, err2 = plot("curves", curves_csv, "-o", png, "--data", data)
d = json.load(open(data)) if code2 == 0 else {}
check("curves: only the levels inside the plotted sizes drawn",
      code == 0 and code2 == 0 and [m["level"] for m in d["config_levels"]] == ["L1"], (err, err2, d.get("config_levels")))
check("curves: what is not drawn is said", d.get("notes") == ["config L1 32 KiB 8-way: not among the curves (--ways)",
                                                               "L2 256 KiB 8-way: outside the plotted sizes"],
      d.get("notes"))
# --sample: each point's standard error drawn (as an error bar) and given back.
code, out, err = run("curves", MATMUL, "-D", "M=32", "-D", "N=32", "-D", "K=32", "--sample", "0.5", "--ways", "4",
                     "--format", "csv", "-o", curves_csv)
code2, out, err2 = plot("curves", curves_csv, "-o", png, "--data", data)
d = json.load(open(data)) if code2 == 0 else {}
rows = list(csv.DictReader(open(curves_csv))) if code == 0 else []
check("curves --sample: the errors drawn are the CSV's",
      code == 0 and code2 == 0 and rows and d.get("4-way error") ==
      [float(r["miss_ratio_error"]) for r in sorted(rows, key=lambda r: int(r["size"]))], (err, err2, d.keys()))
bad_curves = write("bad_curves.csv", open(curves_csv).read().replace("L2=262144/8", "L2=big/8"))
code, out, err = plot("curves", bad_curves, "-o", os.path.join(tmp, "bc.png"))
check("curves: a bad config_levels named with file:line", code == 2 and "bad_curves.csv:2: config_levels" in err
      and not os.path.exists(os.path.join(tmp, "bc.png")), err)

# ---- without matplotlib: the package named, exit 2 ----
fake = os.path.join(tmp, "fake")
os.makedirs(os.path.join(fake, "matplotlib"))
write(os.path.join("fake", "matplotlib", "__init__.py"), "raise ImportError('no matplotlib here')\n")
p = subprocess.run([sys.executable, PLOT, "levels", tl_rep, "-o", os.path.join(tmp, "m.png")], capture_output=True,
                   text=True, env=dict(os.environ, PYTHONPATH=fake))
check("no matplotlib: names python3-matplotlib", p.returncode == 2 and "python3-matplotlib" in p.stderr
      and "Traceback" not in p.stderr, p.stderr)

# ---- bad input ----
code, out, err = plot("sweep-rate", sweep, "--x", "nope", "-o", os.path.join(tmp, "x.png"))
check("missing column", code == 2 and "no column 'nope'" in err and not os.path.exists(os.path.join(tmp, "x.png")), err)
noep = os.path.join(tmp, "noep.json")
report("-o", noep)
code, out, err = plot("heatmap", noep, "-o", os.path.join(tmp, "y.png"))
check("heatmap needs epochs", code == 2 and "--epoch" in err, err)
# A JSON report given to a CSV verb (pto-sim curves --format json to plot.py curves) was a TypeError.
code, out, err = plot("curves", noep, "-o", os.path.join(tmp, "c.png"))
check("a CSV verb on JSON: exit 2, says so", code == 2 and "this is JSON" in err and "Traceback" not in err and
      not os.path.exists(os.path.join(tmp, "c.png")), err)
bad_csv = write("bad.csv", "tile,cycles\n8,12\n16,abc\n")
code, out, err = plot("sweep-heatmap", bad_csv, "--x", "tile", "--y", "tile", "-o", os.path.join(tmp, "z.png"))
check("bad number", code == 2 and ":3: cycles: not a number" in err, err)

H.finish()
