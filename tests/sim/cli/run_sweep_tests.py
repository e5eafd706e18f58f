#!/usr/bin/env python3
"""End-to-end tests of `pto-sim sweep`: the cross product and its rows,
failing and invalid points, resume, Ctrl-C, the progress bar, sweep files,
--best, and the --emit-jobs path through GNU parallel and through the Slurm
template (array tasks run by hand: no Slurm in CI) back into --merge.
Usage: run_sweep_tests.py PTO_SIM SOURCE_DIR"""
import csv
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Harness

h = Harness("ptosim-sweep-")
check, run, write = h.check, h.run, h.write
src = h.src
TILED = os.path.join(src, "workloads", "matmul_tiled.pto")
NAIVE = os.path.join(src, "workloads", "matmul_naive.pto")
DEFAULT, TINY = os.path.join(src, "configs", "default.yaml"), os.path.join(src, "configs", "tiny.yaml")
T = lambda name: os.path.join(h.tmp, name)


def rows_of(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# The cross product: 2 configs x 2 L1 sizes x 2 TM x 3 TN = 24 points.
out = T("r.csv")
code, _, err = run("sweep", TILED, "-D", "TM=16,32", "-D", "TN=16..64:x2", "--set", "caches.L1.size=16KiB,1KiB",
                   "--config", f"{DEFAULT},{TINY}", "-j", "2", "-o", out)
check("sweep exit 1 (some points infeasible)", code == 1, (code, err))
rows = rows_of(out) if os.path.exists(out) else []
check("24 rows", len(rows) == 24, len(rows))
want = {(c, s, str(m), str(n)) for c in (DEFAULT, TINY) for s in ("16KiB", "1KiB") for m in (16, 32) for n in (16, 32, 64)}
axes = lambda r: (r["config_file"], r["set.caches.L1.size"], r["param.TM"], r["param.TN"])
check("one row per point of the cross product", {axes(r) for r in rows} == want and len({r["point"] for r in rows}) == 24,
      sorted({axes(r) for r in rows} ^ want)[:5])
# The point is named by the resolved config's hash and every parameter's value.
valid = [r for r in rows if r["config_hash"]]
check("point = config hash and every parameter", valid and all(
    r["point"] == f"config={r['config_hash']} M=64 N=64 K=64 TM={r['param.TM']} TN={r['param.TN']} TK=32" for r in valid),
      [r["point"] for r in rows][:3])
by = {axes(r): r for r in rows}
ok = [r for r in rows if r["status"] == "ok"]
check("all default-config points ok", all(r["status"] == "ok" for r in rows if r["config_file"] == DEFAULT),
      [(r["point"], r["error"]) for r in rows if r["config_file"] == DEFAULT and r["status"] != "ok"])
inf = [r for r in rows if r["status"] == "infeasible"]
check("tiny: 10 infeasible points, said why", len(inf) == 10 and all("cannot allocate" in r["error"] for r in inf),
      [(r["point"], r["status"], r["error"]) for r in rows if r["config_file"] == TINY])
check("param columns hold every parameter", all(r["param.K"] == "64" and r["param.TM"] in ("16", "32") for r in ok))
check("integer cycles", all(r["cycles"].isdigit() for r in ok), [r["cycles"] for r in ok][:3])
# A row has the figures of the same point run directly.
p = (DEFAULT, "1KiB", "32", "64")
code, direct, err = run("run", TILED, "-D", "TM=32", "-D", "TN=64", "--config", DEFAULT, "--set", "caches.L1.size=1KiB",
                        "--format", "csv")
drow = next(csv.DictReader(direct.splitlines()))
check("row = direct run (cycles)", by.get(p, {}).get("cycles") == drow["cycles"], (by.get(p, {}).get("cycles"), drow["cycles"]))
l1 = [r for r in csv.DictReader(direct.splitlines()) if r["level"] == "L1"][0]
check("row = direct run (L1 misses)", by.get(p, {}).get("L1.read_misses") == l1["read_misses"])

# --precheck: the same rows; the infeasible ones found by the functional run, not simulated.
o = T("pre.csv")
code, _, err = run("sweep", TILED, "-D", "TM=16,32", "-D", "TN=16..64:x2", "--config", TINY, "--precheck", "-o", o)
pre = {x["point"]: x for x in rows_of(o)}
tiny = {k: v for k, v in by.items() if v["config_file"] == TINY and "set.caches.L1.size=16KiB" in k}
check("precheck: 6 rows, 5 infeasible, marked", len(pre) == 6 and
      sum(x["status"] == "infeasible" and x["error"].endswith("[found by --precheck: not simulated]")
          for x in pre.values()) == 5, [(x["point"], x["status"], x["error"][-40:]) for x in pre.values()])
okp = [x for x in pre.values() if x["status"] == "ok"]
check("precheck: the feasible point is simulated", len(okp) == 1 and okp[0]["cycles"].isdigit(), okp)

# Resume: the 10 failed points run again (and fail again: exit 1, one row
# each); with --no-retry-failed nothing runs, and the status still says
# what the CSV holds. Then three lost rows are run again, and only those.
SWEEP = ["sweep", TILED, "-D", "TM=16,32", "-D", "TN=16..64:x2", "--set", "caches.L1.size=16KiB,1KiB",
         "--config", f"{DEFAULT},{TINY}", "-o", out]
code, _, err = run(*SWEEP)
check("resume: the failed points run again", code == 1 and "24 points, 10 run, 14 already" in err, (code, err))
check("resume: one row per point still", {axes(r) for r in rows_of(out)} == want and len(rows_of(out)) == 24)
code, _, err = run(*SWEEP, "--no-retry-failed")
check("resume --no-retry-failed: 0 run, exit 1 for the failures kept", code == 1 and
      "24 points, 0 run, 24 already" in err and "10 failed before (not retried" in err, (code, err))
lines = open(out).read().splitlines(True)
ok_lines = [l for l in lines[1:] if ",ok," in l]
open(out, "w").writelines([lines[0]] + [l for l in lines[1:] if l not in ok_lines] + ok_lines[:-3])
code, _, err = run(*SWEEP, "--no-retry-failed")
check("resume: the 3 missing points run", "24 points, 3 run, 21 already" in err and code == 1, (code, err))
code, _, err = run(*SWEEP)
check("resume: 24 rows again", {axes(r) for r in rows_of(out)} == want and len(rows_of(out)) == 24, err)

# A point is its resolved parameters: another order of the -D axes, a -D
# equal to the program's default, or another spelling of a value runs nothing again.
o = T("ident.csv")
code, _, err = run("sweep", TILED, "-D", "TM=8,16", "-D", "TN=8,16", "-o", o)
check("identity: 4 points", code == 0 and len(rows_of(o)) == 4, (code, err))
code, _, err = run("sweep", TILED, "-D", "TN=8,16", "-D", "TM=8,16", "-o", o)
check("identity: -D axes in another order run nothing", code == 0 and "4 points, 0 run, 4 already" in err and
      len(rows_of(o)) == 4, (code, err))
code, _, err = run("sweep", TILED, "-D", "TM=0x8,16", "-D", "TN=8,16", "-D", "K=64", "-o", o)
check("identity: the default and another spelling run nothing", code == 0 and "4 points, 0 run, 4 already" in err and
      len(rows_of(o)) == 4, (code, err))
code, _, err = run("sweep", TILED, "-D", "TM=16,32", "-D", "TN=16", "-o", o)
check("identity: TM=16 TN=16 is done, TM=32 runs", code == 0 and "2 points, 1 run, 1 already" in err and
      len(rows_of(o)) == 5, (code, err))
code, _, err = run("sweep", TILED, "-D", "TM=32,0x20", "-D", "TN=16", "-o", o)
check("identity: two spellings of one point in one sweep: one point", code == 0 and "1 points, 0 run, 1 already" in err
      and len(rows_of(o)) == 5, (code, err))
before = open(out).read()
code, _, err = run("sweep", TILED, "-D", "TM=8", "-o", out)
check("another sweep into the same -o: exit 2", code == 2 and "columns are not this sweep's" in err, (code, err))
check("... and the file untouched", open(out).read() == before)

# Bad input: exit 2, a message, no file.
for args, msg in ((["-D", "TQ=1"], "-D: TQ: not a parameter of"),
                  (["-D", "TM=8..4"], "range '8..4': the end is below the start"),
                  (["-D", "TM=1..9:x1"], "a factor must be 2 or more"),
                  (["-D", "TM"], "expected NAME=VALUES"),
                  (["--set", "caches.L7.size=1KiB"], "--set caches.L7.size=1KiB: no entry 'L7' in caches"),
                  (["--config", T("missing.yaml")], "cannot open config file")):
    o = T("bad.csv")
    code, _, err = run("sweep", TILED, *args, "-o", o)
    check(f"bad sweep {args}: exit 2", code == 2 and msg in err, (code, err))
    check(f"bad sweep {args}: no file", not os.path.exists(o))
code, _, err = run("sweep", TILED, "-D", "TM=16")
check("no -o: exit 2", code == 2 and "give -o FILE.csv" in err, (code, err))

# Invalid combinations are rows, found before running; a bad value is an error row.
o = T("inv.csv")
code, _, err = run("sweep", TILED, "--set", "caches.L1.ways=3,8", "-D", "TM=16,abc", "-o", o)
r = {x["point"]: x for x in rows_of(o)}
check("invalid: 4 rows", len(r) == 4, list(r))
inv = [x for x in r.values() if x["status"] == "invalid"]
check("invalid: ways=3 rows, with the --set named",
      len(inv) == 2 and all("not divisible by ways x line (3 x 64 B) (with --set caches.L1.ways=3)" in x["error"]
                            for x in inv),
      [(x["point"], x["error"]) for x in r.values()])
r = {(x["set.caches.L1.ways"], x["param.TM"]): x for x in rows_of(o)}
bad = r.get(("8", "abc"), {})
check("a bad value: error row with pto-sim's position", bad.get("status") == "error" and
      "matmul_tiled.pto:17:42: tile size M must be an integer" in bad.get("error", ""), bad)
check("and the good point ran", r.get(("8", "16"), {}).get("status") == "ok")

# Timeout: the point is killed and recorded.
o = T("timeout.csv")
code, _, err = run("sweep", NAIVE, "-D", "M=256", "-D", "N=256", "-D", "K=256", "--timeout", "0.3", "-o", o)
r = rows_of(o)
check("timeout row", code == 1 and len(r) == 1 and r[0]["status"] == "timeout" and "after 0.3 s" in r[0]["error"],
      (code, err, r))

# Sweep file: relative paths, lists and ranges; a bad file names file:line:col.
sw = write("sweep.yaml", f"program: {os.path.relpath(TILED, h.tmp)}\nparameters:\n  TM: [16, 32]\n  TN: 16..32:x2\n"
                         f"set:\n  caches.L2.ways: 4\nconfigs: [{os.path.relpath(DEFAULT, h.tmp)}]\njobs: 2\noutput: sw.csv\n")
code, _, err = run("sweep", sw)
r = rows_of(T("sw.csv")) if os.path.exists(T("sw.csv")) else []
check("sweep file: 4 ok points into its output", code == 0 and len(r) == 4 and all(x["status"] == "ok" for x in r),
      (code, err, [x["point"] for x in r]))
check("sweep file: -D on the command line replaces its axis",
      run("sweep", sw, "-D", "TM=8", "-o", T("sw2.csv"))[0] == 0 and len(rows_of(T("sw2.csv"))) == 2)
bad = write("bad.yaml", f"program: {TILED}\nparameters:\n  TM: [16, 8..4]\n")
code, _, err = run("sweep", bad, "-o", T("x.csv"))
check("sweep file: bad range at its line", code == 2 and "bad.yaml:3:12: parameters.TM: range '8..4'" in err, err)
bad = write("bad2.yaml", f"program: {TILED}\njobz: 2\n")
code, _, err = run("sweep", bad, "-o", T("x.csv"))
check("sweep file: unknown key", code == 2 and "bad2.yaml:2:1: jobz: unknown key" in err, err)

# --best: the lowest cycles first; a maximising key; a missing column.
code, outp, err = run("sweep", "--best", "cycles", "--top", "3", "-o", out)
okr = sorted((int(x["cycles"]), x["point"]) for x in rows_of(out) if x["status"] == "ok")
lines = outp.splitlines()
check("--best cycles: 3 points, lowest first, with every parameter", code == 0 and len(lines) == 7 and
      lines[1].strip() == f"1. cycles={okr[0][0]}  {okr[0][1]}" and lines[2].strip().startswith("parameters: M=64 N=64 K=64"),
      (outp, okr[:2]))
code, outp, err = run("sweep", "--best", "L1.miss_rate:max", "-o", out)
top = max(float(x["L1.miss_rate"]) for x in rows_of(out) if x["status"] == "ok")
check("--best KEY:max", code == 0 and "(highest first)" in outp and f"L1.miss_rate={top:g}" in outp.replace(
    "L1.miss_rate=1\n", "L1.miss_rate=1 \n"), outp)
code, outp, err = run("sweep", "--best", "nope", "-o", out)
check("--best unknown column: exit 2", code == 2 and "--best: nope: no such column" in err, err)

# Ctrl-C: the terminal's SIGINT reaches the sweep and its children; the CSV
# stays valid and the same command resumes it.
o = T("int.csv")
cmd = [h.pto_sim, "sweep", NAIVE, "-D", "M=64,80,96,112", "-D", "N=96,97", "-D", "K=96", "-j", "1", "-o", o]
proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=h.env,
                        start_new_session=True)
