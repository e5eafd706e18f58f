#!/usr/bin/env python3
"""Runs that end well: SIGINT/SIGTERM in the middle of `pto-sim run` stop
the simulation at its next safe point, write the report so far (marked
interrupted, with the events done) and exit 128 + signal; the progress line
and the diagnostics appear on stderr only when asked for.

usage: interrupt_test.py PTO_SIM SOURCE_DIR
"""
import json
import os
import re
import signal
import subprocess
import time

from harness import Harness

H = Harness("pto-sim-interrupt-")
check, write, tmp = H.check, H.write, H.tmp
LINES = b"".join(b"r %x 4\n" % (i * 64) for i in range(200000))


def start(*args):
    return subprocess.Popen([H.pto_sim, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=H.env)


def finish(p, timeout=60):
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return -1, out.decode(), err.decode() + " (timed out)"
    return p.returncode, out.decode(), err.decode()


# 1. SIGINT while the trace reader waits on stdin: the report goes to -o,
# atomically, and covers exactly the accesses simulated.
outfile = os.path.join(tmp, "report.json")
p = start("run", "--trace", "-", "--format", "json", "-o", outfile)
# write() returns once the reader has taken all but a pipe's buffer of it;
# the stream stays open, so the reader is then blocked in read().
p.stdin.write(LINES)
p.stdin.flush()
time.sleep(0.5)
p.send_signal(signal.SIGINT)
t0 = time.time()
code, out, err = finish(p)
check("SIGINT: exit 130", code == 130, (code, err))
check("SIGINT: stops within seconds", time.time() - t0 < 10, time.time() - t0)
check("SIGINT: says so on stderr", re.search(r"stopped by SIGINT after \d+ events", err), err)
rep = json.load(open(outfile)) if os.path.exists(outfile) else {}
check("SIGINT: the report is marked interrupted", rep.get("interrupted") is True, rep.get("interrupted"))
done = rep.get("events_done", 0)
check("SIGINT: with the events done", 0 < done <= 200000, done)
check("SIGINT: the report covers those events", rep.get("core", {}).get("accesses") == done,
      (rep.get("core", {}).get("accesses"), done))
check("SIGINT: no temporary file left", sorted(os.listdir(tmp)) == ["report.json"], os.listdir(tmp))

# 2. SIGTERM: 143, the text report on stdout.
p = start("run", "--trace", "-")
p.stdin.write(LINES)
p.stdin.flush()
time.sleep(1.0)
p.send_signal(signal.SIGTERM)
code, out, err = finish(p)
check("SIGTERM: exit 143", code == 143, (code, err))
check("SIGTERM: text report marked", "interrupted: true" in out and re.search(r"events_done: \d+", out), out[-500:])

# 3. A long program: interrupted while simulating (its first progress line
# says that it is).
p = start("run", os.path.join(H.src, "workloads", "matmul_naive.pto"), "-D", "M=512", "-D", "N=512", "-D", "K=512",
          "--format", "json", "--progress")
first = p.stderr.readline().decode()
check("program: a progress line after 2 s", "simulated" in first, first)
p.send_signal(signal.SIGINT)
code, out, err = finish(p)
check("program SIGINT: exit 130", code == 130, (code, err))
try:
    rep = json.loads(out)
except ValueError:
    rep = {}
check("program SIGINT: JSON report, interrupted", rep.get("interrupted") is True and rep.get("events_done", 0) > 0,
      out[:300])

# 4. Two signals in a row: the process ends at once, and -o holds a whole
# report or none at all, never part of one.
outfile = os.path.join(tmp, "twice.json")
p = start("run", "--trace", "-", "--format", "json", "-o", outfile)
p.stdin.write(LINES)
p.stdin.flush()
time.sleep(1.0)
p.send_signal(signal.SIGINT)
p.send_signal(signal.SIGINT)
code, out, err = finish(p)
check("second SIGINT: exit 130", code == 130, (code, err))
if os.path.exists(outfile):
    check("second SIGINT: a whole report", json.load(open(outfile)).get("interrupted") is True)
check("second SIGINT: no temporary file", not any(".tmp." in f for f in os.listdir(tmp)), os.listdir(tmp))

# 5. Progress: forced with --progress once the run lasts 2 s; silent when
# stderr is not a terminal otherwise.
for forced in (True, False):
    p = start("run", "--trace", "-", *(["--progress"] if forced else []))
    p.stdin.write(LINES)
    p.stdin.flush()
    time.sleep(3.2)
    p.stdin.close()
    p.stdin = None
    code, out, err = finish(p)
    line = re.search(r"pto-sim: [\d.]+ k?events, [\d.]+ \w+ simulated, [\d.]+ [kMG]?accesses/s", err)
    check(f"progress forced={forced}: exit 0", code == 0, (code, err))
    check(f"progress forced={forced}: {'shown' if forced else 'silent'}", bool(line) == forced and (forced or err == ""),
          err)

# 6. Diagnostics through --log-level / -v.
din = write("ok.din", "r 0 4\n")
code, out, err = H.run("run", "--trace", din, "--log-level", "info")
check("--log-level info: says what was loaded and run",
      code == 0 and "pto-sim: info: config default (built in)" in err and "pto-sim: info: simulated 1 events" in err, err)
code, out, err = H.run("-v", "run", "--trace", din)
check("-v before the subcommand", code == 0 and "pto-sim: info: simulated" in err, err)
code, out, err = H.run("run", "--trace", din)
check("no diagnostics by default", code == 0 and err == "", err)

H.finish()
