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
import tempfile
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
# says that it is), with the interpreter on the simulation's thread (the
# default: the stop unwinds the interpreter) and, with --two-threads, on its own.
for mode in ([], ["--two-threads"]):
    name = "program" + (" --two-threads" if mode else "")
    p = start("run", os.path.join(H.src, "workloads", "matmul_naive.pto"), "-D", "M=512", "-D", "N=512", "-D", "K=512",
              "--format", "json", "--progress", *mode)
    first = p.stderr.readline().decode()
    check(f"{name}: a progress line after 2 s", "simulated" in first, first)
    p.send_signal(signal.SIGINT)
    code, out, err = finish(p)
    check(f"{name} SIGINT: exit 130", code == 130, (code, err))
    try:
        rep = json.loads(out)
    except ValueError:
        rep = {}
    check(f"{name} SIGINT: JSON report, interrupted", rep.get("interrupted") is True and rep.get("events_done", 0) > 0,
          out[:300])

# 3b. A loop that emits no events (its stop is seen by the interpreter, not the
# sink): a SIGINT once it has printed ends it with the interrupted report, on
# one thread (the default) and on two. Without the interpreter's check, one
# thread ran on to the iteration limit (~20 s, exit 2).
SPIN = write("spin.pto", 'X = pto.zeros([4], pto.float32)\nX[0] = 1.0\nprint("spinning")\n'
             'for i in range(100000):\n    for j in range(100000):\n        y = j\n')
for mode in ([], ["--two-threads"]):
    name = "event-free loop" + (" --two-threads" if mode else "")
    out_json = os.path.join(tmp, "spin.json")
    p = start("run", SPIN, "--format", "json", "-o", out_json, *mode)
    first = p.stdout.readline().decode()
    p.send_signal(signal.SIGINT)
    t0 = time.time()
    code, out, err = finish(p)
    check(f"{name}: printed before the signal", "spinning" in first, first)
    check(f"{name}: SIGINT ends it, exit 130", code == 130, (code, err[-500:]))
    check(f"{name}: within seconds", time.time() - t0 < 10, time.time() - t0)
    rep = json.load(open(out_json)) if os.path.exists(out_json) else {}
    check(f"{name}: the report is marked interrupted", rep.get("interrupted") is True, rep.get("interrupted"))
    if os.path.exists(out_json):
        os.remove(out_json)

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

# 4b. --check-data interrupted: no whole-image check over events never
# simulated (it reported data loss that did not happen); the report, the
# timeline and the epoch CSV of what was simulated are all written.
rep_f, tl_f, ep_f = (os.path.join(tmp, n) for n in ("cd.json", "cd-timeline.json", "cd-epochs.csv"))
p = start("run", os.path.join(H.src, "workloads", "matmul_naive.pto"), "-D", "M=512", "-D", "N=512", "-D", "K=512",
          "--check-data", "--progress", "--epoch", "10000", "--epoch-csv", ep_f, "--timeline", tl_f,
          "--format", "json", "-o", rep_f)
first = p.stderr.readline().decode()
p.send_signal(signal.SIGINT)
code, out, err = finish(p)
check("--check-data SIGINT: exit 130, no data loss reported", code == 130 and "data check failed" not in err,
      (code, first, err[-500:]))
rep = json.load(open(rep_f)) if os.path.exists(rep_f) else {}
check("--check-data SIGINT: the report, interrupted", rep.get("interrupted") is True and "data_check" in rep,
      sorted(rep)[:10])
try:
    timeline = json.load(open(tl_f))
except (OSError, ValueError) as e:
    timeline = {"error": str(e)}
check("interrupted run: its timeline, marked", "interrupted" in json.dumps(timeline)[:2000] and
      len(timeline.get("traceEvents", timeline if isinstance(timeline, list) else [])) > 1, str(timeline)[:300])
epochs = open(ep_f).read().splitlines() if os.path.exists(ep_f) else []
check("interrupted run: its epoch CSV", len(epochs) >= 2 and epochs[0].startswith("epoch,"), epochs[:2])
check("interrupted run: no temporary files", not any(".tmp." in f for f in os.listdir(tmp)), os.listdir(tmp))


# 4c. `trace` and `trace convert`: an interrupt removes the temporary output
# (it used to stay, tens of MB) and exits 128 + signal.
def feed(proc):
    # Keeps the converter's stdin busy until it exits.
    try:
        while proc.poll() is None:
            proc.stdin.write(LINES)
            proc.stdin.flush()
    except (BrokenPipeError, ValueError, OSError):
        pass