deadline = time.time() + 60
while time.time() < deadline and (not os.path.exists(o) or len(open(o).read().splitlines()) < 2):
    time.sleep(0.01)
os.killpg(proc.pid, signal.SIGINT)
_, err = proc.communicate(timeout=60)
got = rows_of(o)
check("Ctrl-C: exit 130", proc.returncode == 130 and "interrupted" in err, (proc.returncode, err))
check("Ctrl-C: a valid CSV with the finished rows", 1 <= len(got) < 8 and all(x["status"] == "ok" for x in got),
      [(x["point"], x["status"]) for x in got])
check("Ctrl-C: every line complete", open(o).read().endswith("\n"))
code, _, err = run(*cmd[1:])
check("Ctrl-C: resume completes", code == 0 and len(rows_of(o)) == 8 and f"{8 - len(got)} run" in err, (code, err))
local = {x["point"]: x for x in rows_of(o)}

# Progress bar on a terminal (a container without /dev/pts has none: skipped, said why).
def open_pty():
    try:
        return pty.openpty()
    except OSError as e:
        h.skip(f"progress bar on a terminal: no pseudo-terminal here ({e})")
        return None


terminal = open_pty() if not os.environ.get("PTOSIM_TEST_NO_PTY") else h.skip("progress bar: PTOSIM_TEST_NO_PTY set")
if terminal:
    master, slave = terminal
    p = subprocess.Popen([h.pto_sim, "sweep", TILED, "-D", "TM=16,32", "-o", T("pty.csv")], stdout=subprocess.DEVNULL,
                         stderr=slave, env=h.env)
    os.close(slave)
    seen = b""
    while True:
        r, _, _ = select.select([master], [], [], 30)
        if not r:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    p.wait()
    os.close(master)
    check("progress bar on a terminal", b"2/2 done, 0 failed" in seen and b"ETA" in seen and b"points/s" in seen,
          seen[-300:])

