#!/usr/bin/env python3
"""End-to-end tests of `run --check-data` (docs/CACHES.md, "Data-integrity
mode"): every shipped workload on every shipped config keeps its data; random
din traces keep theirs under every replacement, write and inclusion policy;
the check does not change a single count; and a cache broken on purpose
(PTOSIM_TEST_CACHE_FAULT, test-only) is caught with its position.

usage: run_data_tests.py PTO_SIM SOURCE_DIR
Prints one line per failure and a closing "N passed, N failed" line.
"""
import glob
import json
import os
import random
import re
import subprocess

from harness import Harness

H = Harness("pto-sim-data-")
SRC, tmp = H.src, H.tmp
check, write = H.check, H.write


def run(*args, env=None):
    e = dict(H.env)
    e.pop("PTOSIM_TEST_CACHE_FAULT", None)
    e.update(env or {})
    p = subprocess.run([H.pto_sim, *args], capture_output=True, text=True, env=e, timeout=300)
    return p.returncode, p.stdout, p.stderr


# What differs between two runs of the same simulation: when and how it was invoked.
RUN_PROVENANCE = ("command_line", "started_at", "wall_seconds")


def run_json(*args, env=None):
    code, out, err = run("run", *args, "--format", "json", env=env)
    try:
        rep = json.loads(out) if out.strip() else None
    except json.JSONDecodeError as e:
        return code, None, f"{err}\nbad JSON: {e}"
    for k in RUN_PROVENANCE:
        if rep is not None:
            rep.pop(k, None)
    return code, rep, err


CONFIGS = sorted(glob.glob(os.path.join(SRC, "configs", "*.yaml")))
WORKLOADS = sorted(glob.glob(os.path.join(SRC, "workloads", "*.pto")))
# Where a workload's default tiles do not fit a config's register file or
# shared memory (the Xeon's 2 KiB of registers, tiny.yaml's 1 KiB / 4 KiB),
# smaller ones that do; the same failure happens without --check-data.
def D(**kw):
    return [x for k, v in kw.items() for x in ("-D", f"{k}={v}")]


DEFINES = {
    "xeon-gold-6248r.yaml": {"matmul_parallel.pto": D(TM=4), "matmul_reuse.pto": D(TM=8, TN=16),
                             "matmul_tiled.pto": D(TM=16, TN=16)},
    "tiny.yaml": {"attention_tiled.pto": D(L=16, D=8, TQ=8),
                  "conv2d_cached.pto": D(C=2, H=8, W=8, TF=4, TH=4, TW=4, SHARED_BYTES=2048, CONST_BYTES=512),
                  "conv2d_im2col_tiled.pto": D(C=2, H=8, W=8, F=4, TM=4, TN=16, TK=18),
                  "matmul_parallel.pto": D(M=16, N=16, K=16, TM=4),
                  "matmul_reuse.pto": D(M=16, N=16, K=16, TM=4, TN=8, TK=8),
                  "matmul_tiled.pto": D(M=32, N=32, K=32, TM=8, TN=8, TK=8)},
}
TINY_DEFINES = DEFINES["tiny.yaml"]
# Pairs that cannot run, as the workload's header says, and the error that
# says why (when the config changes, this fails and the pair runs again).
CANNOT = {}

