#!/usr/bin/env python3
"""The interrupt soak (issue 29): SIGINT at random moments of run, trace,
trace convert, sweep and compare, each followed by a check that every file
the command left is complete and parseable, or absent. The claim it tests:
an interrupt stops every command at its next safe point and leaves only
complete files (README, "Long runs"; docs/SWEEP.md).

    python3 scripts/soak_interrupts.py BUILD/sim/cli/pto-sim [--count 200] [--seed 1]

Exit 0 when every interrupt left its files whole, 1 otherwise (each failure
printed with its command and delay). What is checked does not depend on
when the signal lands (before the handlers are installed, mid-run, after
the output was renamed into place): a fixed seed replays the same commands
and delays, and the suite runs 20 of them (tests/CMakeLists.txt,
`soak_interrupts`). Every command runs in a temporary folder of its own.
"""
import argparse
import csv
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAIVE = os.path.join(ROOT, "workloads", "matmul_naive.pto")
TINY = os.path.join(ROOT, "configs", "tiny.yaml")


def din_lines(n, seed):
    r = random.Random(seed)
    return "".join(f"{r.choice('rrw')} {r.randrange(1 << 20):x} 4\n" for _ in range(n))


class Soak:
    def __init__(self, pto_sim, work):
        self.pto_sim, self.work = pto_sim, work
        self.env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1", TMPDIR=work)
        self.failures = []
        self.outcomes = {}  # (command, exit status) -> count: where the signals landed
        self.trace = os.path.join(work, "in.din")
        with open(self.trace, "w") as f:
            f.write(din_lines(1500000, 1))
        self.reports = []
        for m in (16, 24):
            out = os.path.join(work, f"r{m}.json")
            subprocess.run([pto_sim, "run", NAIVE, "-D", f"M={m}", "--format", "json", "-o", out], env=self.env,
                           check=True, capture_output=True)
            self.reports.append(out)

    # Each returns (argv, the output files it may leave) for a fresh folder d.
    def commands(self, d):
        return {
            "run trace": ([self.pto_sim, "run", "--trace", self.trace, "--format", "json", "-o",
                           os.path.join(d, "out.json"), "--epoch-accesses", "50000", "--epoch-csv",
                           os.path.join(d, "epochs.csv")], ["out.json", "epochs.csv"]),
            "run program": ([self.pto_sim, "run", NAIVE, "-D", "M=96", "-D", "N=96", "-D", "K=96", "--check-data",
                             "--timeline", os.path.join(d, "tl.json"), "--format", "csv", "-o",
                             os.path.join(d, "out.csv")], ["out.csv", "tl.json"]),
            "trace": ([self.pto_sim, "trace", NAIVE, "-D", "M=160", "-D", "N=160", "-D", "K=160", "-o",
                       os.path.join(d, "out.ptt")], ["out.ptt"]),
            "trace convert": ([self.pto_sim, "trace", "convert", self.trace, os.path.join(d, "out.ptt")], ["out.ptt"]),
            "sweep": ([self.pto_sim, "sweep", NAIVE, "-D", "M=16..96:+16", "-D", "N=48", "-j", "2", "-o",
                       os.path.join(d, "sweep.csv")], ["sweep.csv"]),
            "compare": ([self.pto_sim, "compare", *self.reports, "--allow-different", "--format", "json"], []),
        }

    def fail(self, what, detail):
        self.failures.append(f"{what}: {detail}")
        print(f"FAIL {what}: {str(detail)[:600]}", flush=True)

    def trace_ok(self, path):
        """A trace file pto-sim reads to its end."""
        p = subprocess.run([self.pto_sim, "run", "--trace", path, "--config", TINY, "--format", "csv"],
                           capture_output=True, text=True, env=self.env, timeout=300)
        return p.returncode == 0, p.stderr[-300:]

    def check_files(self, what, name, d, allowed, code, stdout):
        left = sorted(f for f in os.listdir(d) if not f.startswith("pto-sim-sweep-"))
        stray = [f for f in left if f not in allowed]
        if stray:
            self.fail(what, f"files it should not leave: {stray}")
        for f in left:
            path = os.path.join(d, f)
            if f.endswith(".json"):
                try:
                    with open(path) as fh:
                        json.load(fh)
                except ValueError as e:
                    self.fail(what, f"{f} is not whole JSON: {e}")
            elif f.endswith(".csv"):
                with open(path, newline="") as fh:
                    rows = list(csv.reader(fh))
                text = open(path).read()
                if not rows or not text.endswith("\n") or any(len(r) != len(rows[0]) for r in rows):
                    self.fail(what, f"{f} is not a whole CSV ({len(rows)} rows)")
            elif f.endswith(".ptt"):
                ok, err = self.trace_ok(path)
                if not ok:
                    self.fail(what, f"{f} does not read to its end: {err}")
        if name == "compare" and code == 0:
            try:
                json.loads(stdout)
            except ValueError as e:
                self.fail(what, f"exit 0 with a broken table: {e}")
        if name == "sweep" and "sweep.csv" in left:
            # Resuming finishes the interrupted sweep: every point once, all ok.
            argv = self.commands(d)["sweep"][0]
            p = subprocess.run(argv, capture_output=True, text=True, env=self.env, timeout=600)
            with open(os.path.join(d, "sweep.csv"), newline="") as fh:
                rows = list(csv.reader(fh))
            points = [r[0] for r in rows[1:]]
            if p.returncode != 0 or len(points) != 6 or len(set(points)) != 6 or any(r[1] != "ok" for r in rows[1:]):
                self.fail(what, f"resume: exit {p.returncode}, points {points}, {p.stderr[-300:]}")

    def one(self, i, rng):
        names = list(self.commands("/"))
        name = names[i % len(names)] if i < len(names) else rng.choice(names)
        delay = rng.uniform(0.0, {"compare": 0.2, "sweep": 3.0}.get(name, 1.0))
        d = tempfile.mkdtemp(dir=self.work, prefix=f"{i:03d}-")
        argv, allowed = self.commands(d)[name]
        what = f"#{i} {name} after {delay:.2f} s"
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env, cwd=d)
        time.sleep(delay)
        p.send_signal(signal.SIGINT)
        try:
            out, err = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            self.fail(what, "still running 120 s after SIGINT")
            return
        # 0: done before the signal; 130: stopped by it; -2: it came before
        # the handlers were installed (nothing was written yet).
        key = f"{name}: {p.returncode}"
        self.outcomes[key] = self.outcomes.get(key, 0) + 1
        if p.returncode not in (0, 130, -signal.SIGINT):
            self.fail(what, f"exit {p.returncode}: {err[-400:]}")
        self.check_files(what, name, d, allowed, p.returncode, out)
        shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pto_sim")
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="pto-sim-soak-")
    try:
        soak = Soak(os.path.abspath(a.pto_sim), work)
        rng = random.Random(a.seed)
        start = time.time()
        for i in range(a.count):
            soak.one(i, rng)
        leftover = [f for f in os.listdir(work) if f.startswith("pto-sim-sweep-")]
        print(f"{a.count} interrupts in {time.time() - start:.0f} s, {len(soak.failures)} failed"
              + (f"; sweep folders left by interrupted sweeps: {len(leftover)}" if leftover else ""))
        print("exit statuses: " + ", ".join(f"{k} x{v}" for k, v in sorted(soak.outcomes.items())))
        return 1 if soak.failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
