#!/usr/bin/env python3
"""The article's tools in a program (sim/frontend/tools.h) against pto-sim's
own figures: a MemoryProfiler block around the whole program reads what the
report says, two blocks add up to it, get_hot_spots is the report's hot
spots; a CacheSimulator's counts equal a run on a config of its geometry; a
MemoryLeakDetector finds what --leaks finds; a MemoryVisualizer's pictures
are PNG files; and every misuse is an error at its line (exit 2), never a
silent no-op.

usage: tools_tests.py PTO_SIM SOURCE_DIR
"""
import json
import os

from harness import Harness, level

H = Harness("pto-sim-tools-")
run, check, write, tmp = H.run, H.check, H.write, H.tmp
DEFAULT = os.path.join(H.src, "configs", "default.yaml")


def run_json(*args):
    code, out, err = run("run", *args, "--format", "json")
    try:
        return code, json.loads(out) if out.strip() else None, err
    except json.JSONDecodeError as e:
        return code, None, f"{err}\nbad JSON: {e}"


def printed(err, key):
    """The value printed (on stderr, beside a JSON report) after `key=`."""
    for line in err.splitlines():
        if line.startswith(key + "="):
            return json.loads(line[len(key) + 1:].replace("'", '"'))
    return None


# ---- MemoryProfiler: one block around everything = the run's figures ----
KERNEL = """\
A = pto.tensor([128, 128], pto.float32, init="random", seed=1)
B = pto.tensor([128, 128], pto.float32, init="random", seed=2)
def kernel():
    with pto.tile(M=32, N=32, K=32):
        return pto.matmul(A, B)
"""
WHOLE = write("whole.pto", KERNEL + """\
p = pto.MemoryProfiler()
with p.profile("all"):
    C = kernel()
    D = pto.add(C, 1.0)
s = p.get_memory_stats()
print("L1=" + str([s["levels"]["L1"]["accesses"], s["levels"]["L1"]["misses"]]))
print("dram=" + str(s["dram_bytes"]))
print("total=" + str([s["total_accesses"], s["cache_hits"], s["cache_misses"]]))
print("hot=" + str(p.get_hot_spots(3)))
print("cycles=" + str(s["cycles"]))
""")
code, rep, err = run_json(WHOLE, "--config", DEFAULT)
if check("profiler run", code == 0 and rep, err):
    l1 = level(rep, "L1")
    check("profiler L1 = report", printed(err, "L1") == [l1["reads"] + l1["writes"], l1["read_misses"] + l1["write_misses"]],
          (printed(err, "L1"), l1["reads"], l1["writes"]))
    check("profiler DRAM bytes = report", printed(err, "dram") == rep["dram_bytes"], (printed(err, "dram"), rep["dram_bytes"]))
    firsts = [l for l in rep["levels"] if l["kind"] in ("register", "scratchpad", "constant") or l["name"] == "L1"]
    total = sum(l["reads"] + l["writes"] for l in firsts)
    hits = sum(l["read_hits"] + l["write_hits"] for l in firsts)
    check("total_accesses and cache_hits: the levels the core talks to", printed(err, "total") == [total, hits, total - hits],
          (printed(err, "total"), total, hits))
    # The profiler turns hot tiles on: its hot spots are the report's.
    want = {}
    for lv in rep["hot_spots"]:
        if lv["name"] in [l["name"] for l in firsts]:
            for row in lv["by_accesses"]:
                want[row["name"]] = want.get(row["name"], 0) + row["accesses"]
    top = dict(sorted(want.items(), key=lambda kv: -kv[1])[:3])
    hot = printed(err, "hot")
    check("get_hot_spots = the report's hot tiles", hot is not None and list(hot.values()) == sorted(top.values(), reverse=True)
          and all(want.get(k) == v for k, v in hot.items()), (hot, top))
    cyc = printed(err, "cycles")
    check("block cycles within the run's", cyc is not None and 0 < cyc <= rep["cycles"], (cyc, rep["cycles"]))

# Two blocks in a row add up to one around both (counts are exact).
TWO = write("two.pto", KERNEL + """\
p = pto.MemoryProfiler()
with p.profile("mm"):
    C = kernel()
a = p.get_memory_stats()
with p.profile("add"):
    D = pto.add(C, 1.0)
b = p.get_memory_stats()
print("sum=" + str([a["total_accesses"] + b["total_accesses"], a["dram_bytes"] + b["dram_bytes"]]))
""")
code, out2, err2 = run("run", TWO, "--config", DEFAULT)
code1, out1, err1 = run("run", WHOLE, "--config", DEFAULT)
if check("two blocks run", code == 0 and code1 == 0, err2 + err1):
    whole_total = printed(out1, "total")
    check("two blocks add up", printed(out2, "sum") == [whole_total[0], printed(out1, "dram")], (out2, out1))