# ---------------------------------------------------------------------------
# 1. Every shipped workload on every shipped config: exit 0, loads checked.
check("configs and workloads exist", len(CONFIGS) >= 5 and len(WORKLOADS) >= 13, (CONFIGS, WORKLOADS))
for cfg in CONFIGS:
    for w in WORKLOADS:
        name = f"{os.path.basename(w)} on {os.path.basename(cfg)}"
        d = DEFINES.get(os.path.basename(cfg), {}).get(os.path.basename(w), [])
        code, rep, err = run_json(w, "--config", cfg, "--check-data", *d)
        why = CANNOT.get((os.path.basename(cfg), os.path.basename(w)))
        if why:
            check(f"{name}: cannot run, and says why", code == 2 and why in err, (code, err[-500:]))
            continue
        if not check(f"{name}: --check-data exits 0", code == 0 and rep is not None, (code, err[-1500:])):
            continue
        dc = rep.pop("data_check", {})
        check(f"{name}: loads were checked", dc.get("reads_checked", 0) > 0, dc)
        check(f"{name}: the executor's tensors were compared", dc.get("tensors_compared", 0) > 0, dc)
        # The check changes nothing that is counted or timed (it implies --flush).
        code, plain, err = run_json(w, "--config", cfg, "--flush", *d)
        check(f"{name}: the same report without --check-data", code == 0 and plain == rep,
              [(a["name"], {k: (v, b.get(k)) for k, v in a.items() if b.get(k) != v})
               for a, b in zip((plain or {}).get("levels", []), rep["levels"]) if a != b] or err)

# Every dtype's encoding, a blocked layout, element writes and a tensor in
# shared memory, on every config.
P_DT = write("dtypes.pto", """\
A = pto.tensor([32, 48], pto.float16, init="random", seed=3)
B = pto.tensor([48, 16], pto.bfloat16, init="random", seed=4)
I = pto.tensor([64], pto.int32, init="arange")
J = pto.tensor([64], pto.int8, init="arange")
C = pto.matmul(A, B)
D = pto.add(I, J)
E = pto.tensor([8, 8], pto.float32, layout=pto.blocked([4, 4]), init="random", seed=5)
F = pto.multiply(E, 2.0)
for i in range(8):
    F[i, i] += 1.0
K = pto.tensor([16], pto.float32, memory="shared", init="ones")
L = pto.add(K, 3.0)
pto.check(D, I + J)
pto.output(C)
pto.output(F)
pto.output(L)
""")
for cfg in CONFIGS:
    code, rep, err = run_json(P_DT, "--config", cfg, "--check-data")
    check(f"dtypes program on {os.path.basename(cfg)}: --check-data exits 0",
          code == 0 and rep and rep["data_check"]["tensors_compared"] >= 10, (code, err))

# pto.parallel on 4 cores: the cores' queued events keep their bytes and
# positions, and the check (in the cores' clock order) still passes. The L1
# is shared: --check-data refuses private levels of several cores (their
# copies' bytes are not moved between cores; docs/CACHES.md "Several cores").
base = open(os.path.join(SRC, "configs", "tiny.yaml")).read()
CFG4 = write("tiny-4-cores.yaml", base.replace("vector_bytes: 16 B}", "vector_bytes: 16 B, cores: 4}")
             .replace("{name: L1, ", "{name: L1, sharing: shared, "))
check("4-core config with a shared L1", "sharing: shared" in open(CFG4).read(), base)
check("4-core config written", "cores: 4" in open(CFG4).read(), base)
P_PAR = os.path.join(SRC, "workloads", "matmul_parallel.pto")
code, rep, err = run_json(P_PAR, "--config", CFG4, "--check-data", *DEFINES["tiny.yaml"]["matmul_parallel.pto"])
check("matmul_parallel on 4 cores: --check-data exits 0", code == 0 and rep and rep["core"]["cores"] == 4 and
      rep["data_check"]["reads_checked"] > 0, (code, err))
code, out, err = run("run", P_PAR, "--config", CFG4, "--check-data", *DEFINES["tiny.yaml"]["matmul_parallel.pto"],
                     env={"PTOSIM_TEST_CACHE_FAULT": "drop-writeback"})
check("matmul_parallel on 4 cores, dropped writebacks: caught", code == 1 and "data check failed" in err, (code, err))

# ---------------------------------------------------------------------------
# 2. The check changes nothing that is counted or timed (it implies --flush).
P = os.path.join(SRC, "workloads", "conv2d_cached.pto")
for cfg in CONFIGS[:2]:
    c1, r1, e1 = run_json(P, "--config", cfg, "--flush")
    c2, r2, e2 = run_json(P, "--config", cfg, "--check-data")
    if check(f"same counts with and without --check-data ({os.path.basename(cfg)})",
             c1 == 0 and c2 == 0 and r1 and r2, (e1, e2)):
        r2.pop("data_check", None)
        check(f"identical reports ({os.path.basename(cfg)})", r1 == r2,
              [(a["name"], a.get("reads"), b.get("reads")) for a, b in zip(r1["levels"], r2["levels"]) if a != b])