# --emit-jobs -> GNU parallel -> --merge gives the local sweep's rows.
def same_rows(merged, name):
    m = {x["point"]: x for x in rows_of(merged)}
    check(f"{name}: every point merged", set(m) == set(local), sorted(set(m) ^ set(local))[:3])
    diff = [(k, c) for k in m for c in m[k] if c != "wall_seconds" and m[k][c] != local.get(k, {}).get(c)]
    check(f"{name}: the same figures as the local sweep", not diff, diff[:5])


jobs = T("jobs.txt")
code, _, err = run("sweep", *cmd[2:-2], "--emit-jobs", jobs, "--json-dir", T("jobs.d"))
lines = open(jobs).read().splitlines() if os.path.exists(jobs) else []
check("emit-jobs: 8 lines", code == 0 and len(lines) == 8, (code, err, lines[:2]))
check("emit-jobs: absolute, self-contained", all(l.startswith(os.path.realpath(h.pto_sim) + " run " + os.path.abspath(NAIVE)) for l in lines), lines[:1])
parallel = shutil.which("parallel")
if check("GNU parallel installed (scripts/setup.sh)", parallel is not None):
    q = subprocess.run([parallel, "--will-cite", "--sshlogin", ":", "-j", "2"], stdin=open(jobs), capture_output=True, text=True, env=h.env)
    check("parallel ran the jobs", q.returncode == 0, q.stderr)
    code, _, err = run("sweep", "--merge", T("jobs.d"), "-o", T("merged.csv"))
    check("merge: exit 0", code == 0 and "8 of 8 points merged, 0 failed" in err, (code, err))
    same_rows(T("merged.csv"), "GNU parallel")
