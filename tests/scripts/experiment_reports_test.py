#!/usr/bin/env python3
"""experiments/common.py's --reports: a kept report is reused only while the
binary, the arguments and the contents of the files they name are unchanged.
Why a test: a stale report reused after an edit would put old figures in a
table that claims to be fresh; one never reused would make the option useless.
A wrapper around pto-sim counts the runs that really happen.

usage: experiment_reports_test.py PTO_SIM SOURCE_DIR"""
import os
import shutil
import stat
import sys
import tempfile

pto_sim, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(src, "experiments"))
import common  # noqa: E402

tmp = tempfile.mkdtemp(prefix="ptosim-reports-")
failed = []


def check(what, ok, detail=""):
    print(f"{'ok' if ok else 'FAIL'}: {what}" + ("" if ok else f" ({detail})"))
    if not ok:
        failed.append(what)


log = os.path.join(tmp, "runs.log")
wrapper = os.path.join(tmp, "pto-sim")
with open(wrapper, "w") as f:
    f.write(f"#!/bin/sh\necho run >> '{log}'\nexec '{pto_sim}' \"$@\"\n")
os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IEXEC)
prog = os.path.join(tmp, "k.pto")
shutil.copy(os.path.join(src, "workloads", "matmul_tiled.pto"), prog)
kept = os.path.join(tmp, "kept")
runs = lambda: len(open(log).read().split()) if os.path.exists(log) else 0


def once(args):
    return common.Runner(wrapper, 1, kept).many([args])[0]


first = once([prog, "-D", "M=32", "-D", "N=32", "-D", "K=32"])
check("the first run simulates", runs() == 1, runs())
again = once([prog, "-D", "M=32", "-D", "N=32", "-D", "K=32"])
check("the same run is reused", runs() == 1 and again["cycles"] == first["cycles"], runs())
once([prog, "-D", "M=32", "-D", "N=32", "-D", "K=64"])
check("another argument simulates", runs() == 2, runs())
with open(prog, "a") as f:
    f.write("# an edit\n")
once([prog, "-D", "M=32", "-D", "N=32", "-D", "K=32"])
check("an edited input file simulates", runs() == 3, runs())
with open(wrapper, "a") as f:
    f.write("# another binary\n")
once([prog, "-D", "M=32", "-D", "N=32", "-D", "K=32"])
check("another binary simulates", runs() == 4, runs())
check("no temporary file left among the kept reports", all(n.endswith(".json") for n in os.listdir(kept)),
      os.listdir(kept))
shutil.rmtree(tmp, True)
print(f"{6 - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
