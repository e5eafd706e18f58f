#!/usr/bin/env python3
"""Records Dinero IV's counts for every prefetcher case (cases.py) into
golden.json, the file the test suite checks pto-sim against.

usage: record_golden.py DINERO [OUT.json]

DINERO is a dineroIV binary built from Dinero IV's d4-7 sources, which are
not part of this project (their licence forbids redistribution): only the
counts, facts about the traces, are committed.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    dinero = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden.json")
    golden = {}
    with tempfile.TemporaryDirectory(prefix="pto-sim-pf-golden-") as tmp:
        for trace in cases.TRACES:
            cases.write_trace(trace, os.path.join(tmp, trace + ".din"))
        for name, trace, levels in cases.CASES:
            with open(os.path.join(tmp, trace + ".din")) as f:
                p = subprocess.run([dinero, *cases.dinero_args(levels)], stdin=f, capture_output=True, text=True)
            if p.returncode != 0:
                sys.exit(f"{name}: Dinero IV exited {p.returncode}: {p.stderr}")
            golden[name] = {"dinero_args": " ".join(cases.dinero_args(levels)), "counts": cases.dinero_counts(p.stdout)}
    with open(out, "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{len(golden)} cases written to {out}")


if __name__ == "__main__":
    main()
