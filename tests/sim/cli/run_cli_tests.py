#!/usr/bin/env python3
"""End-to-end tests of the pto-sim binary: exact counts, formats, errors.

usage: run_cli_tests.py PTO_SIM SOURCE_DIR
Prints one line per failure and a closing "N passed, N failed" line.
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

from harness import Harness, level

H = Harness("pto-sim-cli-")
PTO_SIM, SRC, ENV, tmp = H.pto_sim, H.src, H.env, H.tmp
run, check, write = H.run, H.check, H.write


TINY = os.path.join(SRC, "configs", "tiny.yaml")


# A hand-computed trace on configs/tiny.yaml (L1: 4 sets x 2 ways x 32 B,
# L2: 4 sets x 4 ways x 64 B).
TRACE = """\
# comment lines and blank lines are skipped

r 0 4
r 4 4
r 0x14 4
w 40 4
r 100 4
r 200 4
r 0 4
"""
trace = write("hand.din", TRACE)

code, out, err = run("run", "--trace", trace, "--config", TINY, "--format", "json")
check("json run exits 0", code == 0, err)
rep = json.loads(out) if code == 0 else {}
if rep:
    check("schema_version", rep.get("schema_version") == 2)
    for key in ("config", "source", "cycles", "seconds", "levels"):
        check(f"top-level key {key}", key in rep)
    check("levels in hierarchy order", [l["name"] for l in rep["levels"] if l["kind"] in ("cache", "dram")] == ["L1", "L2", "DRAM"],
          [l["name"] for l in rep["levels"]])
    l1 = level(rep, "L1")
    expect = dict(reads=6, writes=1, read_hits=2, write_hits=0, read_misses=4, write_misses=1, evictions=2, writebacks=0,
                  bytes_read=24, bytes_written=4, compulsory_misses=4, capacity_misses=0, conflict_misses=1)
    for k, v in expect.items():
        check(f"L1 {k}", l1[k] == v, f"{l1[k]} != {v}")
    check("L1 miss_rate", abs(l1["miss_rate"] - 5 / 7) < 1e-12, l1["miss_rate"])
    l2 = level(rep, "L2")
    for k, v in dict(reads=5, writes=0, read_hits=1, read_misses=4, bytes_read=160).items():
        check(f"L2 {k}", l2[k] == v, f"{l2[k]} != {v}")
    dram = level(rep, "DRAM")
    for k, v in dict(reads=4, writes=0, bytes_read=256).items():
        check(f"DRAM {k}", dram[k] == v, f"{dram[k]} != {v}")
    for k in ("name", "kind", "reads", "writes", "read_hits", "write_hits", "read_misses", "write_misses", "miss_rate",
              "evictions", "writebacks", "bytes_read", "bytes_written", "compulsory_misses", "capacity_misses",
              "conflict_misses"):
        check(f"level key {k}", all(k in l for l in rep["levels"]))
    check("cycles positive", rep["cycles"] > 0)

code, out, err = run("run", "--trace", trace, "--config", TINY, "--format", "json", "--flush")
rep = json.loads(out) if code == 0 else {}
if rep:
    check("flush: L1 writeback", level(rep, "L1")["writebacks"] == 1)
    check("flush: L2 write hit", level(rep, "L2")["write_hits"] == 1)
    check("flush: DRAM write", level(rep, "DRAM")["writes"] == 1 and level(rep, "DRAM")["bytes_written"] == 64)

# stdin, text and csv
code, out, err = run("run", "--trace", "-", "--config", TINY, stdin=TRACE)
check("stdin text run", code == 0 and "L1 (cache)" in out and "misses by cause: compulsory 4, capacity 0, conflict 1" in out, out + err)
check("text fits 80 columns", all(len(line) <= 80 for line in out.splitlines()), max(map(len, out.splitlines() or [""])))
code, out, err = run("run", "--trace", trace, "--config", TINY, "--format", "csv")
rows = list(csv.DictReader(io.StringIO(out)))
check("csv one row per level", [r["level"] for r in rows if r["kind"] in ("cache", "dram")] == ["L1", "L2", "DRAM"], out)
check("csv counts", rows and next(r for r in rows if r["level"] == "L1")["read_misses"] == "4", out)

# -o writes the file; a failing run leaves none
outfile = os.path.join(tmp, "report.json")
code, out, err = run("run", "--trace", trace, "--config", TINY, "--format", "json", "-o", outfile)
check("-o writes file", code == 0 and json.load(open(outfile))["schema_version"] == 2 and out == "", err)
bad = write("bad.din", "r 0 4\nr zz 4\n")
outfile2 = os.path.join(tmp, "never.json")
code, out, err = run("run", "--trace", bad, "--config", TINY, "-o", outfile2)
check("bad trace exits 2", code == 2, (code, err))
check("bad trace message", err.strip() == f"{bad}:2:3: expected a hexadecimal address, got 'zz'", err)
check("no partial output", not os.path.exists(outfile2) and not any(f.startswith("never.json") for f in os.listdir(tmp)))

# malformed trace lines
for text, msg in [("r\n", "1:2: missing address"), ("r 10 4x\n", "1:6: expected a hexadecimal size, got '4x'"),
                  ("r 10 0\n", "1:6: size must be positive"),
                  ("r 10 4\n? 10\n", "2:1: bad access type '?' (expected r, w, i, m, c or v)"),
                  ("r 11112222333344445 4\n", "1:3: address has more than 64 bits")]:
    p = write("m.din", text)
    code, out, err = run("run", "--trace", p, "--config", TINY)
    check(f"malformed {text!r}", code == 2 and err.strip() == f"{p}:{msg}", (code, err))

# sizes a cache could never split, and a trace that does not fit its config
for text, msg in [("r 0 ffffffffffffffff\n", "1:5: size larger than one access may be (1 GiB)"),
                  ("r ffffffffffffffff 2\n", "1:3: the access runs past the end of the 64-bit address space")]:
    p = write("m.din", text)
    code, out, err = run("run", "--trace", p, "--config", TINY)
    check(f"refused {text!r}", code == 2 and err.strip() == f"{p}:{msg}", (code, err))
ro = write("ro.yaml", "memories: [{name: constant}]\ncaches: [{size: 1 KiB, ways: 2, line: 64 B}]\nspaces: {global: constant}\n")
p = write("m.din", "r 10 4\nw 20 4\n")
code, out, err = run("run", "--trace", p, "--config", ro)
check("a write where global is read-only", code == 2 and err.strip() == f"{p}:2:1: write to the read-only space 'global'",
      (code, err))

# Dinero IV's record types: misc is a read, copyback and invalidate are no
# accesses; text after the size is ignored; other types are counted and skipped
p = write("types.din", "r 0 4\nm 40 4\nm 80\nc 0\n2 100 4\ti5\nx 10 4\n")
code, out, err = run("run", "--trace", p, "--config", TINY, "--format", "json")
rep = json.loads(out)
check("dinero types counted", rep["trace"]["misc"] == 2 and rep["trace"]["copybacks"] == 1
      and rep["trace"]["skipped_x"] == 1, rep.get("trace"))
check("fetch and misc are reads", rep["trace"]["fetches"] == 1 and level(rep, "L1")["reads"] == 4, out)

# trace convert round trip: identical statistics
native = os.path.join(tmp, "hand.ptt")
din2 = os.path.join(tmp, "back.din")
code, _, err = run("trace", "convert", trace, native)
check("convert to native", code == 0 and open(native, "rb").read(8) == b"PTOTRACE", err)
code, _, err = run("trace", "convert", native, din2)
check("convert back to din", code == 0, err)
reports = []
for t in (trace, native, din2):
    code, out, err = run("run", "--trace", t, "--config", TINY, "--format", "json")
    r = json.loads(out)
    reports.append([{k: v for k, v in l.items()} for l in r["levels"]])
check("native and din replay identically", reports[0] == reports[1] == reports[2])
check("native is compact", os.path.getsize(native) < os.path.getsize(trace))

# config show and config errors
code, out, err = run("config", "show")
check("config show default", code == 0 and "name: default" in out and "replacement: lru" in out, err)
code, out, err = run("config", "show", TINY)
check("config show file", code == 0 and "name: tiny" in out and "write_policy: write_back" in out, err)
badcfg = write("bad.yaml", "caches:\n  - {name: L1, size: 32 KiB, ways: 8, line: 64 B, colour: red}\n")
code, out, err = run("run", "--trace", trace, "--config", badcfg)
check("unknown key exit 2", code == 2 and err.strip() == f"{badcfg}:2: caches[0].colour: unknown key", (code, err))
code, out, err = run("config", "show", "/nonexistent.yaml")
check("missing config exit 2", code == 2 and "cannot open config file" in err, (code, err))

# directories are not inputs
for args, msg in [(["run", "--trace", tmp], f"{tmp}: cannot read trace file (is it a directory?)"),
                  (["config", "show", tmp], f"{tmp}: cannot open config file: it is a directory"),
                  (["run", tmp], f"{tmp}: cannot open program file: it is a directory")]:
    code, out, err = run(*args)
    check(f"directory {args[:2]}", code == 2 and out == "" and err.strip() == msg, (code, out[:200], err))

# CLI flag errors
for args in (["run", "--trace", trace, "--format", "xml"], ["run", "--bogus"], ["nosuch"], ["run"],
             ["run", "--trace", "/nonexistent.din"]):
    code, out, err = run(*args)
    check(f"bad CLI {args}", code == 2 and err.strip() != "", (code, err))

# Prefetching: keys only at a level that prefetches, in JSON, CSV and text.
pf_cfg = write("pf.yaml", "caches: [{name: L1, size: 512 B, ways: 2, line: 64 B, prefetcher: miss}]\n")
pf_trace = write("pf.din", "r 0 4\nr 40 4\nr 100 4\n")  # miss (fetches line 1 too), hit on line 1, miss
code, out, err = run("run", "--trace", pf_trace, "--config", pf_cfg, "--format", "json")
rep = json.loads(out) if code == 0 else {}
if check("prefetch run", code == 0, err):
    l1 = level(rep, "L1")
    for k, v in dict(reads=3, read_hits=1, read_misses=2, compulsory_misses=2, prefetch_requests=2,
                     prefetches_issued=2, prefetch_useful=1, prefetch_late=1, prefetch_useless=0,
                     prefetch_bytes=128).items():
        check(f"prefetch L1 {k}", l1.get(k) == v, f"{l1.get(k)} != {v}")
    check("prefetch fills reach DRAM as reads", level(rep, "DRAM")["reads"] == 4, level(rep, "DRAM"))
code, out, err = run("run", "--trace", trace, "--config", TINY, "--format", "json")
check("no prefetch keys without a prefetcher", code == 0 and not any("prefetch" in k for l in json.loads(out)["levels"] for k in l))
code, out, err = run("run", "--trace", pf_trace, "--config", pf_cfg, "--format", "csv")
rows = list(csv.DictReader(io.StringIO(out)))
check("prefetch csv column", code == 0 and next(r for r in rows if r["level"] == "L1")["prefetches_issued"] == "2", out)
code, out, err = run("run", "--trace", pf_trace, "--config", pf_cfg)
check("prefetch text line", "prefetches: issued 2 of 2, useful 1, late 1, useless 0, bytes 128" in out, out)
bad_pf = write("badpf.yaml", "caches:\n  - {name: L1, size: 512 B, ways: 2, line: 64 B, prefetcher: forward}\n")
never = os.path.join(tmp, "never_pf.json")
code, out, err = run("run", "--trace", pf_trace, "--config", bad_pf, "-o", never)
check("unknown prefetcher exits 2", code == 2 and not os.path.exists(never) and err.strip() ==
      f"{bad_pf}:2: caches[0].prefetcher: 'forward' is not one of " + H.listing("prefetcher"), (code, err))
# Bad sub-block sizes and a load_forward / subblock distance beyond the line: errors at the key, exit 2, no output.
for i, (keys, want) in enumerate([
        ("subblock: 24 B", "caches[0].subblock: sub-block size 24 B is not a power of two"),
        ("subblock: 128 B", "caches[0].subblock: sub-block size 128 B is larger than the line (64 B)"),
        ("subblock: 1 B", "caches[0].subblock: sub-block size 1 B makes 64 sub-blocks per line; at most 32 (one valid "
                          "bit each, as Dinero IV)"),
        ("subblock: 0 B", "caches[0].subblock: sub-block size 0 B is not a power of two"),
        ("subblock: 16 B, prefetcher: load_forward, prefetch_distance: 5",
         "caches[0].prefetch_distance: prefetcher load_forward prefetches within a line: prefetch_distance 5 is more "
         "than the 4 sub-block(s) per line (set subblock:)"),
        ("prefetcher: subblock, prefetch_distance: 2",
         "caches[0].prefetch_distance: prefetcher subblock prefetches within a line: prefetch_distance 2 is more "
         "than the 1 sub-block(s) per line (set subblock:)")]):
    bad_sb = write(f"badsb{i}.yaml", "caches:\n  - {name: L1, size: 512 B, ways: 2, line: 64 B, " + keys + "}\n")
    code, out, err = run("run", "--trace", pf_trace, "--config", bad_sb, "-o", never)
    check(f"bad sub-block config {i} exits 2 at the key", code == 2 and not os.path.exists(never) and
          err.strip() == f"{bad_sb}:2: {want}", (code, err))
sb_cfg = write("sb.yaml", "caches:\n  - {name: L1, size: 512 B, ways: 2, line: 64 B, subblock: 16 B}\n")
code, out, err = run("run", "--trace", pf_trace, "--config", sb_cfg, "--check-data", "-o", never)
check("sub-blocks with --check-data exit 2", code == 2 and not os.path.exists(never) and err.strip() ==
      f"{sb_cfg}:2: subblock: cache L1: --check-data does not model sub-blocks (drop subblock: or --check-data)",
      (code, err))
code, out, err = run("run", "--trace", pf_trace, "--config", sb_cfg, "--format", "json")
l1 = json.loads(out)["levels"][0] if code == 0 else {}
check("block-miss keys at a level with sub-blocks", code == 0 and l1.get("block_misses", -1) <= l1["read_misses"] +
      l1["write_misses"] and "compulsory_block_misses" in l1, (code, err))

H.finish()
