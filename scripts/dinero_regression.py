#!/usr/bin/env python3
"""Dinero IV's own regression suite (d4-7/testing) run on pto-sim.

usage: dinero_regression.py D4_SRC PTO_SIM [-o RESULTS] [--tags REGEX]

D4_SRC is a Dinero IV d4-7 source tree (built in a temporary copy: Dinero
IV itself, and testing/p2d, its converter from pixie traces to din). For
every parameter set of testing/test-parms the script feeds pto-sim what
testing/testscript feeds dineroIV (the matrix-multiply trace mm.32 or mm.64
in the input format the tag names), on the same hierarchy, with --flush
(Dinero IV copies every dirty block back before its final report), and
compares every cache level's demand fetches (reads, writes), misses, bytes
from and to memory, and with -lN-uccc the 3C split, with the presumed
correct output testing/mm.*.good.<tag>. It also runs the locally built
Dinero IV on the same input: on some sets (random replacement, prefetch
abort) Dinero IV itself no longer reproduces its .good file, because those
draw libc's random().

Inputs, as testscript: tags ending in p read mm.32 as pixie, b through p2b,
D through `p2d -4` (extended din); P read mm.64 (64-bit pixie); the others
read `p2d` output with -informat d (Dinero III din: every record is the
4-byte word at addr & ~3). pto-sim reads din only, so it gets: for d, p2d's
records as -informat d reads them (r/w/i/m at addr & ~3, size 4); for p, b
and D, `p2d -4`'s output (their .good files are identical: the same
references); for P, mm.64 decoded as Dinero IV's pixie64fmt.c decodes it.

Sub-blocks (-lN-usbsize) map to `subblock:`, -lN-ufetch a|m|t|l|s with
-lN-upfdist to the prefetchers of the same name. A parameter set pto-sim
cannot describe (split instruction/data caches, prefetch abort) is listed
with the reason. Exit status 1 if a
describable set differs. -o writes the outcomes (facts, no Dinero code).
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from dinero_common import ENV, build_dinero, count_names, die, level_counts, parse_report, pto_counts, tmpdir  # noqa: E402

PREFETCHER = {"d": "none", "a": "always", "m": "miss", "t": "tagged", "l": "load_forward", "s": "subblock"}


def parse_parms(path):
    """[(tag, [args])] of test-parms, in file order."""
    out = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            out.append((parts[0], parts[1:]))
    return out


def describe(args):
    """(levels, extras, reason): the unified levels of a Dinero command line
    ({"size", "line", "sbsize", "ways", "repl", "fetch", "wback", "walloc",
    "ccc"}), other options, and why pto-sim cannot describe it (None if it can)."""
    levels, extras, reasons = {}, {}, []
    i = 0
    while i < len(args):
        a = args[i]
        m = re.match(r"-l(\d)-([uid])(size|bsize|sbsize|assoc|repl|fetch|walloc|wback|pfdist|pfabort|ccc)$", a)
        if m:
            n, idu, key = int(m.group(1)), m.group(2), m.group(3)
            if idu != "u":
                reasons.append("split instruction/data caches (-l%d-%s...): pto-sim's caches are unified" % (n, idu))
            l = levels.setdefault((n, idu), {})
            if key == "ccc":
                l["ccc"] = True
                i += 1
                continue
            l[key] = args[i + 1]
            i += 2
            continue
        if a == "-stat-idcombine":
            i += 1
            continue
        extras[a.lstrip("-")] = args[i + 1]
        i += 2
    scale = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}

    def num(s):
        return int(s[:-1]) * scale[s[-1].lower()] if s[-1].lower() in scale else int(s)

    out = []
    for (n, idu), l in sorted(levels.items()):
        if idu != "u":
            continue
        size, line = num(l["size"]), num(l["bsize"])
        sb = num(l.get("sbsize", l["bsize"]))
        fetch = l.get("fetch", "d")
        if fetch not in PREFETCHER:
            reasons.append(f"prefetch policy -l{n}-ufetch {fetch}")
        if "pfabort" in l:
            reasons.append(f"prefetch abort (-l{n}-upfabort): draws libc random()")
        out.append({"size": size, "line": line, "sb": sb, "ways": int(l.get("assoc", "1")), "repl": l.get("repl", "l"),
                    "wback": l.get("wback", "a"), "walloc": l.get("walloc", "a"), "ccc": bool(l.get("ccc")),
                    "fetch": fetch, "pfdist": int(l.get("pfdist", "1"))})
    for k in extras:
        if k not in ("informat", "flushcount", "skipcount", "maxcount"):
            reasons.append(f"option -{k}")
    if "skipcount" in extras or "maxcount" in extras:
        reasons.append("-skipcount / -maxcount")
    return out, extras, ("; ".join(dict.fromkeys(reasons)) or None)


def pto_config(levels):
    lines = ["name: dinero-regression", "caches:"]
    repl = {"l": "lru", "f": "fifo", "r": "random"}
    for i, l in enumerate(levels, 1):
        policy = "write_through" if l["wback"] == "n" else "write_back"  # -wback f writes back (see dinero_cases.py)
        allocate = {"a": "true", "n": "false", "f": "nofetch"}[l["walloc"]]
        extra = f", subblock: {l['sb']} B" if l["sb"] != l["line"] else ""
        if l["fetch"] != "d":
            extra += f", prefetcher: {PREFETCHER[l['fetch']]}, prefetch_distance: {l['pfdist']}"
        lines.append(f"  - {{name: L{i}, size: {l['size']} B, ways: {l['ways']}, line: {l['line']} B, "
                     f"replacement: {repl[l['repl']]}, write_policy: {policy}, write_allocate: {allocate}{extra}}}")
    return "\n".join(lines) + "\n"


def pixie64_to_din(data):
    """mm.64 as Dinero IV's tracein_pixie64 (pixie64fmt.c) decodes it, as din lines."""
    M32 = 0xFFFFFFFF
    if len(data) % 8 or not data or data[0] != 15:
        die("mm.64: not a 64-bit pixie trace (header word of type 15)")
    out = []
    iaddr, textbase = M32, 0
    for off in range(8, len(data), 8):
        w = data[off:off + 8]
        count, reftype = w[0], w[1]
        addr = int.from_bytes(w[4:8], "big")
        if reftype in (16, 17, 19, 20, 25, 26, 29, 30, 31) or reftype > 31 or reftype in (15, 21, 22, 23, 24):
            continue  # DSO bookkeeping (17: the high half is dropped where int is 32 bits), or unknown
        if reftype == 18:
            textbase |= addr
            continue
        if reftype == 27 and addr != 0 or reftype == 28 and addr != 1:
            die("mm.64: dynamically linked executable")
        if reftype in (27, 28):
            continue
        size = 4
        if reftype == 12:  # basic block
            iaddr = ((addr << 2) + textbase) & M32
            if count == 0:
                continue
            count -= 1
        elif reftype in (1, 9, 3, 11):
            size, addr = 8, addr & ~7
        elif reftype in (14, 0, 8, 2, 10, 13):
            size, addr = 4, addr & ~3
        elif reftype == 5:
            size, addr = 2, addr & ~1
        elif reftype == 4:
            size = 1
        elif reftype == 6:
            size, addr = addr % 4 + 1, addr & ~3
        elif reftype == 7:
            size = 4 - addr % 4
        count += 1
        out.append(f"i {iaddr:x} 4")
        if reftype == 14:
            out.append(f"m {addr:x} {size:x}")
        elif reftype in (0, 1, 8, 9):
            out.append(f"r {addr:x} {size:x}")
        elif reftype in (2, 3, 4, 5, 6, 7, 10, 11):
            out.append(f"w {addr:x} {size:x}")
        for c in range(2, count + 1):
            out.append(f"i {(iaddr + c * 4 - 4) & M32:x} 4")
        iaddr = (iaddr + count * 4) & M32
    return "\n".join(out) + "\n"


