#!/usr/bin/env python3
"""bench/floor_model must count exactly what pto-sim counts, or the speed
floor the benchmark prints is not the floor of the same work.

usage: floor_model_test.py PTO_SIM FLOOR_MODEL GEN_MATMUL_TRACE SOURCE_DIR
"""
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(sys.argv[4], "bench"))
from run_benchmarks import ENV, floor_counts  # noqa: E402


def random_trace(path):
    """Reads and writes, some straddling a line, over 1 MiB (L2 evicts and writes back)."""
    rng = random.Random(7)
    with open(path, "w") as f:
        for _ in range(60000):
            hot = rng.random() < 0.5
            addr = rng.randrange(0, 48 << 10) if hot else rng.randrange(0, 1 << 20)
            size = rng.choice((1, 4, 8, 16, 64))
            f.write(f"{rng.choice('rrrw')} {addr:x} {size:x}\n")


def main():
    pto_sim, floor, gen = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        traces = [os.path.join(tmp, "matmul128.din"), os.path.join(tmp, "random.din")]
        with open(traces[0], "w") as f:
            subprocess.run([gen, "128"], stdout=f, check=True)
        random_trace(traces[1])
        for t in traces:
            p = subprocess.run([pto_sim, "run", "--trace", t, "--format", "json"], capture_output=True, text=True, env=ENV)
            if p.returncode != 0:
                sys.exit(f"pto-sim failed on {t}: {p.stderr}")
            report = json.loads(p.stdout)
            f = floor_counts(floor, t, report)
            l1, l2 = f["levels"]
            exercised = l1["read_misses"] and l1["conflict_misses"] and l1["capacity_misses"]
            if t.endswith("random.din"):
                exercised = exercised and l1["writebacks"] and l2["evictions"] and l2["writebacks"]
            if not exercised:
                sys.exit(f"{t}: the trace does not exercise the misses and writebacks it is here for: {f}")
            print(f"{os.path.basename(t)}: {f['accesses']} line requests, counts equal")


if __name__ == "__main__":
    main()
