#!/usr/bin/env python3
"""The article's snippets (examples/article/*.pto) run: each exits 0 on
configs/default.yaml at a small size with every pto.check passing, and the
three bugs pto-sim found in the article's code stay found when a snippet is
put back as the article wrote it.

Why a test: the examples are the article's code with the smallest changes
pto-sim needs; a language change that breaks one breaks the promise that
the article runs.

usage: article_examples_test.py PTO_SIM SOURCE_DIR
Prints one line per failure and a closing "N passed, N failed" line.
"""
import glob
import json
import os

from harness import Harness

H = Harness("pto-sim-article-")
run, check, write = H.run, H.check, H.write
DIR = os.path.join(H.src, "examples", "article")
CFG = os.path.join(H.src, "configs", "default.yaml")

# Small sizes (-D) per example; the examples' defaults are the article's where they fit.
SMALL = {
    "2_1_locality.pto": ["N=128"],
    "2_2_tiled_matmul.pto": ["M=128", "N=128", "K=64"],
    "2_3_layouts.pto": ["B=2", "H=16", "W=16", "C=16"],
    "3_1_explicit_reuse.pto": ["N=32"],
    "3_2_auto_reuse.pto": ["N=64"],
    "3_3_loop_reuse.pto": ["N=64", "ROWS=8", "D=16"],
    "4_1_conv2d_basic.pto": ["C=2", "HW=6", "F=2"],
    "4_1_conv2d_im2col_tiled.pto": ["C=4", "HW=8", "F=8"],
    "4_1_conv2d_cached.pto": ["C=2", "HW=16", "F=4"],
    "5_1_attention.pto": ["L=80", "D_MODEL=32"],
    "4_3_memory_profiler.pto": ["C=2", "HW=16", "F=4"],
    "6_1_visualizer.pto": ["C=2", "HW=16", "F=4", "HEATMAP=" + os.path.join(H.tmp, "heatmap.png"),
                           "TIMELINE=" + os.path.join(H.tmp, "timeline.png")],
    "6_2_cache_simulator.pto": ["N=128"],
}
# Examples whose pto.reuse serves nothing, and must say so on stderr.
REUSE_WARNINGS = {"3_1_explicit_reuse.pto": 2, "3_3_loop_reuse.pto": 1}


def defines(name):
    out = []
    for d in SMALL.get(name, []):
        out += ["-D", d]
    return out


def run_json(path, *args):
    code, out, err = run("run", path, "--config", CFG, "--format", "json", *args)
    try:
        return code, json.loads(out) if out.strip() else None, err
    except json.JSONDecodeError as e:
        return code, None, f"{err}\nbad JSON: {e}"


examples = sorted(glob.glob(os.path.join(DIR, "*.pto")))
check("at least 10 examples", len(examples) >= 10, [os.path.basename(e) for e in examples])
for path in examples:
    name = os.path.basename(path)
    text = open(path).read()
    # Each says which section it is and what changed (or that nothing did).
    check(f"{name}: header", text.startswith("# The article's "), text[:80])
    check(f"{name}: changes said", "Changes" in text, "no 'Changes' line in the header")
    check(f"{name}: article import", "import pypto as pto" in text)
    code, rep, err = run_json(path, *defines(name))
    if not check(f"{name}: exit 0", code == 0 and rep is not None, f"exit {code}: {err}"):
        continue
    prog = rep["program"]
    check(f"{name}: checks pass", prog["checks_failed"] == 0, prog.get("checks"))
    if "pto.check(" in text:
        check(f"{name}: checks ran", prog["checks_passed"] >= text.count("pto.check("), prog["checks_passed"])
    warnings = err.count(": warning: pto.reuse served nothing")
    check(f"{name}: reuse warnings", warnings == REUSE_WARNINGS.get(name, 0), err)
    # The report says why too, in the warning's words, on each row that served nothing (and only there).
    idle = [u for u in prog.get("reuse", []) if u["hits"] == 0]
    check(f"{name}: reuse rows say why", len(idle) == REUSE_WARNINGS.get(name, 0)
          and all(u.get("why") and f"pto.reuse served nothing: {u['why']}" in err for u in idle)
          and all("why" not in u for u in prog.get("reuse", []) if u["hits"]), prog.get("reuse"))


# 4.3 and 6.1 profile conv2d_cached: their copies of it are 4.1's, unchanged.
def helpers(name):
    text = open(os.path.join(DIR, name)).read()
    start = text.index("# CHANGED: added, the helper the snippet calls")
    return text[start:text.index("    return output\n", start)]


for name in ("4_3_memory_profiler.pto", "6_1_visualizer.pto"):
    check(f"{name}: conv2d_cached as in 4.1", helpers(name) == helpers("4_1_conv2d_cached.pto"))
for p in ("heatmap.png", "timeline.png"):
    path = os.path.join(H.tmp, p)
    check("6.1 drew " + p, os.path.exists(path) and open(path, "rb").read(4) == b"\x89PNG", path)
code, out, err = run("run", os.path.join(DIR, "4_3_memory_profiler.pto"), "--config", CFG, *defines("4_3_memory_profiler.pto"))
check("4.3 prints the article's lines", code == 0 and "Total memory accesses: " in out and "Cache miss rate: " in out
      and out.count("Hot spot ") >= 5, out + err)
code, out, err = run("run", os.path.join(DIR, "6_3_leak_detector.pto"), "--config", CFG)
check("6.3 finds the kept tiles", code == 0 and out.count(" 4096 bytes") == 4 and "Memory leaks detected:" in out, out + err)


def as_written(name, changed, original, *extra):
    """The example with one CHANGED line put back as the article has it."""
    text = open(os.path.join(DIR, name)).read()
    check(f"{name}: line to revert is there", changed in text, changed)
    path = write("orig_" + name, text.replace(changed, original))
    code, out, err = run("run", path, "--config", CFG, *defines(name), *extra)
    return code, out, err


# 1.3: `pto.store(result, output)` after the scope that freed `result`.
code, _, err = as_written("1_3_lifetime.pto",
                          "            pto.store(result, output)  # CHANGED: inside thread_block, where result is alive",
                          "        pto.store(result, output)")
check("1.3 as written: use after free", code == 2 and "use of freed tensor 'result'" in err, f"exit {code}: {err}")

# 5.1: output tiles [B, H, 64, head_dim] stored into scores [B, H, L, L].
code, _, err = as_written("5_1_attention.pto",
                          "[batch_size, num_heads, seq_len, head_dim], Q.dtype)  # CHANGED: head_dim, not seq_len",
                          "[batch_size, num_heads, seq_len, seq_len], Q.dtype)")
check("5.1 as written: shape mismatch", code == 2 and "5_1_attention.pto:62:" in err, f"exit {code}: {err}")

# 5.1: without the 1/sqrt(head_dim) scaling, the check against the reference fails.
code, _, err = as_written("5_1_attention.pto",
                          "        score_tile *= 1.0 / head_dim ** 0.5  # CHANGED: added, the 1/sqrt(d) scaling (in place: shared is full)\n",
                          "")
check("5.1 as written: unscaled scores fail the check", code == 1, f"exit {code}: {err}")

# 4.1 cached: the article's pto.parallel block has no loop; pto-sim refuses it.
code, _, err = as_written("4_1_conv2d_cached.pto",
                          "                for f in range(F):  # CHANGED: a loop over the filters, which pto.parallel spreads\n",
                          "                if True:\n")
check("4.1 as written: loop-less pto.parallel", code == 2 and "no `for` loop directly inside" in err, f"exit {code}: {err}")

H.finish()
