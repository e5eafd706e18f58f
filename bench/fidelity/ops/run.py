#!/usr/bin/env python3
"""Op-level fidelity (issue 26, item 4): does pto-sim rank tiled ops the way this machine does?

Why it exists: users ask pto-sim "which tile, which schedule is faster?" about
ops (pto.matmul under pto.tile, conv2d, attention, LayerNorm+GELU), not about
hand-written loop nests (../run.py). This times native C++ twins of each op
(ops.cpp: packed tiles and a register-blocked FMA micro-kernel, vectorised
loops, fp32, one thread, `-O3 -march=native`) and predicts each with
`pto-sim run` of its .pto twin (workloads/*.pto where one matches, else
pto/*.pto) on a config of this machine.

    python3 bench/fidelity/ops/run.py BUILD_DIR [--config FILE] [--rounds 5] [--quick] [--json OUT]
    python3 bench/fidelity/ops/run.py BUILD_DIR --quick --check      # the CTest: the harness works
    python3 bench/fidelity/ops/run.py BUILD_DIR --measured OLD.json --config OLD.yaml   # predictions only

--json keeps the config's text too ("config_yaml": the one `config host
--measure` wrote for this run, which lives in a temporary directory).
--measured takes the native times (and the canary) of an earlier run's
--json instead of timing again: a new lowering compared against the same
measurement (measured/ keeps this session's, with the config it predicted on).

Prints the table (native ms, predicted ms, predicted / native), the Spearman
rank correlation over the suite, the share of variants within [0.67, 1.5] of
native, whether pto-sim's best matmul tile is within 10 % of the host's best
(the native time of the tile pto-sim predicts fastest against the fastest
native tile), both orderings, and the canary's verdict on the core.

Timing: one call from cold caches on both sides (the native side streams a
64 MiB buffer through before each timed call, ../timing.h; the simulator
starts every run cold), not ../run.py's warm REPS=2 - REPS=1. The twins are
the shipped workloads, which have no REPS parameter (and workloads/ is not
this suite's to change); a REPS loop would also double the simulation of
programs that already take 10-30 s to simulate. The ops run for milliseconds
on working sets of 1-16 MiB, so the cold start (each operand's first touch
from DRAM) is a small share, charged on both sides. The native time is the
minimum over --rounds interleaved rounds by the thread's CPU time, measured
twice, as ../run.py does.

A twin that cannot run on the config (an allocation the config's spaces
cannot hold) has no prediction: it is listed as infeasible, left out of the
Spearman, and counted outside [0.67, 1.5]. --check fails on a native
kernel whose output is wrong, a twin whose pto.check fails or that errs
otherwise, never on timing; --require-predictions makes an infeasible twin
a failure too.

Config: without --config, `pto-sim config host --measure`. A VM whose kernel
has no /sys/devices/system/cpu/cpu0/cache (an AMD EPYC VM, 2026-12-05) gets
its cache levels from CPUID inside pto-sim (docs/CONFIG.md, "config host").
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.dirname(HERE))
from run import core_lines, load_average, ranks, spearman, work_dir  # noqa: E402  (../run.py: one implementation)

WL = os.path.join(ROOT, "workloads")
OWN = os.path.join(HERE, "pto")

# The article's recommendations (64x64x32, 128x128x64), the extremes of
# issue 26 (16x16x16, 256x256x64, 4x512x512, skinny 32x256 / 256x32) and
# the squares between.
TILES = [(16, 16, 16), (16, 16, 32), (32, 32, 32), (64, 64, 32), (64, 64, 64), (128, 128, 32), (128, 128, 64),
         (256, 256, 32), (256, 256, 64), (32, 256, 32), (256, 32, 32), (64, 256, 64), (4, 512, 512)]
QUICK_TILES = [(16, 16, 16), (32, 32, 32), (64, 64, 32), (128, 128, 64), (4, 128, 128)]


def suite(quick):
    """(name, native kind, pto file, parameters): the parameters are the twin's -D names, the native spec's too."""
    v = []
    n = 128 if quick else 512
    for tm, tn, tk in QUICK_TILES if quick else TILES:
        v.append((f"mm_{tm}x{tn}x{tk}", "matmul_tiled", os.path.join(WL, "matmul_tiled.pto"),
                  dict(M=n, N=n, K=n, TM=tm, TN=tn, TK=tk)))
    v.append(("mm_untiled_ikj", "matmul_ikj", os.path.join(OWN, "matmul_ikj_rows.pto"), dict(M=n, N=n, K=n)))
    # A ResNet 3x3 layer (64 -> 64 channels at 28x28, pad 1), one image.
    conv = dict(C=16, H=16, W=16, F=16) if quick else dict(C=64, H=28, W=28, F=64)
    im2col_tiles = dict(TM=16, TN=64, TK=48) if quick else dict(TM=64, TN=112, TK=64)
    conv_tiles = dict(TF=8, TH=4, TW=16, TC=8) if quick else dict(TF=16, TH=7, TW=28, TC=16)
    v.append(("conv_basic", "conv_basic", os.path.join(OWN, "conv2d_op.pto"), dict(conv)))
    v.append(("conv_im2col_tiled", "conv_im2col", os.path.join(WL, "conv2d_im2col_tiled.pto"),
              dict(conv, **im2col_tiles)))
    v.append(("conv_tiled", "conv_tiled", os.path.join(OWN, "conv2d_tiled.pto"), dict(conv, **conv_tiles)))
    L = 256 if quick else 1024
    v.append(("attention_naive", "attention_naive", os.path.join(WL, "attention_naive.pto"), dict(L=L, D=64)))
    v.append(("attention_tiled", "attention_tiled", os.path.join(WL, "attention_tiled.pto"),
              dict(L=L, D=64, TQ=32 if quick else 64)))
    R = 256 if quick else 1024
    v.append(("layernorm_gelu_unfused", "ln_unfused", os.path.join(WL, "layernorm_gelu_unfused.pto"), dict(R=R, H=R)))
    v.append(("layernorm_gelu_fused", "ln_fused", os.path.join(WL, "layernorm_gelu_fused.pto"), dict(R=R, H=R)))
    v.append(("reduce_rows", "reduce_rows", os.path.join(OWN, "reduce_rows.pto"),
              dict(R=512, H=512) if quick else dict(R=2048, H=2048)))
    v.append(("elementwise_chain", "ew_chain", os.path.join(OWN, "elementwise_chain.pto"), dict(R=R, H=R)))
    return v


def spec(kind, params):
    return ",".join([kind] + [f"{k}={val}" for k, val in params.items()])


def host_config(sim, work):
    path = os.path.join(work, "host.yaml")
    r = subprocess.run([sim, "config", "host", "--measure"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"pto-sim config host --measure failed: {r.stderr.strip()}")
    with open(path, "w") as f:
        f.write(r.stdout)
    return path


def build_native(work):
    """ops.cpp compiled into work/ops (also experiments/conv2d_ladder/native's native side)."""
    exe = os.path.join(work, "ops")
    subprocess.run(["g++", "-std=c++17", "-O3", "-march=native", "-ffp-contract=fast", "-fopenmp-simd", "-o", exe,
                    os.path.join(HERE, "ops.cpp")], check=True)
    return exe


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", help="a build directory holding sim/cli/pto-sim (any: /work/main/build too)")
    ap.add_argument("--config", help="a config of this machine (default: pto-sim config host --measure)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="a reduced set at reduced sizes (CI)")
    ap.add_argument("--check", action="store_true",
                    help="fail when a native output is wrong or a twin fails its check or errs; no timing thresholds")
    ap.add_argument("--require-predictions", action="store_true", help="with --check: an infeasible twin fails too")
    ap.add_argument("--only", help="comma-separated variants")
    ap.add_argument("--json", help="write the figures here too")
    ap.add_argument("-j", type=int, default=2, help="simulations at once")
    ap.add_argument("--measured", help="an earlier run's --json: its native times, nothing timed again")
    a = ap.parse_args()
    sim = os.path.abspath(os.path.join(a.build, "sim", "cli", "pto-sim"))
    if not os.path.exists(sim):
        sys.exit(f"{sim}: no pto-sim in this build directory")
    work = work_dir("pto-opfid-")
    variants = suite(a.quick)
    if a.only:
        variants = [v for v in variants if v[0] in a.only.split(",")]
    names = [v[0] for v in variants]
    specs = {v[0]: spec(v[1], v[3]) for v in variants}

    cfg = a.config or host_config(sim, work)
    print(f"config: {cfg}" + (" (removed at exit; --json keeps its text)" if cfg.startswith(work) else ""),
          file=sys.stderr)
    exe = build_native(work)

    failures = []
    if a.check:  # every native twin computes the op (largest error relative to the output's scale)
        out = subprocess.run([exe, "--verify"] + list(specs.values()), capture_output=True, text=True, check=True)
        errs = {l.split()[0]: float(l.split()[1]) for l in out.stdout.splitlines()}
        for n in names:
            if not errs.get(specs[n], 1) < 1e-4:
                failures.append(f"{n}: native output off by {errs.get(specs[n])} of its scale")

    def simulate(v):
        name, _, pto, params = v
        cmd = [sim, "run", pto, "--config", cfg, "--format", "json"]
        for k, val in params.items():
            cmd += ["-D", f"{k}={val}"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            err = next((l for l in r.stderr.splitlines() if l.strip()), "no message")
            if err.startswith(pto + ":"):  # "FILE:LINE:COL: message" -> "LINE:COL: message"
                err = err[len(pto) + 1:]
            kind = "infeasible" if "cannot allocate" in r.stderr else "error"
            return name, {"status": kind, "message": err, "command": " ".join(cmd)}
        rep = json.loads(r.stdout)
        prog = rep["program"]
        status = "ok" if prog["checks_failed"] == 0 and prog["checks_passed"] > 0 else "check failed"
        return name, {"status": status, "seconds": rep["seconds"], "cycles": rep["cycles"],
                      "dram_bytes": rep.get("dram_bytes"), "command": " ".join(cmd)}

    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        sim_future = [pool.submit(simulate, v) for v in variants]

        def measure():
            out = subprocess.run([exe, "--rounds", str(a.rounds), "--cold"] + [specs[n] for n in names],
                                 capture_output=True, text=True, check=True)
            lines = out.stdout.splitlines()
            canaries.append([float(x) for l in lines if l.startswith("#canary") for x in l.split()[1:]])
            by_spec = {l.split()[0]: float(l.split()[1]) for l in lines if not l.startswith("#")}
            return {n: by_spec[specs[n]] for n in names}

        # The simulations run first (on the -j cores), the native timing after
        # them, so that the simulator does not share the core it measures.
        sims = dict(f.result() for f in sim_future)
    canaries = []
    if a.measured:
        with open(a.measured) as f:
            old = json.load(f)
        missing = [n for n in names if n not in old["first"] or old["specs"].get(n) != specs[n]]
        if missing:
            sys.exit(f"{a.measured}: no measurement of {', '.join(missing)} at this size")
        first, second, loads, canaries = old["first"], old["second"], old["load"], old.get("canary", [])
    else:
        loads = [load_average()]
        first = measure()
        second = measure()
        loads.append(load_average())
    native = {n: min(first[n], second[n]) for n in names}

    for n in names:
        s = sims[n]
        if s["status"] in ("error", "check failed") or (a.require_predictions and s["status"] == "infeasible"):
            failures.append(f"{n}: {s['status']}: {s.get('message', '')} ({s['command']})")
    pred = {n: sims[n]["seconds"] for n in names if sims[n]["status"] == "ok"}
    have = [n for n in names if n in pred]
    nr = dict(zip(names, ranks([native[n] for n in names])))
    pr = dict(zip(have, ranks([pred[n] for n in have]))) if have else {}

    print("| variant | twin | native ms (1st / 2nd) | predicted ms | predicted / native | rank native | rank predicted |")
    print("|---|---|---|---|---|---|---|")
    for v in variants:
        n, pto = v[0], os.path.relpath(v[2], ROOT)
        if n in pred:
            p = f"{pred[n] * 1e3:.3f} | {pred[n] / native[n]:.2f} | {nr[n]:g} | {pr[n]:g}"
        else:
            p = f"{sims[n]['status']}: {sims[n].get('message', '')} | - | {nr[n]:g} | -"
        print(f"| {n} | {pto} | {first[n] * 1e3:.3f} / {second[n] * 1e3:.3f} | {p} |")
    print()

    rho = spearman([native[n] for n in have], [pred[n] for n in have]) if len(have) > 1 else float("nan")
    within = [n for n in have if 0.67 <= pred[n] / native[n] <= 1.5]
    ratios = [pred[n] / native[n] for n in have]
    agree = spearman([first[n] for n in names], [second[n] for n in names])
    print(f"Spearman {rho:.3f} over the {len(have)} of {len(names)} variants with a prediction; "
          f"{len(within)} of {len(names)} ({100 * len(within) / len(names):.0f} %) within [0.67, 1.5]"
          + (f" (ratios {min(ratios):.2f}-{max(ratios):.2f})" if ratios else "")
          + f"; {len(names) - len(have)} without a prediction")
    tiles = [n for n in names if n.startswith("mm_") and n != "mm_untiled_ikj"]
    best = {}
    if tiles:
        host_best = min(tiles, key=lambda n: native[n])
        best = {"host_best": host_best, "host_best_ms": native[host_best] * 1e3}
        ptiles = [n for n in tiles if n in pred]
        if ptiles:
            sim_best = min(ptiles, key=lambda n: pred[n])
            gap = native[sim_best] / native[host_best]
            best.update(sim_best=sim_best, sim_best_native_ms=native[sim_best] * 1e3, gap=gap,
                        within_10pct=gap <= 1.10, tiles_predicted=len(ptiles), tiles=len(tiles))
            print(f"Best matmul tile: host {host_best} ({native[host_best] * 1e3:.3f} ms); pto-sim's {sim_best} runs "
                  f"natively in {native[sim_best] * 1e3:.3f} ms, {gap:.2f}x the host's best: "
                  f"{'within' if gap <= 1.10 else 'not within'} 10 % ({len(ptiles)} of {len(tiles)} tiles predicted)")
        else:
            print(f"Best matmul tile: host {host_best}; pto-sim predicts none of the {len(tiles)} tiles")
    print("Native order:    " + " < ".join(sorted(names, key=lambda n: native[n])))
    print("Predicted order: " + " < ".join(sorted(have, key=lambda n: pred[n])))
    rounds = f"measured earlier ({a.measured})" if a.measured else f"{a.rounds} interleaved cold rounds each"
    print(f"The two native measurements agree at Spearman {agree:.3f}; {rounds}; "
          f"load average {loads[0]} before, {loads[1]} after measuring")
    for line in core_lines(canaries, cfg):
        print(line)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"native": native, "first": first, "second": second, "predicted": pred, "sims": sims,
                       "specs": specs, "spearman": rho, "within": len(within), "variants": len(names),
                       "predicted_variants": len(have), "best_tile": best, "measured_agreement": agree,
                       "load": loads, "canary": canaries, "config": cfg, "config_yaml": open(cfg).read(), "quick": a.quick}, f, indent=1)
    if a.check:
        for msg in failures:
            print(f"FAIL {msg}", file=sys.stderr)
        print(f"harness check: {len(failures)} failure(s); {sum(s['status'] == 'infeasible' for s in sims.values())} "
              f"twin(s) infeasible on this config", file=sys.stderr)
        sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