# Regions: the profile block is a region of the report, and frees nothing.
code, rep, err = run_json(WHOLE, "--config", DEFAULT)
regions = [r["name"] for r in level(rep, "L1").get("regions", [])] if rep else []
check("profile block is a region", "all" in regions, regions)

# ---- errors: never a silent no-op ----
def fails(name, text, want, *args, cmd="run"):
    path = write(name, text)
    code, out, err = run(cmd, path, "--config", DEFAULT, *args)
    check(name, code == 2 and want in err and (cmd != "run" or out == ""), f"exit {code}: {err}")

fails("stats_before_block.pto", "p = pto.MemoryProfiler()\ns = p.get_memory_stats()\n",
      "stats_before_block.pto:2:5: get_memory_stats: no profile block has ended yet")
fails("stats_in_check.pto", KERNEL + "p = pto.MemoryProfiler()\nwith p.profile('x'):\n    C = kernel()\ns = p.get_memory_stats()\n",
      "this command simulates nothing (use `pto-sim run`)", cmd="check")
fails("nested.pto", "p = pto.MemoryProfiler()\nwith p.profile('a'):\n    with p.profile('b'):\n        pass\n",
      "nested.pto:3:10: MemoryProfiler.profile blocks of one MemoryProfiler do not nest")
fails("parallel.pto", "p = pto.MemoryProfiler()\nA = pto.tensor([8], pto.float32)\n"
      "with pto.parallel(num=2):\n    for i in range(8):\n        with p.profile('x'):\n            A[i] = 1.0\n",
      "inside pto.parallel")
fails("not_a_block.pto", "p = pto.MemoryProfiler()\nwith p.get_hot_spots:\n    pass\n", "'with' needs a pto scope")
fails("not_a_block2.pto", "d = {'a': 1}\nwith d.get('a'):\n    pass\n", "got 'int'")
fails("bad_method.pto", "p = pto.MemoryProfiler()\np.heatmap()\n", "'MemoryProfiler' object has no attribute 'heatmap'")
fails("bad_png.pto", "v = pto.MemoryVisualizer()\nwith v.trace('x'):\n    pass\nv.generate_heatmap('x.jpg')\n",
      "bad_png.pto:4:1: generate_heatmap: the picture is a PNG file")
fails("bad_cache.pto", "s = pto.CacheSimulator(l1_size=1000)\n", "l1_size must be line_size x associativity x a power of two sets")
fails("bad_cache2.pto", "s = pto.CacheSimulator(l1_size=32768, l3_size=1048576)\n", "l3_size needs l2_size too")
# Every registered policy is a CacheSimulator's choice; an unknown one lists them (the list was spelled here once and went stale).
fails("bad_repl.pto", "s = pto.CacheSimulator(l1_size=32768, replacement='lfu')\n",
      "replacement 'lfu' is not one of " + H.listing("replacement"))
fails("bad_simulate.pto", "s = pto.CacheSimulator(l1_size=32768)\ns.simulate(3)\n", "simulate() runs a function")
fails("leaks_before.pto", "d = pto.MemoryLeakDetector()\nd.get_leaks()\n", "get_leaks: no monitor block has ended yet")

# ---- CacheSimulator = a run on a config of that geometry ----
BODY = """\
A = pto.tensor([96, 96], pto.float32, init="random", seed=1)
B = pto.tensor([96, 96], pto.float32, init="random", seed=2)
def work():
    with pto.tile(M=32, N=32, K=16):
        return pto.matmul(A, B)
"""
SIM = write("sim.pto", BODY + """\
s = pto.CacheSimulator(l1_size=4096, l2_size=32768, line_size=64, associativity=4)
st = s.simulate(work)
print("sim=" + str([st.accesses, st.misses, st.levels["L2"]["accesses"], st.levels["L2"]["misses"], st.dram_bytes]))
print("rate=" + str(st.miss_rate))
again = s.simulate(work)
print("again=" + str([again.accesses, again.misses]))
""")
ALONE = write("alone.pto", BODY + "C = work()\n")
GEOM = write("geom.yaml", """\
name: geom
clock: 1 GHz
core: {issue_width: 1, max_outstanding: 4, flops_per_cycle: 4, vector_bytes: 32 B}
memories:
  - {name: register, size: 64 KiB, latency: 0 cycles, bandwidth: 256 B/cycle}
  - {name: shared, size: 64 KiB, latency: 4 cycles, bandwidth: 128 B/cycle}
caches:
  - {name: L1, size: 4 KiB, ways: 4, line: 64 B, latency: 2 cycles}
  - {name: L2, size: 32 KiB, ways: 4, line: 64 B, latency: 8 cycles}
dram: {timing: simple}
""")
code, out, err = run("run", SIM, "--config", GEOM)
code2, rep, err2 = run_json(ALONE, "--config", GEOM)
if check("cache simulator runs", code == 0 and code2 == 0 and rep, err + err2):
    l1, l2 = level(rep, "L1"), level(rep, "L2")
    want = [l1["reads"] + l1["writes"], l1["read_misses"] + l1["write_misses"], l2["reads"] + l2["writes"],
            l2["read_misses"] + l2["write_misses"], level(rep, "DRAM")["bytes_read"] + level(rep, "DRAM")["bytes_written"]]
    got = printed(out, "sim")
    check("simulate() counts = a run on that geometry", got == want, (got, want))
    check("miss_rate = L1 misses / accesses", abs(printed(out, "rate") - want[1] / want[0]) < 1e-12, out)
    check("each simulate() starts cold", printed(out, "again") == want[:2], out)
    # The side model leaves the run itself alone: its L1 sees both calls.
    code3, rep3, err3 = run_json(SIM, "--config", GEOM)
    check("the run still simulates fn", code3 == 0 and level(rep3, "L1")["reads"] == 2 * l1["reads"], err3)

