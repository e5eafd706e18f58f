#!/usr/bin/env python3
"""End-to-end tests of `pto-sim run --sample` (docs/SAMPLING.md) against full
runs: over a fixed set of cases (kernels x configs x seeds, deterministic),
the full run's value of every headline metric lies inside the sampled run's
95 % interval in at least 92 % of the (case, metric) pairs (the issue asks
95 %: not met yet, see below); the same check fails on intervals made wrong
(half as wide, or none); the report's keys;
and every refusal (exit 2, naming the flag, no output file).
Usage: sample_tests.py PTO_SIM SOURCE_DIR"""
import concurrent.futures
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Harness

h = Harness("ptosim-sample-")
check, run, write = h.check, h.run, h.write
W = lambda n: os.path.join(h.src, "workloads", n)
C = lambda n: os.path.join(h.src, "configs", n)
T = lambda name: os.path.join(h.tmp, name)

# A din trace with reuse at several distances and writes.
rng = random.Random(9)
lines = []
for i in range(120000):
    hot = rng.random() < 0.7
    addr = rng.randrange(0, 24 * 1024) if hot else rng.randrange(0, 1024 * 1024)
    lines.append(f"{'w' if rng.random() < 0.25 else 'r'} {0x200000 + (addr & ~7):x} 8")
DIN = write("mix.din", "\n".join(lines) + "\n")

KERNELS = {
    "matmul_naive": [W("matmul_naive.pto"), "-D", "M=40", "-D", "N=40", "-D", "K=40"],
    "conv2d_basic": [W("conv2d_basic.pto"), "-D", "C=8", "-D", "H=16", "-D", "W=16", "-D", "F=4"],
    "attention_naive": [W("attention_naive.pto"), "-D", "L=96", "-D", "D=32"],
    "conv2d_im2col_tiled": [W("conv2d_im2col_tiled.pto"), "-D", "C=8", "-D", "H=24", "-D", "W=24", "-D", "F=16",
                            "-D", "TM=8", "-D", "TN=16", "-D", "TK=16"],
    "trace": ["--trace", DIN],
}
# The kernels are cut down to seconds, so are the caches (else the data
# fits and misses are a handful of compulsory ones, no steady state).
SMALL = lambda *levels: [x for l in levels for x in ("--set", l)]
CONFIGS = {
    "default-small": SMALL("caches.L1.size=4KiB", "caches.L2.size=32KiB"),
    "tiny": ["--config", C("tiny.yaml")],
    "xeon-simple-small": ["--config", C("xeon-gold-6248r.yaml"), "--set", "core.model=simple",
                          *SMALL("caches.L1D.size=4KiB", "caches.L2.size=16KiB", "caches.L3.size=44KiB")],
}
SEEDS = [1, 2, 3, 4]
SAMPLE = ["--sample", "--sample-unit", "100", "--sample-every", "10", "--sample-warmup", "400"]


def report(args):
    code, out, err = run("run", *args, "--format", "json", timeout=300)
    return (json.loads(out) if code == 0 else None), err


def truth(rep, metric):
    if metric in ("cycles", "seconds", "dram_bytes"):
        return rep[metric]
    name, key = metric.rsplit(".", 1)
    return next(l for l in rep["levels"] if l["name"] == name)[key]


jobs = {}
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    for k, kargs in KERNELS.items():
        for c, cargs in CONFIGS.items():
            jobs[(k, c, None)] = pool.submit(report, kargs + cargs)
            for s in SEEDS:
                jobs[(k, c, s)] = pool.submit(report, kargs + cargs + SAMPLE + ["--sample-seed", str(s)])
    results = {key: f.result() for key, f in jobs.items()}