for sig, args in ((signal.SIGINT, ["trace", os.path.join(H.src, "workloads", "matmul_naive.pto"), "-D", "M=256",
                                   "-D", "N=256", "-D", "K=256", "-o"]),
                  (signal.SIGTERM, ["trace", "convert", "-"])):
    d = tempfile.mkdtemp(dir=tmp)
    target = os.path.join(d, "out.trace")
    p = start(*args, target)
    if "convert" in args:
        import threading
        threading.Thread(target=feed, args=(p,), daemon=True).start()
    deadline = time.time() + 30
    while time.time() < deadline and not os.listdir(d):
        time.sleep(0.05)
    time.sleep(0.5)
    p.send_signal(sig)
    code, out, err = finish(p)
    check(f"{' '.join(args[:2])} {sig.name}: exit {128 + sig}", code == 128 + sig and "stopped by " + sig.name in err,
          (code, err[-300:]))
    check(f"{' '.join(args[:2])} {sig.name}: no file left", os.listdir(d) == [], os.listdir(d))

# 4d. A config or program named by a FIFO no one writes: the first SIGINT
# is noticed while `run` waits to read it (a blocked read swallowed it), the
# run ends 130, and no report file is left.
for what in ("config", "program", "trace"):
    d = tempfile.mkdtemp(dir=tmp)
    fifo, target = os.path.join(d, "in.fifo"), os.path.join(d, "out.json")
    os.mkfifo(fifo)
    if what == "trace":
        p = start("trace", fifo, "-o", os.path.join(d, "out.ptt"))
    else:
        args = ["--trace", write("fifo.din", "r 0 4\n"), "--config", fifo] if what == "config" else [fifo]
        p = start("run", *args, "--format", "json", "-o", target)
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    code, out, err = finish(p, timeout=10)
    check(f"{what} FIFO, one SIGINT: exit 130", code == 130 and "stopped by SIGINT" in err, (code, err[-300:]))
    # A program's run has begun (its producer reads the file): an empty
    # report of 0 events, marked interrupted, is complete. A config's has not.
    left = sorted(f for f in os.listdir(d) if f != "in.fifo")
    if what != "program":
        check(f"{what} FIFO: nothing written", left == [], left)
    else:
        check("program FIFO: a whole report or none", left in ([], ["out.json"]) and
              (not left or json.load(open(target)).get("interrupted") is True), left)


# 4e. `kill -9` of a sweep: its `pto-sim run` children get SIGTERM from the
# kernel (PR_SET_PDEATHSIG) and stop, instead of running to the end; the
# next sweep removes the dead sweep's temporary folder (its lock is free).
def children(pid):
    out = []
    for e in os.listdir("/proc"):
        try:
            with open(f"/proc/{e}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if fields[1] == str(pid) and fields[0] != "Z":
            out.append(int(e))
    return out


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:].split()[0] != "Z"


sweep_tmp = tempfile.mkdtemp(dir=tmp)
env = dict(H.env, TMPDIR=sweep_tmp)
naive = os.path.join(H.src, "workloads", "matmul_naive.pto")
sw = subprocess.Popen([H.pto_sim, "sweep", naive, "-D", "M=512,513", "-D", "N=512", "-D", "K=512", "-j", "2",
                       "-o", os.path.join(tmp, "killed.csv")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                      env=env)
deadline = time.time() + 30
kids = []
while time.time() < deadline and len(kids) < 2:
    time.sleep(0.1)
    kids = children(sw.pid)
folders = os.listdir(sweep_tmp)
time.sleep(0.5)
sw.kill()
sw.wait()
deadline = time.time() + 20
while time.time() < deadline and any(alive(k) for k in kids):
    time.sleep(0.1)
check("sweep kill -9: it had two children and a temporary folder", len(kids) == 2 and len(folders) == 1,
      (kids, folders))
check("sweep kill -9: the children end with it", not any(alive(k) for k in kids), [k for k in kids if alive(k)])
# The next sweep removes the dead sweep's folder; a live sweep's folder
# stays (this one holds its lock while another sweep runs).
live = subprocess.Popen([H.pto_sim, "sweep", naive, "-D", "M=512", "-D", "N=512", "-D", "K=512",
                         "-o", os.path.join(tmp, "live.csv")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                        env=env)
deadline = time.time() + 30
mine = []
while time.time() < deadline and not mine:
    time.sleep(0.05)
    mine = [f for f in os.listdir(sweep_tmp) if f not in folders and os.path.exists(os.path.join(sweep_tmp, f, ".lock"))]
check("next sweep: the killed sweep's folder is gone", mine and folders and folders[0] not in os.listdir(sweep_tmp),
      (folders, os.listdir(sweep_tmp)))
code = subprocess.run([H.pto_sim, "sweep", naive, "-D", "M=4", "-o", os.path.join(tmp, "next.csv")],
                      capture_output=True, env=env, timeout=60).returncode
left = os.listdir(sweep_tmp)
live.kill()
live.wait()
check("a live sweep's folder is kept", code == 0 and left == mine, (code, mine, left))

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