# ---- MemoryLeakDetector = --leaks, for one block ----
LEAK = write("leak.pto", """\
keep = []
d = pto.MemoryLeakDetector()
A = pto.tensor([64, 64], pto.float32, init="random", seed=1)
before = pto.load(A[0:8, :], memory="shared")
with d.monitor():
    t = pto.load(A[0:16, :], memory="shared")
    with pto.scope("tmp"):
        u = pto.load(A[16:32, :], memory="shared")
    keep.append(pto.load(A[32:40, :], memory="register"))
    g = pto.add(A, 1.0)
for l in d.get_leaks():
    print("leak=" + str([l.location, l.size, l.tensor, l.space]))
""")
code, out, err = run("run", LEAK, "--config", DEFAULT, "--leaks=error")
leaks = [json.loads(l[5:].replace("'", '"')) for l in out.splitlines() if l.startswith("leak=")]
leaks = [[x[0][len(LEAK) + 1:]] + x[1:] for x in leaks]  # file:line:col -> line:col
check("detector: the block's leaks, not the one before, nor the freed or global ones",
      leaks == [["6:5", 4096, "t", "shared"], ["9:5", 2048, "load#1", "register"]], leaks)
check("--leaks error reports them too (and the one before)", code == 1 and err.count(": leak: ") == 3
      and "leak.pto:4:1: leak:" in err and "leak.pto:6:5: leak:" in err, err)

# ---- MemoryVisualizer: pictures from the run's report ----
VIS = write("vis.pto", KERNEL + """\
param HEAT = "h.png"
param TL = "t.png"
v = pto.MemoryVisualizer()
with v.trace("mm"):
    C = kernel()
v.generate_heatmap(HEAT)
v.generate_timeline(TL)
""")
heat, tl = os.path.join(tmp, "heat.png"), os.path.join(tmp, "tl.png")
code, rep, err = run_json(VIS, "--config", DEFAULT, "-D", "HEAT=" + heat, "-D", "TL=" + tl)
if check("visualizer run", code == 0 and rep, err):
    for p in (heat, tl):
        check("picture " + os.path.basename(p), os.path.exists(p) and open(p, "rb").read(8) == b"\x89PNG\r\n\x1a\n", p)
    check("visualizer turns epochs and bins on", rep.get("epoch_cycles") == 10000 and rep.get("heatmap_bins") == 32,
          (rep.get("epoch_cycles"), rep.get("heatmap_bins")))
code, rep, err = run_json(VIS, "--config", DEFAULT, "-D", "HEAT=" + heat, "-D", "TL=" + tl, "--epoch", "500")
check("--epoch wins over the visualizer's default", code == 0 and rep["epoch_cycles"] == 500, err)
# plot.py failing is an error naming the call, not a silent run without pictures.
env = dict(H.env)
H.env["PTOSIM_PLOT"] = os.path.join(tmp, "no-such-plot.py")
code, out, err = run("run", VIS, "--config", DEFAULT, "-D", "HEAT=" + os.path.join(tmp, "x.png"), "-o", os.path.join(tmp, "r.txt"))
H.env = env
check("plot.py failing: exit 2 at the call", code == 2 and "vis.pto:11:1: generate_heatmap(" in err
      and not os.path.exists(os.path.join(tmp, "x.png")), f"exit {code}: {err}")
code, out, err = run("check", VIS, "--config", DEFAULT)
check("check: pictures are a warning", code == 0 and err.count("draws nothing: this command simulates nothing") == 2, err)

H.finish()