# ---------------------------------------------------------------------------
# 3. Random traces with random data under every policy combination.
rng = random.Random(15)


def random_trace(path, n, span):
    with open(path, "w") as f:
        for _ in range(n):
            kind = rng.choice("rrw" if rng.random() < 0.8 else "rwwi")
            size = rng.choice([1, 2, 4, 8, 8, 16, 64, 100, 300])
            f.write(f"{kind} {rng.randrange(span):x} {size:x}\n")


TRACE = os.path.join(tmp, "random.din")
random_trace(TRACE, 20000, 1 << 14)
cases = 0
for repl in H.choices("replacement"):
    for wb in ("write_back", "write_through"):
        for alloc in ("true", "false"):
            for incl in ("non_inclusive", "inclusive"):
                cfg = write(f"c-{repl}-{wb}-{alloc}-{incl}.yaml", f"""\
name: random
caches:
  - {{name: L1, size: 1 KiB, ways: 2, line: 32 B, replacement: {repl}, write_policy: {wb}, write_allocate: {alloc}}}
  - {{name: L2, size: 4 KiB, ways: 4, line: 64 B, replacement: {repl}, write_policy: write_back, inclusion: {incl}}}
  - {{name: L3, size: 16 KiB, ways: 8, line: 64 B, replacement: {repl}, write_allocate: {alloc}, inclusion: {incl}}}
""")
                code, rep, err = run_json("--trace", TRACE, "--config", cfg, "--check-data")
                cases += 1
                check(f"random trace, {repl} {wb} allocate={alloc} {incl}: exit 0",
                      code == 0 and rep and rep["data_check"]["reads_checked"] > 10000, (code, err[-800:]))
# 8 combinations (write-back/through x allocate x inclusive) per registered policy.
check("every policy combination ran", cases == 8 * len(H.choices("replacement")), cases)
c1, r1, e1 = run_json("--trace", TRACE, "--config", cfg, "--flush")
c2, r2, e2 = run_json("--trace", TRACE, "--config", cfg, "--check-data")
if check("random trace: same report with and without --check-data", c1 == 0 and c2 == 0 and r1 and r2, (e1, e2)):
    r2.pop("data_check", None)
    check("random trace: identical reports", r1 == r2, (r1["levels"], r2["levels"]))

# Dinero IV's invalidate record `v` drops cached lines without writing them
# back: their dirty bytes are discarded, and a later load gets the older
# bytes below. That is what an invalidate means, not a lost write (it was
# reported as one); copybacks `c` write lines back. Line and whole-cache
# (size 0) records among random accesses, under every policy.
VTRACE = os.path.join(tmp, "invalidates.din")
with open(VTRACE, "w") as f:
    for _ in range(20000):
        x = rng.random()
        if x < 0.02:
            f.write(f"{rng.choice('vvc')} {rng.randrange(1 << 14):x} {rng.choice([0, 4, 4, 4, 4]):x}\n")
        else:
            f.write(f"{rng.choice('rrww')} {rng.randrange(1 << 14):x} {rng.choice([1, 4, 8, 64, 100]):x}\n")
for repl in H.choices("replacement"):
    for incl in ("non_inclusive", "inclusive"):
        cfg = write(f"v-{repl}-{incl}.yaml", f"""\
name: invalidates
caches:
  - {{name: L1, size: 1 KiB, ways: 2, line: 32 B, replacement: {repl}}}
  - {{name: L2, size: 4 KiB, ways: 4, line: 64 B, replacement: {repl}, inclusion: {incl}}}
  - {{name: L3, size: 16 KiB, ways: 32, line: 64 B, replacement: {repl}, write_policy: write_through, inclusion: {incl}}}
""")
        code, rep, err = run_json("--trace", VTRACE, "--config", cfg, "--check-data")
        check(f"v and c records, {repl} {incl}: exit 0, loads checked",
              code == 0 and rep and rep["data_check"]["reads_checked"] > 9000, (code, err[-800:],
                                                                                rep and rep["data_check"]))