pairs = []  # (case, metric, truth, estimate, half_width)
for (k, c, s), (rep, err) in sorted(results.items(), key=lambda x: str(x[0])):
    if not check(f"{k} {c} seed {s}: runs", rep is not None, err):
        continue
    if s is None:
        check(f"{k} {c}: a full run is not marked sampled", "sampled" not in rep and "sample" not in rep, rep.keys())
        continue
    full = results[(k, c, None)][0]
    if full is None:
        continue
    sm = rep["sample"]
    check(f"{k} {c} {s}: sampled, parameters", rep.get("sampled") is True and sm["unit_accesses"] == 100 and
          sm["period_accesses"] == 1000 and sm["warmup_accesses"] == 400 and sm["warming"] == "functional" and
          sm["confidence"] == 0.95, sm)
    check(f"{k} {c} {s}: enough units", sm["units"] >= 20, sm["units"])
    # The stream is the full run's: every line request of it.
    check(f"{k} {c} {s}: stream = the full run's line requests", sm["stream_accesses"] == full["core"]["line_requests"],
          (sm["stream_accesses"], full["core"]["line_requests"]))
    check(f"{k} {c} {s}: flops exact", rep.get("flops") == full.get("flops"), (rep.get("flops"), full.get("flops")))
    names = [iv["name"] for iv in sm["intervals"]]
    caches = [l["name"] for l in full["levels"] if l["kind"] == "cache"]
    want = ["cycles", "seconds"] + [f"{n}.demand_misses" for n in caches] + ["dram_bytes"]
    check(f"{k} {c} {s}: one interval per headline metric", names == want, names)
    for iv in sm["intervals"]:
        ok = abs(iv["high"] - iv["low"] - 2 * iv["half_width"]) <= 1e-6 * max(1.0, abs(iv["estimate"]))
        check(f"{k} {c} {s} {iv['name']}: low/high/half_width agree", ok, iv)
        pairs.append((f"{k} {c} {s}", iv["name"], truth(full, iv["name"]), iv["estimate"], iv["half_width"]))
    # The headline keys are the estimates.
    check(f"{k} {c} {s}: cycles is the estimate", abs(rep["cycles"] - sm["intervals"][0]["estimate"]) <= 0.5,
          (rep["cycles"], sm["intervals"][0]["estimate"]))
    check(f"{k} {c} {s}: dram_bytes is the estimate", abs(rep["dram_bytes"] - max(0, sm["intervals"][-1]["estimate"])) <= 0.5,
          (rep["dram_bytes"], sm["intervals"][-1]["estimate"]))


def coverage(scale):
    inside = [lo <= t <= hi for _, _, t, e, hw in pairs for lo, hi in [(e - scale * hw, e + scale * hw)]]
    return sum(inside) / max(1, len(inside))


cov = coverage(1.0)
print(f"coverage: {100 * cov:.1f} % of {len(pairs)} (case, metric) pairs inside the 95 % interval; "
      f"at half the width {100 * coverage(0.5):.1f} %, at none {100 * coverage(0.0):.1f} %")
check("enough pairs for a real check", len(pairs) >= 200, len(pairs))
missed = [p for p in pairs if not (p[3] - p[4] <= p[2] <= p[3] + p[4])]
# The issue asks >= 95 %; measured 92.5 % (2026-12-06, with the
# occurrence bound for metrics few units carry; 91.2 % before). Every pair
# still missed is an underestimate (docs/SAMPLING.md "How good the intervals
# are"): a bias, not an interval too narrow. The bound asserted is what is
# met, so that a regression shows; 95 % is still open.
check("the full run's value inside the interval in >= 95 % of pairs", cov >= 0.95,
      "\n".join(f"{c} {m}: true {t} estimate {e} +- {hw}" for c, m, t, e, hw in missed[:40]))
# The check can fail: intervals computed wrongly (none, half as wide) miss too often.
check("zero-width intervals fail the same check", coverage(0.0) < 0.90, coverage(0.0))
check("half-width intervals fail the same check", coverage(0.5) < 0.90, coverage(0.5))
# Estimates, not noise: most within 10 % of the truth (measured 80 %).
close = sum(abs(e - t) <= 0.10 * abs(t) for _, _, t, e, _ in pairs if t) / max(1, sum(1 for p in pairs if p[2]))
print(f"{100 * close:.1f} % of the estimates within 10 % of the full run")
check("estimates within 10 % of the full run for >= 75 % of pairs", close >= 0.75, close)

# A sampled run skips tensor values (values_off) unless --sample-values: the
# events, so every estimate and interval, are the same either way.
ATT = KERNELS["attention_naive"] + SAMPLE
off, err = report(ATT)
on, err2 = report(ATT + ["--sample-values"])
if check("--sample-values runs", off is not None and on is not None, err + err2):
    check("a sampled run skips values unless --sample-values", off.get("values_off") is True and "values_off" not in on,
          (off.get("values_off"), on.get("values_off")))
    check("values change no estimate", off["sample"]["intervals"] == on["sample"]["intervals"],
          (off["sample"]["intervals"], on["sample"]["intervals"]))

