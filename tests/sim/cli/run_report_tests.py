#!/usr/bin/env python3
"""End-to-end tests of report schema 2: the run identity, JSON types, CSV
columns, --set overrides, `config show` units, and that the one key list
(`pto-sim schema`) covers every key real reports carry and matches
docs/REPORTS.md. Usage: run_report_tests.py PTO_SIM SOURCE_DIR"""
import csv
import io
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Harness

h = Harness("ptosim-report-")
check, run, write = h.check, h.run, h.write
src = h.src
W = lambda name: os.path.join(src, "workloads", name)
C = lambda name: os.path.join(src, "configs", name)


def report(*args):
    out = os.path.join(h.tmp, "r.json")
    code, _, err = run("run", *args, "--format", "json", "-o", out)
    if not check(f"run {' '.join(args)}", code == 0, err):
        return {}
    return json.load(open(out))


# Identity and types.
rep = report(W("matmul_tiled.pto"), "-D", "TM=16", "--set", "caches.L1.size=16KiB")
check("schema_version 2", rep.get("schema_version") == 2, rep.get("schema_version"))
for k in ("pto_sim_version", "command_line", "started_at", "wall_seconds", "source", "source_hash", "config",
          "config_file", "config_hash", "parameters", "config_overrides", "config_resolved"):
    check(f"identity key {k}", k in rep, list(rep)[:20])
check("cycles is an integer", isinstance(rep.get("cycles"), int), rep.get("cycles"))
check("core.compute_cycles is an integer", isinstance(rep["core"]["compute_cycles"], int), rep["core"])
check("passed is a boolean", rep["program"]["checks"][0]["passed"] is True, rep["program"]["checks"])
check("parameters: override and defaults", rep["parameters"] == {"M": 64, "N": 64, "K": 64, "TM": 16, "TN": 32, "TK": 32},
      rep["parameters"])
check("config_overrides", rep["config_overrides"] == {"caches.L1.size": "16KiB"}, rep["config_overrides"])
check("resolved config has the override", rep["config_resolved"]["caches"][0]["size"] == "16 KiB", rep["config_resolved"])
check("command line recorded", "-D TM=16" in rep["command_line"] and " run " in rep["command_line"], rep["command_line"])
check("started_at is ISO UTC", re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", rep["started_at"]) is not None,
      rep["started_at"])
src_hash = rep["source_hash"]
check("source hash format", re.fullmatch(r"ptowh64:[0-9a-f]{16}", src_hash) is not None, src_hash)

# Two configs with the same name but other contents: different hashes; same contents: the same.
base = open(C("default.yaml")).read()
same = write("same.yaml", base)
other = write("other.yaml", base.replace("size: 32 KiB", "size: 16 KiB", 1))
r1, r2, r3 = report(W("matmul_tiled.pto")), report(W("matmul_tiled.pto"), "--config", same), \
    report(W("matmul_tiled.pto"), "--config", other)
check("same name", r1["config"] == r2["config"] == r3["config"], (r1["config"], r3["config"]))
check("same contents, same config_hash", r1["config_hash"] == r2["config_hash"], (r1["config_hash"], r2["config_hash"]))
check("other contents, other config_hash", r1["config_hash"] != r3["config_hash"], r3["config_hash"])
check("--set equals the edited file", report(W("matmul_tiled.pto"), "--set", "caches.L1.size=16 KiB")["config_hash"]
      == r3["config_hash"])

# A trace run: no parameters, the trace's hash.
trace = write("t.din", "r 0 4\nw 40 4\n2 80 4\n")
rt = report("--trace", trace, "--config", C("tiny.yaml"))
check("trace: parameters empty", rt.get("parameters") == {}, rt.get("parameters"))
check("trace: source hash", rt.get("source_hash", "").startswith("ptowh64:"), rt.get("source_hash"))

