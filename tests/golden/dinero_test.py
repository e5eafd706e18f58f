#!/usr/bin/env python3
"""pto-sim against Dinero IV's recorded counts (tests/golden/dinero/cases.json).

usage: dinero_test.py PTO_SIM [GOLDEN] [-j JOBS]

For every case the trace is regenerated from its seed (scripts/dinero_cases.py),
pto-sim runs it on the same hierarchy with and without --flush, and every
level's reads, writes, read and write misses, bytes from and to the level
below and the 3C split (and at a level with sub-blocks its block misses and
their 3C split) must equal what Dinero IV counted after the
last record and after its end-of-run copyback. Exit status 1 on any
difference, listing each with both numbers.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import dinero_cases as dc  # noqa: E402
from dinero_common import ENV, pto_counts  # noqa: E402

DEFAULT_GOLDEN = os.path.join(HERE, "dinero", "cases.json")
# The counts of a level, in order (the last four only at a level with sub-blocks).
FIELDS = ("reads", "writes", "read_misses", "write_misses", "bytes_from_below", "bytes_to_below", "compulsory",
          "capacity", "conflict", "block_misses", "compulsory_blocks", "capacity_blocks", "conflict_blocks")


def run_case(pto_sim, tmp, case):
    """Differences (strings) between pto-sim and the recorded counts of one case."""
    name = case["name"]
    stem = os.path.join(tmp, name.replace("/", "_"))
    with open(stem + ".din", "w") as f:
        f.write(dc.trace_text(case["trace"], case["seed"], case["records"]))
    with open(stem + ".yaml", "w") as f:
        f.write(dc.pto_config(case["levels"]))
    names = [f"L{i}" for i in range(1, len(case["levels"]) + 1)]
    ccc = [True for _ in case["levels"]]
    diffs = []
    for when, flags in (("before_flush", []), ("after_flush", ["--flush"])):
        p = subprocess.run([pto_sim, "run", "--trace", stem + ".din", "--config", stem + ".yaml", "--format", "json",
                            *flags], capture_output=True, text=True, env=ENV)
        if p.returncode != 0:
            return [f"{name}: pto-sim exited {p.returncode}: {p.stderr.strip()}"]
        got = pto_counts(json.loads(p.stdout), names, ccc)
        for lv, g, want in zip(names, got, case[when]):
            if len(g) != len(want):
                diffs.append(f"{name} {when} {lv}: pto-sim reports {len(g)} counts, Dinero IV {len(want)}")
                continue
            for field, x, y in zip(FIELDS, g, want):
                if x != y:
                    diffs.append(f"{name} {when} {lv} {field}: pto-sim {x}, Dinero IV {y}")
    for ext in (".din", ".yaml"):
        os.unlink(stem + ext)
    return diffs


def check_all(pto_sim, golden_path, jobs):
    with open(golden_path) as f:
        golden = json.load(f)
    cases = golden["cases"]
    # The recorded cases must be the generator's: a changed generator needs new goldens.
    want = [(n, k, s, r, l) for n, k, s, r, l in dc.CASES]
    have = [(c["name"], c["trace"], c["seed"], c["records"], c["levels"]) for c in cases]
    if want != have:
        print(f"dinero_test: {golden_path} does not hold the cases of scripts/dinero_cases.py "
              "(record them again: scripts/dinero_golden.py DINERO)")
        return 1
    with tempfile.TemporaryDirectory(prefix="pto-sim-dinero-test-") as tmp:
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            results = list(ex.map(lambda c: run_case(pto_sim, tmp, c), cases))
    diffs = [d for r in results for d in r]
    bad = sum(1 for r in results if r)
    for d in diffs[:200]:
        print(d)
    if len(diffs) > 200:
        print(f"... and {len(diffs) - 200} more differences")
    print(f"dinero_test: {len(cases) - bad} of {len(cases)} cases equal Dinero IV's counts "
          f"({golden['dinero']}), {bad} differ")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pto_sim")
    ap.add_argument("golden", nargs="?", default=DEFAULT_GOLDEN)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args()
    sys.exit(check_all(a.pto_sim, a.golden, a.jobs))


if __name__ == "__main__":
    main()
