#!/usr/bin/env python3
"""pto-sim's counts on every prefetcher case (cases.py) against the Dinero IV
counts recorded in golden.json: per level, demand fetches and misses by
read/write, the three Cs, prefetch fetches and misses, and the bytes the
level sends to and gets from the level below (with --flush, as Dinero IV
writes dirty blocks back at the end).

usage: check_golden.py PTO_SIM
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402

ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def main():
    pto_sim = sys.argv[1]
    with open(os.path.join(HERE, "golden.json")) as f:
        golden = json.load(f)
    names = [c[0] for c in cases.CASES]
    if sorted(names) != sorted(golden):
        sys.exit("golden.json does not hold exactly the cases of cases.py: run record_golden.py")
    failures = 0
    with tempfile.TemporaryDirectory(prefix="pto-sim-pf-check-") as tmp:
        for trace in cases.TRACES:
            cases.write_trace(trace, os.path.join(tmp, trace + ".din"))
        for i, (name, trace, levels) in enumerate(cases.CASES):
            cfg = os.path.join(tmp, f"case{i}.yaml")
            with open(cfg, "w") as f:
                f.write(cases.config_yaml(levels))
            p = subprocess.run([pto_sim, "run", "--trace", os.path.join(tmp, trace + ".din"), "--config", cfg,
                                "--flush", "--format", "json"], capture_output=True, text=True, env=ENV)
            if p.returncode != 0:
                print(f"{name}: pto-sim exited {p.returncode}: {p.stderr}")
                failures += 1
                continue
            got = cases.pto_counts(json.loads(p.stdout), len(levels))
            want = golden[name]["counts"]
            if got != want:
                failures += 1
                print(f"{name} ({golden[name]['dinero_args']}):")
                for lv in want:
                    diff = {k: (want[lv][k], got.get(lv, {}).get(k)) for k in want[lv] if want[lv][k] != got.get(lv, {}).get(k)}
                    if diff:
                        print(f"  {lv}: (Dinero IV, pto-sim) {diff}")
    print(f"{len(names) - failures} of {len(names)} prefetcher cases equal Dinero IV's counts")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
