#!/usr/bin/env python3
"""Records Dinero IV's counts for the differential suite's cases.

usage: dinero_golden.py DINERO [-o FILE] [-j JOBS] [--check PTO_SIM]

DINERO is a dineroIV binary or a Dinero IV d4-7 source tree (then it is
built in a temporary copy: ./configure && make). Dinero IV is not part of
this project (its licence forbids redistribution); what it counts is a fact,
and those facts are what this script writes: for every case of
scripts/dinero_cases.py (a seeded trace on a hierarchy), per cache level,
[reads, writes, read misses, write misses, bytes from below, bytes to
below, compulsory, capacity, conflict] (and at a level with sub-blocks,
whose misses are sub-block misses: block misses, compulsory, capacity and
conflict block misses), once before
Dinero IV's end-of-run copyback (its -stat-interval report after the last
record: pto-sim without --flush) and once after it (its final report:
pto-sim with --flush). Default output: tests/golden/dinero/cases.json,
which tests/golden/dinero_test.py checks pto-sim against.

With --check PTO_SIM it also runs pto-sim on every case and prints the
differences (what the test does, without needing the golden file).
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import dinero_cases as dc  # noqa: E402
from dinero_common import ENV, build_dinero, die, level_counts, parse_report, run_dinero, tmpdir  # noqa: E402

DEFAULT_OUT = os.path.join(HERE, "..", "tests", "golden", "dinero", "cases.json")
FIELDS = ["reads", "writes", "read_misses", "write_misses", "bytes_from_below", "bytes_to_below",
          "compulsory", "capacity", "conflict", "block_misses", "compulsory_blocks", "capacity_blocks",
          "conflict_blocks"]


def record_case(binary, tmp, case):
    name, kind, seed, n, levels = case
    text = dc.trace_text(kind, seed, n)
    path = os.path.join(tmp, name.replace("/", "_") + ".din")
    with open(path, "w") as f:
        f.write(text)
    records = text.count("\n")
    args = ["-informat", "D", *dc.dinero_args(levels), "-stat-interval", str(records)]
    blocks = parse_report(run_dinero(binary, args, path))
    os.unlink(path)
    if len(blocks) != 2:
        die(f"{name}: expected 2 reports from Dinero IV (after the last record, after the copyback), got {len(blocks)}")
    ccc = [True for _ in levels]
    out = {}
    for when, block in zip(("before_flush", "after_flush"), blocks):
        out[when] = [level_counts(block[f"L{i}"], c) for i, c in enumerate(ccc, 1)]
    return {"name": name, "trace": kind, "seed": seed, "records": n, "levels": levels,
            "dinero_args": " ".join(dc.dinero_args(levels)), **out}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dinero")
    ap.add_argument("-o", "--output", default=DEFAULT_OUT)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--check", metavar="PTO_SIM", help="also compare pto-sim's counts on every case")
    a = ap.parse_args()
    with tmpdir("pto-sim-dinero-golden-") as tmp:
        binary, _ = build_dinero(a.dinero, tmp)
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            results = list(ex.map(lambda c: record_case(binary, tmp, c), dc.CASES))
        with open(os.devnull) as null:
            banner = subprocess.run([binary, "-informat", "D", "-l1-usize", "1k", "-l1-ubsize", "16"], stdin=null,
                                    capture_output=True, text=True, env=ENV).stdout.splitlines()
        version = next((l.strip("- ") for l in banner if "version" in l), "Dinero IV")
    golden = {
        "about": "Dinero IV's counts on the cases of scripts/dinero_cases.py, recorded by scripts/dinero_golden.py. "
                 "Per case and cache level (L1 first): " + ", ".join(FIELDS[:9]) + " (Dinero IV ran with -lN-uccc), "
                 "and at a level with sub-blocks (levels[].sb) " + ", ".join(FIELDS[9:]) + ". "
                 "before_flush: after the last record (pto-sim run without --flush); "
                 "after_flush: after Dinero IV's end-of-run copyback (pto-sim run --flush).",
        "dinero": version,
        "fields": FIELDS,
        "cases": results,
    }
    os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
    with open(a.output, "w") as f:
        # One case per line: small diffs when a case changes.
        f.write("{\n")
        for k in ("about", "dinero", "fields"):
            f.write(f"  {json.dumps(k)}: {json.dumps(golden[k])},\n")
        f.write('  "cases": [\n')
        f.write(",\n".join("    " + json.dumps(c, separators=(",", ":")) for c in results))
        f.write("\n  ]\n}\n")
    print(f"dinero_golden: {len(results)} cases recorded in {a.output}")
    if a.check:
        sys.path.insert(0, os.path.join(HERE, "..", "tests", "golden"))
        import dinero_test  # noqa: E402
        sys.exit(dinero_test.check_all(a.check, a.output, a.jobs))


if __name__ == "__main__":
    main()