# --set errors: the override named, exit 2, no output file.
out = os.path.join(h.tmp, "never.json")
for spec, want in (("caches.L1.size=abc", "--set caches.L1.size=abc: caches[0].size: expected a size"),
                   ("caches.L1.sizee=1", "--set caches.L1.sizee=1: caches[0].sizee: unknown key"),
                   ("caches.L9.size=1KiB", "--set caches.L9.size=1KiB: no entry 'L9' in caches (it has: L1, L2)"),
                   ("clock.x=1", "--set clock.x=1: 'clock' is a value"),
                   ("=1", "--set =1: the path before '=' is empty"),
                   ("caches.L1.size", "--set caches.L1.size: expected dotted.path=VALUE")):
    code, _, err = run("run", W("matmul_tiled.pto"), "--set", spec, "-o", out)
    check(f"--set {spec}: exit 2 and message", code == 2 and want in err, (code, err))
    check(f"--set {spec}: no output", not os.path.exists(out))

# CSV: parameters and overrides are columns.
code, out_csv, err = run("run", W("matmul_tiled.pto"), "-D", "TM=16", "--set", "caches.L2.ways=4", "--format", "csv")
rows = list(csv.DictReader(io.StringIO(out_csv)))
check("csv rows", code == 0 and len(rows) == 6, (code, err, len(rows)))
if rows:
    check("csv param columns", rows[0]["param.TM"] == "16" and rows[0]["param.TK"] == "32", list(rows[0])[:20])
    check("csv set column", rows[0]["set.caches.L2.ways"] == "4", list(rows[0])[:20])
    check("csv cycles integer", re.fullmatch(r"\d+", rows[0]["cycles"]) is not None, rows[0]["cycles"])
    check("csv clock without exponent", "e+" not in out_csv.split("\n")[1], out_csv.split("\n")[1][:200])

# config show: natural units, round numbers, exact round trip.
code, out, err = run("config", "show")
check("config show: 80 ns", "  latency: 80 ns\n" in out, out)
code, out, err = run("config", "show", C("xeon-gold-6248r.yaml"))
check("config show: clocks with the rounded time", "  tCL: 21  # 14.3 ns\n" in out, out)
check("config show: 7.8 us", "  tREFI: 7.8 us\n" in out, out)
shown = write("shown.yaml", out)
code2, out2, _ = run("config", "show", shown)
check("config show round trip", code2 == 0 and out2.split("\n", 1)[1] == out.split("\n", 1)[1])

# The key list covers every key that real reports carry.
code, keys_json, err = run("schema", "--format", "json")
keys = json.loads(keys_json) if code == 0 else []
paths = [k["path"] for k in keys]


def listed(pattern):
    for p in paths:
        if re.fullmatch(re.escape(p).replace(r"\*", r"[^.\[]+"), pattern):
            return True
    return False


def patterns(v, path=""):
    if isinstance(v, dict):
        for k, x in v.items():
            p = f"{path}.{k}" if path else k
            if p in ("config_resolved", "parameters", "config_overrides"):
                yield p  # their members are named by the input ("caches.L1.size")
                if p != "config_resolved" and x:
                    yield p + ".NAME"
                continue
            yield p
            yield from patterns(x, p)
    elif isinstance(v, list):
        for item in v:
            if isinstance(item, dict):
                for k, x in item.items():
                    yield f"{path}[].{k}"
                    yield from patterns(x, f"{path}[].{k}")


runs = [report(W(w), "--config", C(c)) for w, c in (
    ("matmul_reuse.pto", "default.yaml"), ("conv2d_cached.pto", "gpu-sm.yaml"), ("attention_tiled.pto", "npu.yaml"),
    ("layernorm_gelu_fused.pto", "xeon-gold-6248r.yaml"))]
runs.append(report(W("matmul_parallel.pto"), "--set", "core.cores=4", "--set", "caches.L2.inclusion=inclusive",
                   "--set", "caches.L2.size=4KiB", "--set", "caches.L2.ways=4"))
runs.append(report("--trace", trace, "--config", C("tiny.yaml")))
# The insight keys (docs/ATTRIBUTION.md): per line, epochs with heatmap bins, hot spots, leaks.
leaky = write("leaky.pto", 'A = pto.tensor([8, 8], pto.float32, init="ones")\nS = pto.load(A, memory="shared")\n')
runs.append(report(W("matmul_tiled.pto"), "--by-line", "--epoch", "20000", "--heatmap-bins", "4",
                   "--set", "dram.timing=detailed"))
runs.append(report(W("matmul_tiled.pto"), "--epoch-accesses", "50000", "--hot-spots", "3"))
runs.append(report(leaky))
seen = set()
for r in runs:
    seen.update(patterns(r))