# Warming none runs and says so.
rep, err = report(KERNELS["matmul_naive"] + SAMPLE + ["--sample-warming", "none"])
check("warming none", rep is not None and rep["sample"]["warming"] == "none", err)

# Without --sample-warmup the warm-up is 2 x U, as far as it fits (U=100, k=2: 100).
rep, err = report(KERNELS["matmul_naive"] + ["--sample", "--sample-unit", "100", "--sample-every", "2"])
check("default warm-up fits", rep is not None and rep["sample"]["warmup_accesses"] == 100, err)
rep, err = report(KERNELS["matmul_naive"] + ["--sample", "--sample-unit", "100"])
check("default warm-up 2 x U", rep is not None and rep["sample"]["warmup_accesses"] == 200, err)

# The text report shows the estimates.
code, out, err = run("run", *KERNELS["matmul_naive"], *SAMPLE)
check("text: sampled block", code == 0 and "sampled: " in out and "95 % intervals" in out and "cycles " in out, out + err)

# run --warm-before-compute (tune's probes): conv2d's im2col only warms.
CONV = KERNELS["conv2d_im2col_tiled"]
full, err = report(CONV)
warm, err2 = report(CONV + ["--warm-before-compute"])
if check("warm-before-compute runs", full is not None and warm is not None, err + err2):
    l1 = lambda r: next(l for l in r["levels"] if l["name"] == "L1")
    check("warm-before-compute: marked, flops exact, the prefix not counted",
          warm.get("prefix_warmed") is True and "prefix_warmed" not in full and warm["flops"] == full["flops"] and
          0 < warm["core"]["accesses"] < full["core"]["accesses"] and
          l1(warm)["reads"] + l1(warm)["writes"] < l1(full)["reads"] + l1(full)["writes"] and warm["cycles"] < full["cycles"],
          (warm["core"], full["core"]))
for flags, msg in [(["--trace", DIN, "--warm-before-compute"], "--warm-before-compute: needs a PROGRAM"),
                   (["--trace", DIN, "--sample", "--sample-values"], "--sample-values: needs a PROGRAM"),
                   (CONV + ["--warm-before-compute", "--set", "core.cores=2"], "--warm-before-compute: warms one core's"),
                   (CONV + ["--warm-before-compute", "--sample"], "--warm-before-compute: cannot be combined with --sample")]:
    code, _, err = run("run", *flags)
    check(f"refused {' '.join(flags[-3:])}", code == 2 and msg in err, (code, err[-300:]))

# Refusals: exit 2, the flag named, no output file.
BAD = [
    (["--sample", "--sample-unit", "0"], "--sample-unit: must be at least 1"),
    (["--sample", "--sample-every", "1"], "--sample-every: must be at least 2"),
    (["--sample", "--sample-unit", "100", "--sample-every", "3", "--sample-warmup", "201"], "--sample-warmup: 201"),
    (["--sample", "--sample-warming", "full"], "--sample-warming: 'full' is not one of functional | none"),
    (["--sample-unit", "100"], "--sample-unit: needs --sample"),
    (["--sample-values"], "--sample-values: needs --sample"),
    (["--sample", "--check-data"], "--sample: cannot be combined with --check-data"),
    (["--sample", "--flush"], "--sample: cannot be combined with --flush"),
    (["--sample", "--by-line"], "--sample: cannot be combined with --by-line"),
    (["--sample", "--stop-after", "100"], "--sample: cannot be combined with --stop-after"),
    (["--sample", "--set", "core.cores=2"], "--sample: samples one core's stream"),
    (["--sample", "--config", C("xeon-gold-6248r.yaml")], "--sample: core.model 'cpu'"),
    (["--sample", "--sample-unit", "100000"], "--sample: the stream held"),
]
for i, (flags, msg) in enumerate(BAD):
    out = T(f"bad{i}.json")
    code, _, err = run("run", *KERNELS["matmul_naive"], *flags, "-o", out)
    check(f"refused {' '.join(flags)}: exit 2, message", code == 2 and msg in err, (code, err[-400:]))
    check(f"refused {' '.join(flags)}: no output", not os.path.exists(out))
h.finish()