vt = write("v-small.din", "w 0 4\nv 0 4\nr 0 4\nw 40 4\nv 0 0\n")
code, rep, err = run_json("--trace", vt, "--config", os.path.join(SRC, "configs", "tiny.yaml"), "--check-data")
check("w, v, r of one line: the read gets the older bytes, no data loss reported", code == 0, (code, err))

# A program's native trace (scratchpad spaces, strided accesses) replayed with made-up data.
NPU = os.path.join(SRC, "configs", "npu.yaml")
for w in ("conv2d_im2col_tiled.pto", "layernorm_gelu_fused.pto"):
    ptt = os.path.join(tmp, w + ".ptt")
    code, out, err = run("trace", os.path.join(SRC, "workloads", w), "--config", NPU, "-o", ptt)
    code2, rep, err2 = run_json("--trace", ptt, "--config", NPU, "--check-data")
    check(f"native trace of {w} on npu.yaml: --check-data exits 0", code == 0 and code2 == 0 and rep and
          rep["data_check"]["reads_checked"] > 0, (err, err2))

# ---------------------------------------------------------------------------
# 4. A cache broken on purpose is caught, with where and what.
TINY = os.path.join(SRC, "configs", "tiny.yaml")
for fault in ("drop-writeback", "stale-fill", "drop-writeback@L2", "stale-fill@L2"):
    env = {"PTOSIM_TEST_CACHE_FAULT": fault}
    code, out, err = run("run", "--trace", TRACE, "--config", TINY, "--check-data", env=env)
    check(f"trace, fault {fault}: exit 1 and no report", code == 1 and out == "", (code, out[:200], err))
    check(f"trace, fault {fault}: names the access, address, level and both values",
          re.search(r"random\.din: (access \d+|after the flush): data check failed: .* at 0x[0-9a-f]+ "
                    r"\(space \w+\) served by \w+( \(missed in [\w, ]+\))?: expected [0-9a-f ]+.*, got [0-9a-f ]+",
                    err), err)
    code, out, err = run("run", os.path.join(SRC, "workloads", "matmul_tiled.pto"), "--config", TINY,
                         "--check-data", *TINY_DEFINES["matmul_tiled.pto"], env=env)
    check(f"program, fault {fault}: exit 1", code == 1 and out == "", (code, err))
    check(f"program, fault {fault}: names the program position",
          re.search(r"matmul_tiled\.pto(:\d+:\d+)?(: after the flush)?: data check failed: ", err), err)
# A dropped writeback shows on a load that refetches the line: a position in the program.
code, out, err = run("run", os.path.join(SRC, "workloads", "layernorm_gelu_unfused.pto"), "--config", TINY,
                     "--check-data", env={"PTOSIM_TEST_CACHE_FAULT": "drop-writeback"})
check("dropped writeback caught at a program line", code == 1 and
      re.search(r"layernorm_gelu_unfused\.pto:\d+:\d+: data check failed: read of \d+ bytes", err), err)
# Without --check-data the fault switch does nothing (normal levels have no data path).
code, out, err = run("run", "--trace", TRACE, "--config", TINY, env={"PTOSIM_TEST_CACHE_FAULT": "drop-writeback"})
check("fault switch is inert without --check-data", code == 0, err)
code, out, err = run("run", "--trace", TRACE, "--config", TINY, "--check-data",
                     env={"PTOSIM_TEST_CACHE_FAULT": "lose-everything"})
check("unknown fault: exit 2 with a message", code == 2 and "PTOSIM_TEST_CACHE_FAULT: unknown fault" in err, err)

H.finish()