# ("--sshlogin :" is GNU parallel's remote path with the local machine as the login.)
# The Slurm template: each array task runs its line (tasks run here one by one).
code, _, err = run("sweep", *cmd[2:-2], "--emit-jobs", T("sl.txt"), "--json-dir", T("sl.d"))
code, _, err = run("sweep", "--merge", T("sl.d"), "-o", T("sl-part.csv"))
check("merge before any job ran: exit 1, nothing merged", code == 1 and "0 of 8 points merged" in err and
      "8 without a result yet" in err, err)
sbatch = os.path.join(src, "scripts", "slurm", "sweep.sbatch")
for task in range(1, 9):
    q = subprocess.run(["bash", sbatch, T("sl.txt")], env=dict(h.env, SLURM_ARRAY_TASK_ID=str(task)),
                       capture_output=True, text=True)
    check(f"sbatch task {task}", q.returncode == 0, q.stderr)
q = subprocess.run(["bash", sbatch, T("sl.txt")], env=dict(h.env, SLURM_ARRAY_TASK_ID="9"), capture_output=True, text=True)
check("sbatch: a task past the end fails", q.returncode == 2 and "has no line 9" in q.stderr, q.stderr)
code, _, err = run("sweep", "--merge", T("sl.d"), "-o", T("sl.csv"))
check("slurm merge: exit 0", code == 0, err)
same_rows(T("sl.csv"), "Slurm template")
# Each point's report is named by its parameters (issue 28: p00001.json said nothing).
named = sorted(f for f in os.listdir(T("sl.d")) if f.endswith(".json") and f != "sweep.json") \
    if os.path.isdir(T("sl.d")) else []
check("--json-dir: files named by index and parameters", len(named) == 8 and
      all(f.startswith("p0000") and "=" in f for f in named), named[:3])
# A job killed by a signal: its shell records 128 + N; the row says so.
rc3 = [f for f in os.listdir(T("sl.d")) if f.startswith("p00003_") and f.endswith(".rc")]
open(os.path.join(T("sl.d"), rc3[0] if rc3 else "p00003.rc"), "w").write("139\n")
code, _, err = run("sweep", "--merge", T("sl.d"), "-o", T("crash.csv"))
crashed = [x for x in rows_of(T("crash.csv")) if x["status"] != "ok"]
check("merge: a crashed point", code == 1 and len(crashed) == 1 and crashed[0]["status"] == "crashed" and
      crashed[0]["error"] == "killed by signal 11 (Segmentation fault)", crashed)
code, _, err = run("sweep", "--merge", T("nowhere"), "-o", T("x.csv"))
check("merge: no manifest, exit 2", code == 2 and "sweep.json: cannot open sweep manifest file" in err, err)

h.finish()