missing = sorted(p for p in seen if not listed(p))
check("report_keys_complete: every key is in sim/report/report_keys.cpp", not missing, missing)
for p in ("levels[].back_invalidations", "core.per_core[].accesses", "levels[].channels[].row_hits",
          "program.reuse[].hits", "levels[].fills", "trace.skipped_i", "by_line[].levels[].misses",
          "epochs[].levels[].tensors[].bins[].misses", "heatmap_tensors[].bin_bytes", "hot_spots[].by_misses[].tile",
          "epoch_accesses", "epochs[].footprint[].peak_bytes", "program.leaks[].scope"):
    check(f"key seen in the sample runs: {p}", p in seen or (p == "trace.skipped_i" and "trace.fetches" in seen),
          sorted(x for x in seen if x.startswith(p.split("[")[0]))[:10])

# Metrics that compare across variants (issue 28, item 4). The same 64 bytes
# read as sixteen 4-byte loads or one 64-byte load: the per-request miss rate
# differs (1/16 against 1), the per-byte figures do not.
narrow = write("narrow.din", "".join(f"r {a:x} 4\n" for a in range(0, 64, 4)))
wide = write("wide.din", "r 0 40\n")
rn, rw = report("--trace", narrow), report("--trace", wide)
cache1 = lambda r: next((l for l in r.get("levels", []) if l["kind"] == "cache"), {})
l1n, l1w = cache1(rn), cache1(rw)
check("narrow reads: miss rate 1/16", l1n["miss_rate"] == 1 / 16, l1n["miss_rate"])
check("wide read: miss rate 1", l1w["miss_rate"] == 1.0, l1w["miss_rate"])
check("both consumed 64 B", rn["core"]["access_bytes"] == rw["core"]["access_bytes"] == 64,
      (rn["core"]["access_bytes"], rw["core"]["access_bytes"]))
check("both: one line fetched, byte hit rate 0 and 1 B per byte, whatever the width",
      l1n.get("demand_miss_bytes") == l1w.get("demand_miss_bytes") == 64
      and l1n.get("byte_hit_rate") == l1w.get("byte_hit_rate") == 0.0
      and l1n.get("miss_bytes_per_access_byte") == l1w.get("miss_bytes_per_access_byte") == 1.0, (l1n, l1w))
check("dram_bytes_per_access_byte 1 for both",
      rn["dram_bytes_per_access_byte"] == rw["dram_bytes_per_access_byte"] == 1.0, rn["dram_bytes_per_access_byte"])
# Reading the line four times over: 3 of every 4 bytes consumed were there.
rr = report("--trace", write("reread.din", "r 0 40\n" * 4))
check("four reads of a line: byte hit rate 0.75", cache1(rr).get("byte_hit_rate") == 0.75, cache1(rr))
# Dirty data left at the end: two lines written (one in L1 and L2, counted
# once), what --flush then moves to DRAM.
dirty = write("dirty.din", "w 0 40\nw 1000 40\n")
rd, rf = report("--trace", dirty), report("--trace", dirty, "--flush")
check("dirty_bytes_at_end: two lines, each address once", rd["dirty_bytes_at_end"] == 128, rd["dirty_bytes_at_end"])
check("dirty_lines_at_end per level", cache1(rd).get("dirty_lines_at_end") == 2, cache1(rd))
check("--flush: nothing dirty left", rf["dirty_bytes_at_end"] == 0, rf["dirty_bytes_at_end"])
check("--flush writes exactly those bytes to DRAM", rf["dram_bytes"] - rd["dram_bytes"] == 128,
      (rd["dram_bytes"], rf["dram_bytes"]))
# A program: the 64x64 fp32 C of a tiled matmul is what stays dirty.
pm = report(W("matmul_tiled.pto"))
check("matmul_tiled: C (64x64x4 B) dirty at the end", pm["dirty_bytes_at_end"] == 16384, pm["dirty_bytes_at_end"])

# docs/REPORTS.md's table is the list's.
p = subprocess.run(["bash", os.path.join(src, "scripts", "gen-reports-doc.sh"), "--check", h.pto_sim],
                   capture_output=True, text=True)
check("docs/REPORTS.md key table up to date (scripts/gen-reports-doc.sh)", p.returncode == 0, p.stdout + p.stderr)

h.finish()
