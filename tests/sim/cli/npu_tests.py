#!/usr/bin/env python3
"""The NPU config end to end: pto.tile's matmul stages through the DaVinci
buffers and the `npu` core model overlaps its engines.

Why a test: on an NPU the answer to "which tile" comes from how the engines
overlap (double buffering needs two tiles in l0a) and from which tiles fit
the buffers at all; these are the orderings and bounds the model promises
(docs/TIMING.md, "The NPU core"), and the article's code must run there.

usage: npu_tests.py PTO_SIM SOURCE_DIR
Prints one line per failure and a closing "N passed, N failed" line.
"""
import glob
import json
import os

from harness import Harness

H = Harness("pto-sim-npu-")
run, check, write = H.run, H.check, H.write
CFG = os.path.join(H.src, "configs", "npu.yaml")
MATMUL = os.path.join(H.src, "workloads", "matmul_tiled.pto")


def tile_run(tm, tn, tk, size=256):
    out = os.path.join(H.tmp, f"t{tm}x{tn}x{tk}.json")
    rc, _, err = run("run", MATMUL, "-D", f"M={size}", "-D", f"N={size}", "-D", f"K={size}", "-D", f"TM={tm}",
                     "-D", f"TN={tn}", "-D", f"TK={tk}", "--config", CFG, "--format", "json", "-o", out)
    if not check(f"tile {tm}x{tn}x{tk} runs", rc == 0, err):
        return None
    with open(out) as f:
        return json.load(f)


def pipes(report):
    return {p["name"]: p for p in report["core"]["pipes"]}


# Every square and rectangular tile 16..256 whose buffers fit runs.
runs = {}
for t in (16, 64, 256):
    for u in (16, 64, 256):
        runs[(t, u)] = tile_run(t, u, 32)
if all(runs.values()):
    cyc = {k: r["cycles"] for k, r in runs.items()}
    # Small tiles pay a transfer's fixed cost per few bytes: the order of the square tiles.
    check("16 > 64 > 256 square", cyc[(16, 16)] > cyc[(64, 64)] > cyc[(256, 256)], cyc)
    r = runs[(256, 64)]
    p = pipes(r)
    check("npu model", r["core"]["model"] == "npu", r["core"])
    busy = {k: v["busy_cycles"] for k, v in p.items()}
    mte1 = busy["mte1_l0a"] + busy["mte1_l0b"]  # one engine
    # The engines overlap (less than their sum) but none is faster than its own work.
    check("engines overlap", r["cycles"] < busy["mte2"] + mte1 + busy["cube"] + busy["fixpipe"], (r["cycles"], busy))
    check("bounded by each engine", r["cycles"] >= max(busy["mte2"], mte1, busy["cube"]), (r["cycles"], busy))
    check("cube work = flops / 8192", busy["cube"] == 2 * 256 ** 3 / 8192, busy)
    check("flops", r["flops"] == 2 * 256 ** 3, r["flops"])

# Double buffering: TK=64 leaves room for two 128x64 f32 tiles in the
# 64 KiB l0a; TK=128 fills it with one, so MTE1 and the cube take turns.
db, single = tile_run(128, 128, 64, 512), tile_run(128, 128, 128, 512)
if db and single:
    check("two l0a buffers beat one", db["cycles"] < single["cycles"], (db["cycles"], single["cycles"]))

# conv2d through the cube: a tile whose unfolded input fits l0a runs, with
# img2col on MTE1 and the cube working; one that does not names l0a.
CONV = os.path.join(H.src, "bench", "fidelity", "ops", "pto", "conv2d_tiled.pto")
conv_args = ["-D", "C=32", "-D", "H=28", "-D", "W=28", "-D", "F=32", "-D", "TC=16", "--config", CFG]
out = os.path.join(H.tmp, "conv.json")
rc, _, err = run("run", CONV, *conv_args, "-D", "TF=16", "-D", "TH=2", "-D", "TW=28", "--format", "json", "-o", out)
if check("conv2d tile runs", rc == 0, err):
    p = pipes(json.load(open(out)))
    check("conv2d: img2col and cube work", p["mte1_l0a"]["transfers"] > 0 and p["cube"]["busy_cycles"] > 0, p)
rc, _, err = run("run", CONV, *conv_args, "-D", "TF=16", "-D", "TH=14", "-D", "TW=28", "-o", out + "2")
check("conv2d tile too big: exit 2 naming l0a", rc == 2 and "'l0a'" in err, (rc, err))

# A tile that cannot fit its buffer is an error naming the buffer.
rc, _, err = run("run", MATMUL, "-D", "M=256", "-D", "N=256", "-D", "K=256", "-D", "TM=256", "-D", "TN=256",
                 "-D", "TK=256", "--config", CFG, "-o", os.path.join(H.tmp, "no.json"))
check("256^3 tile: exit 2", rc == 2, (rc, err))
check("256^3 tile: names l0a", "'l0a'" in err and "matmul_tiled.pto:" in err, err)
check("no report left", not os.path.exists(os.path.join(H.tmp, "no.json")))

# config show: the roles and the engines.
rc, out, err = run("config", "show", CFG)
check("config show", rc == 0 and "role: l0a" in out and "mte1_l0b: {bandwidth: 132 B/cycle" in out, out + err)
# A bad engine key is an error at its line and key.
text = open(CFG).read().replace("    mte3: {", "    mte4: {")
bad = write("bad.yaml", text)
line = next(i for i, l in enumerate(text.splitlines(), 1) if "mte4" in l)
rc, _, err = run("config", "show", bad)
check("bad pipe: exit 2", rc == 2, (rc, err))
check("bad pipe: file:line key", f"bad.yaml:{line}" in err and "core.pipes.mte4" in err, err)

# The article's code runs on the NPU config (1_3 at a size whose copies fit
# the 1 MiB l1 and the 256 KiB ub; two at the small sizes cli_article uses,
# since their defaults take minutes).
SIZES = {"1_3_lifetime.pto": ["N=128"], "2_3_layouts.pto": ["B=2", "H=16", "W=16", "C=16"],
         "4_1_conv2d_basic.pto": ["C=2", "HW=6", "F=2"]}
for path in sorted(glob.glob(os.path.join(H.src, "examples", "article", "*.pto"))):
    args = [a for d in SIZES.get(os.path.basename(path), []) for a in ("-D", d)]
    rc, _, err = run("run", path, *args, "--config", CFG, "-o", os.path.join(H.tmp, "a.json"))
    check(f"article {os.path.basename(path)} on npu", rc == 0, err)

H.finish()