def din3_to_xdin(text):
    """p2d's (Dinero III) records as Dinero IV's -informat d reads them."""
    out = []
    for line in text.splitlines():
        f = line.split()
        if not f:
            continue
        label, addr = int(f[0], 16), int(f[1], 16)
        out.append(f"{'rwimcv'[label]} {addr & ~3:x} 4")
    return "\n".join(out) + "\n"


def with_flushes(text, every):
    """-flushcount N: Dinero IV copies back and invalidates everything after every N records."""
    lines = text.splitlines()
    out = []
    for k, line in enumerate(lines, 1):
        out.append(line)
        if k % every == 0:
            out += ["c 0 0", "v 0 0"]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("d4src")
    ap.add_argument("pto_sim")
    ap.add_argument("-o", "--output", help="write the outcomes here (JSON)")
    ap.add_argument("--tags", default=".*", help="only tags matching this regular expression")
    a = ap.parse_args()
    testing_src = os.path.join(a.d4src, "testing")
    if not os.path.isfile(os.path.join(testing_src, "test-parms")):
        die(f"{a.d4src}: no testing/test-parms (give the d4-7 source tree)")
    results = []
    with tmpdir("pto-sim-dinero-regression-") as tmp:
        dinero, copy = build_dinero(a.d4src, tmp)
        testing = os.path.join(copy, "testing")
        p2d, p2b = os.path.join(testing, "p2d"), os.path.join(testing, "p2b")
        with open(os.path.join(testing, "mm.32"), "rb") as f:
            mm32 = f.read()
        with open(os.path.join(testing, "mm.64"), "rb") as f:
            mm64 = f.read()
        conv = {
            "d": subprocess.run([p2d], input=mm32, capture_output=True, env=ENV).stdout,
            "D": subprocess.run([p2d, "-4"], input=mm32, capture_output=True, env=ENV).stdout,
            "b": subprocess.run([p2b], input=mm32, capture_output=True, env=ENV).stdout,
        }
        din = {"d": din3_to_xdin(conv["d"].decode()), "D": conv["D"].decode(), "P": pixie64_to_din(mm64)}
        din["p"] = din["b"] = din["D"]
        dinero_in = {"d": conv["d"], "D": conv["D"], "b": conv["b"], "p": mm32, "P": mm64}
        for tag, args in parse_parms(os.path.join(testing, "test-parms")):
            if not re.search(a.tags, tag):
                continue
            kind = tag[-1] if tag[-1] in "pPbD" else "d"
            inp = "mm.64" if kind == "P" else "mm.32"
            good_path = os.path.join(testing, f"{inp}.good.{tag}")
            levels, extras, reason = describe(args)
            row = {"tag": tag, "input": inp, "format": kind, "args": " ".join(args)}
            # Dinero IV itself, as testscript runs it.
            stem = os.path.join(tmp, tag)
            with open(stem + ".in", "wb") as f:
                f.write(dinero_in[kind])
            with open(stem + ".in", "rb") as f:
                d = subprocess.run([dinero, *args], stdin=f, capture_output=True, text=True, env=ENV)
            with open(good_path) as f:
                good = f.read()
            strip = lambda t: [re.sub(r"\s+", " ", l).strip() for l in t.splitlines()  # noqa: E731
                               if "version" not in l and l.strip()]
            row["dinero_matches_good"] = d.returncode == 0 and strip(d.stdout) == strip(good)
            if reason is None and any(l["repl"] == "r" for l in levels):
                reason = "random replacement (Dinero IV draws libc random())"  # unless no set ever fills: below
                random_ok_if_no_evictions = True
            else:
                random_ok_if_no_evictions = False
            if reason is not None and not random_ok_if_no_evictions:
                row.update(outcome="cannot", reason=reason)
                results.append(row)
                continue
            text = din[kind]
            if "flushcount" in extras:
                text = with_flushes(text, int(extras["flushcount"].rstrip("kK")) * (1024 if extras["flushcount"][-1]
                                                                                    in "kK" else 1))
            with open(stem + ".din", "w") as f:
                f.write(text)
            with open(stem + ".yaml", "w") as f:
                f.write(pto_config(levels))
            p = subprocess.run([a.pto_sim, "run", "--trace", stem + ".din", "--config", stem + ".yaml", "--flush",
                                "--format", "json"], capture_output=True, text=True, env=ENV)
            if p.returncode != 0:
                row.update(outcome="FAIL", reason=f"pto-sim exited {p.returncode}: {p.stderr.strip()}")
                results.append(row)
                continue
            report = json.loads(p.stdout)
            names = [f"L{i}" for i in range(1, len(levels) + 1)]
            if random_ok_if_no_evictions:
                ev = [l["evictions"] for l in report["levels"] if l["name"] in names]
                if any(ev):
                    row.update(outcome="cannot", reason=reason + f": a set fills ({ev} evictions)")
                    results.append(row)
                    continue
            ccc = [l["ccc"] for l in levels]
            got = pto_counts(report, names, ccc)
            want_block = parse_report(good)[-1]
            want = [level_counts(want_block[n], c) for n, c in zip(names, ccc)]
            fields = [count_names(l["ccc"], l["sb"] != l["line"]) for l in levels]
            diffs = [f"{n}: pto-sim reports {len(g)} counts, .good {len(w)}" for n, g, w in zip(names, got, want)
                     if len(g) != len(w)]
            diffs += [f"{n} {fld}: pto-sim {x}, .good {y}" for n, g, w, fl in zip(names, got, want, fields)
                      for fld, x, y in zip(fl, g, w) if x != y and len(g) == len(w)]
            row["counts"] = {n: dict(zip(fl, w)) for n, w, fl in zip(names, want, fields)}
            if diffs:
                row.update(outcome="FAIL", reason="; ".join(diffs))
            else:
                row.update(outcome="pass", reason="no set fills: any policy counts the same"
                           if random_ok_if_no_evictions else "")
            results.append(row)
    width = max(len(r["tag"]) for r in results)
    for r in results:
        print(f"{r['tag']:<{width}}  {r['input']}  {r['outcome']:<6}  dinero={'same' if r['dinero_matches_good'] else 'DIFF'}"
              f"  {r['reason']}")
    n = {o: sum(1 for r in results if r["outcome"] == o) for o in ("pass", "FAIL", "cannot")}
    print(f"dinero_regression: {n['pass']} pass, {n['FAIL']} fail, {n['cannot']} cannot be described "
          f"(of {len(results)} runs of test-parms)")
    if a.output:
        with open(a.output, "w") as f:
            json.dump({"about": "pto-sim on Dinero IV's d4-7/testing parameter sets (scripts/dinero_regression.py): "
                                "outcome per tag; dinero_matches_good says whether the locally built Dinero IV "
                                "reproduces the tag's .good file; counts are the .good file's, per level.",
                       "results": results}, f, indent=1)
            f.write("\n")
    sys.exit(1 if n["FAIL"] else 0)


if __name__ == "__main__":
    main()
