#!/usr/bin/env python3
"""Regression check of the shipped workloads on the shipped configs: each
run must match its baseline in tests/golden/ exactly (`pto-sim compare
--baseline`), each pair listed in INFEASIBLE.txt must still fail the same
way, and every workload x config pair must be one or the other. After an
intended change: scripts/refresh-golden.sh, then review the diff.
Usage: check_golden.py PTO_SIM SOURCE_DIR"""
import concurrent.futures
import glob
import os
import shutil
import subprocess
import sys
import tempfile

pto_sim, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
run_flags = sys.argv[3:]
golden = os.path.join(src, "tests", "golden")
tmp = tempfile.mkdtemp(prefix="ptosim-golden-")
env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
failures = []

pairs = [(os.path.basename(w)[:-4], os.path.basename(c)[:-5])
         for w in sorted(glob.glob(os.path.join(src, "workloads", "*.pto")))
         for c in sorted(glob.glob(os.path.join(src, "configs", "*.yaml")))]
infeasible = {}
for line in open(os.path.join(golden, "INFEASIBLE.txt")):
    if line.strip() and not line.startswith("#"):
        name, msg = line.rstrip("\n").split(": ", 1)
        infeasible[name] = msg


def one(pair):
    w, c = pair
    name = f"{w}__{c}"
    out = os.path.join(tmp, name + ".json")
    # Relative paths from the source root, as scripts/refresh-golden.sh runs them.
    p = subprocess.run([pto_sim, "run", f"workloads/{w}.pto", "--config", f"configs/{c}.yaml", "--format", "json",
                        "-o", out, *run_flags], cwd=src, capture_output=True, text=True, env=env)
    if name in infeasible:
        first = (p.stderr.splitlines() or [""])[0]
        if p.returncode != 2 or first != infeasible[name]:
            return f"{name}: listed as infeasible ({infeasible[name]}) but exited {p.returncode}: {first}"
        return None
    base = os.path.join(golden, name + ".json")
    if not os.path.exists(base):
        return f"{name}: no baseline (run scripts/refresh-golden.sh and review the new file)"
    if p.returncode != 0:
        return f"{name}: exited {p.returncode}: {p.stderr.strip()[:500]}"
    q = subprocess.run([pto_sim, "compare", "--baseline", base, out], capture_output=True, text=True, env=env)
    if q.returncode != 0:
        return f"{name}: {q.stdout.strip()[:3000]}{q.stderr.strip()[:500]}"
    return None


with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
    for r in pool.map(one, pairs):
        if r:
            failures.append(r)
stale = sorted(set(os.path.basename(g)[:-5] for g in glob.glob(os.path.join(golden, "*.json"))) -
               set(f"{w}__{c}" for w, c in pairs))
for s in stale:
    failures.append(f"{s}: a baseline for a workload or config that no longer exists (scripts/refresh-golden.sh)")
shutil.rmtree(tmp, ignore_errors=True)
for f in failures:
    print("FAIL", f)
print(f"{len(pairs) - len(failures)} passed, {len(failures)} failed "
      f"({len(pairs) - len(infeasible)} baselines, {len(infeasible)} infeasible pairs)")
sys.exit(1 if failures else 0)
