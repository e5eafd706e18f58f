#!/usr/bin/env python3
"""The probes behind the calibration suite's outliers, native against predicted.

Builds probes.cpp with the suite's flags, times the probes natively (thread
CPU time, minimum over 15 warm calls) and predicts those with a .pto twin
(generated here: the same loops, arrays at the same relative offsets) by
`pto-sim run` on a config of this machine, one warm call (REPS=2 minus
REPS=1) as in run.py. Prints cycles per unit at the config's clock. What
each probe isolates: the comment at the top of probes.cpp; what they showed:
docs/PERFORMANCE.md, "Calibration".

    python3 bench/fidelity/probes.py BUILD_DIR [--config FILE] [--only PREFIX] [PROBE...]
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

DEFAULT = (
    [f"scol:{k}:seq" for k in (16, 24, 28, 32, 40, 48, 64, 128)]
    + [f"scol:{k}:shuf" for k in (28, 32, 40, 64)]
    + [f"scol:{k}:{m}" for m in ("seq1k", "seqspread") for k in (24, 32, 40, 48, 64, 128)]
    + [f"scol:{k}:{m}" for m in ("hotst", "hotld", "nop", "twice") for k in (28, 32, 64)]
    + [f"stcol:{s}:st" for s in (0, 64, 1024, 2048)]
    + ["stcol:0:fence", "stcol:64:fence", "stcol:0:nost"]
    + [f"stcol:{s}:fence{f}" for s in (0, 64) for f in (2, 4, 8, 16, 32)]
    + [f"lsk:{k}:{r}{m}" for r in (128, 512) for k in (0, 1, 2, 3) for m in ("same", "other")]
    + ["lsk:1:512sameld", "lsk:1:512otherld"]
    + [f"lsk:{k}:512{m}" for k in (1, 3) for m in ("samehot", "otherhot")]
    + [f"{k}:{r}:{m}" for k in ("ls4k", "ls2k") for r in (128, 512) for m in ("l", "s", "ls", "ls64")]
    + ["spair:2048:lines", "spair:2048:pairs", "spair:64:lines", "spair:64:pairs"]
    + [f"trblk:{t}:{m}" for t in (8, 32) for m in ("copy", "st")]
    + [f"tst:{l}:seq" for l in (1, 2, 4, 8, 16, 32)]
    + [f"tst:{l}:{m}" for l in (4, 8, 16) for m in ("shuf", "pf", "pfshuf")]
    + [f"tst:8:w{w}" for w in (1, 2, 4, 16)]
    + ["ncol:0:seq", "ncol:0:shuf"]
)


def row_order(n, shuffled):
    """probes.cpp's row_order: identity, or a fixed shuffle (the native one
    is std::shuffle with mt19937(5), not reproducible here: any fixed
    permutation breaks the stride alike)."""
    import random
    r = list(range(n))
    if shuffled:
        random.Random(5).shuffle(r)
    return r


def twin(probe):
    """The .pto text of a probe, or None when the language cannot say it."""
    kind, p, mode = probe.split(":")
    p = int(p)
    head = "param REPS = 1\n"
    if kind == "scol" and mode in ("seq", "hotst"):
        hot = "                H[0] = 1.0\n" if mode == "hotst" else ""
        return (head + f"Y = pto.tensor([{p}, 512], pto.float32)\n"
                + ("H = pto.tensor([16], pto.float32)\n" if hot else "")
                + "for rep in range(REPS):\n    for b in range(32):\n        for w in range(16):\n"
                + f"            for k in range({p}):\n                Y[k, b * 16 + w] = 1.0\n" + hot)
    if kind == "stcol" and mode in ("st", "nost"):
        pad = f"P = pto.tensor([{p // 4}], pto.float32)\n" if p and mode == "st" else ""
        shape = "[16]" if mode == "nost" else "[512, 512]"
        dst = "Y[i % 16]" if mode == "nost" else "Y[i, j]"
        return (head + 'X = pto.tensor([512, 512], pto.float32, init="random", seed=3)\n' + pad
                + f"Y = pto.tensor({shape}, pto.float32)\n"
                + "for rep in range(REPS):\n    for j in range(1, 511):\n        for i in range(1, 511):\n"
                + f"            {dst} = 0.2 * (X[i, j] + X[i - 1, j] + X[i + 1, j] + X[i, j - 1] + X[i, j + 1])\n")
    if kind in ("ls2k", "ls4k"):
        cols = 512 if kind == "ls2k" else 1024
        pad = "P = pto.tensor([16], pto.float32)\n" if mode == "ls64" else ""
        body = {"l": "t = A[i, j]", "s": "B[i, j] = 1.0", "ls": "B[i, j] = A[i, j]", "ls64": "B[i, j] = A[i, j]"}[mode]
        return (head + f'A = pto.tensor([{p}, {cols}], pto.float32, init="random", seed=3)\n' + pad
                + f"B = pto.tensor([{p}, {cols}], pto.float32)\n"
                + f"for rep in range(REPS):\n    for j in range(16):\n        for i in range({p}):\n            {body}\n")
    if kind == "lsk":
        rows = int(re.match(r"\d+", mode).group())
        m = mode[len(str(rows)):]
        arrays = "".join(f'A{q} = pto.tensor([{rows}, 512], pto.float32, init="random", seed={q + 3})\n' for q in range(p))
        pad = "P = pto.tensor([16], pto.float32)\n" if m.startswith("other") else ""
        row = "i % 2" if m.endswith("hot") else "i"
        value = " + ".join(f"A{q}[{row}, j]" for q in range(p)) or "1.0"
        ld = "            t = B[i, j]\n" if m.endswith("ld") else ""
        return (head + arrays + pad + f"B = pto.tensor([{rows}, 512], pto.float32)\n"
                + f"for rep in range(REPS):\n    for j in range(16):\n        for i in range({rows}):\n"
                + ld + f"            B[i, j] = {value}\n")
    if kind == "spair":
        rows = 8 * p // 2048 + 1 if p >= 2048 else 1
        cols = 512 if p >= 2048 else 8 * p // 4
        at = [(s if mode == "lines" else s // 2) * p // 4 for s in range(8)]
        idx = [f"Y[{a // cols}, {a % cols} + w]" for a in at]
        return (head + f"Y = pto.tensor([{rows}, {cols}], pto.float32)\n"
                + "for rep in range(REPS):\n    for n in range(200000):\n        w = n % 16\n"
                + "".join(f"        {i} = 1.0\n" for i in idx))
    if kind == "trblk":
        src = "1.0" if mode == "st" else "X[i, j]"
        return (head + 'X = pto.tensor([512, 512], pto.float32, init="random", seed=3)\n'
                + "Y = pto.tensor([512, 512], pto.float32)\n"
                + f"for rep in range(REPS):\n    for ii in range(0, 512, {p}):\n        for jj in range(0, 512, {p}):\n"
                + f"            for i in range(ii, ii + {p}):\n                for j in range(jj, jj + {p}):\n"
                + f"                    Y[j, i] = {src}\n")
    if kind == "tst":
        rows = row_order(p, mode.endswith("shuf"))
        w = int(mode[1:]) if mode.startswith("w") else 8
        pf = ""
        if mode.startswith("pf"):
            pf = (f"            nj = jj + {p} if jj + {p} < 512 else 0\n"
                  f"            ni = ii if jj + {p} < 512 else ii + 8\n"
                  "            if ni < 512:\n"
                  f"                for r in range({p}):\n                    t = Y[nj + r, ni]\n")
        body = "".join(f"                Y[jj + {r}, i] = 1.0\n" for r in rows) if p <= 16 else (
            f"                for r in range({p}):\n                    Y[jj + r, i] = 1.0\n")
        return (head + "Y = pto.tensor([512, 512], pto.float32)\n"
                + f"for rep in range(REPS):\n    for ii in range(0, 512, {w}):\n        for jj in range(0, 512, {p}):\n"
                + pf + f"            for i in range(ii, ii + {w}):\n" + body)
    if kind == "ncol" and mode == "seq":
        return (head + "Y = pto.tensor([512, 512], pto.float32)\n"
                + "for rep in range(REPS):\n    for j in range(512):\n        for r in range(512):\n"
                + "            Y[r, j] = 1.0\n")
    return None


def units(probe):
    kind, p, mode = probe.split(":")
    if kind == "lsk":
        return 16 * int(re.match(r"\d+", mode).group())
    return {"spair": 200000 * 8, "scol": 32 * 16 * int(p), "stcol": 510 * 510, "trblk": 512 * 512, "tst": 512 * 512, "ncol": 512 * 512, "ls2k": 16 * int(p),
            "ls4k": 16 * int(p)}[kind]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build")
    ap.add_argument("--config", default=os.path.join(HERE, "host-measured.yaml"))
    ap.add_argument("--only", help="probes whose name starts with this")
    ap.add_argument("probes", nargs="*")
    a = ap.parse_intermixed_args()
    probes = a.probes or DEFAULT
    if a.only:
        probes = [p for p in probes if p.startswith(a.only)]
    sim = os.path.join(a.build, "sim", "cli", "pto-sim")
    work = tempfile.mkdtemp(prefix="pto-probes-")
    exe = os.path.join(work, "probes")
    subprocess.run(["g++", "-std=c++17", "-O2", "-fno-tree-vectorize", "-fno-unroll-loops", "-falign-loops=32",
                    "-o", exe, os.path.join(HERE, "probes.cpp")], check=True)
    with open(a.config) as f:
        m = re.search(r"^clock:\s*([0-9.]+)\s*MHz", f.read(), re.M)
    hz = float(m.group(1)) * 1e6 if m else 1e9
    load = open("/proc/loadavg").read().split()[0]
    out = subprocess.run([exe] + probes, capture_output=True, text=True, check=True).stdout
    native = {l.split()[0]: float(l.split()[1]) * 1e-9 * hz for l in out.splitlines()}

    def predict(probe):
        text = twin(probe)
        if text is None:
            return probe, None
        path = os.path.join(work, probe.replace(":", "_") + ".pto")
        with open(path, "w") as f:
            f.write(text)
        t = []
        for reps in (1, 2):
            r = subprocess.run([sim, "run", path, "--config", a.config, "--format", "json", "-D", f"REPS={reps}"],
                               capture_output=True, text=True, check=True)
            t.append(json.loads(r.stdout)["seconds"])
        return probe, (t[1] - t[0]) * hz / units(probe)

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        predicted = dict(pool.map(predict, probes))
    print(f"| probe | native cycles | predicted cycles | predicted / native |   (config {a.config}, load {load})")
    print("|---|---|---|---|")
    for p in probes:
        q = predicted[p]
        print(f"| {p} | {native[p]:.2f} | " + (f"{q:.2f} | {q / native[p]:.2f} |" if q is not None else "- | - |"))


if __name__ == "__main__":
    main()
