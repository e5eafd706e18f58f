"""Helpers shared by the Dinero IV scripts: building Dinero IV from a source
tree the user points to (it is never part of this repository: its licence
forbids redistribution), running it, and reading its report.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ENV = dict(os.environ, LC_ALL="C", SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")


def die(msg):
    sys.exit(f"{os.path.basename(sys.argv[0])}: {msg}")


def build_dinero(src, workdir):
    """A dineroIV binary: `src` itself if it is one, else built from the
    d4-7 source tree `src` in a copy under `workdir` (./configure && make,
    and make in testing/ for p2d). Returns (binary, source copy or None)."""
    if os.path.isfile(src) and os.access(src, os.X_OK):
        return os.path.abspath(src), None
    if not os.path.isfile(os.path.join(src, "ref.c")) or not os.path.isfile(os.path.join(src, "configure")):
        die(f"{src}: neither a dineroIV binary nor a Dinero IV source tree (d4-7, with ref.c and configure)")
    copy = os.path.join(workdir, "d4-7")
    shutil.copytree(src, copy, symlinks=True)
    for cmd, where in (["sh", "./configure"], copy), (["make"], copy), (["make"], os.path.join(copy, "testing")):
        if not os.path.isdir(where):
            continue
        p = subprocess.run(cmd, cwd=where, capture_output=True, text=True, env=ENV)
        if p.returncode != 0:
            die(f"building Dinero IV: {' '.join(cmd)} in {where} failed:\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    binary = os.path.join(copy, "dineroIV")
    if not os.access(binary, os.X_OK):
        die(f"building Dinero IV in {copy} made no dineroIV")
    return binary, copy


def run_dinero(binary, args, stdin_path):
    with open(stdin_path, "rb") as f:
        p = subprocess.run([binary, *args], stdin=f, capture_output=True, text=True, env=ENV)
    if p.returncode != 0:
        die(f"{binary} {' '.join(args)} exited {p.returncode}:\n{p.stdout[-1000:]}{p.stderr[-1000:]}")
    return p.stdout


def parse_report(text):
    """Dinero IV's statistics: a list of blocks (one per dostats call, so the
    -stat-interval ones first and the final one last), each
    {level name: {metric: [numbers...]}} with metrics "Demand Fetches",
    "Demand Misses", "Compulsory misses", "Capacity misses", "Conflict
    misses", and at a level with sub-blocks "Demand Block Misses" and "DB
    compulsory / capacity / conflict misses" (columns total, instrn, data,
    read, write, misc) and
    "Bytes From Memory", "Bytes To Memory" (one number)."""
    blocks, block, cur = [], None, None
    metrics = ("Demand Fetches", "Demand Misses", "Compulsory misses", "Capacity misses", "Conflict misses",
               "Demand Block Misses", "DB compulsory misses", "DB capacity misses", "DB conflict misses",
               "Bytes From Memory", "Bytes To Memory")
    for line in text.splitlines():
        s = line.strip()
        if line.startswith("---"):
            if block:
                blocks.append(block)
            block, cur = None, None
            continue
        if len(line) > 2 and line[0] == "l" and line.endswith("cache") and "-" in line:
            if block is None:
                block = {}
            # l1-ucache -> L1 (split caches, l1-icache / l1-dcache, keep their letter: L1i, L1d)
            n, kind = line[1:].split("-", 1)
            cur = block.setdefault("L" + n + ("" if kind == "ucache" else kind[0]), {})
            continue
        if cur is None:
            continue
        for m in metrics:
            if s.startswith(m):
                cur[m] = [int(x) for x in s[len(m):].split()]
    if block:
        blocks.append(block)
    return blocks


def level_counts(d, ccc):
    """[reads, writes, read_misses, write_misses, bytes from below, bytes to
    below] (+ [compulsory, capacity, conflict] with ccc; + [block misses] and
    with ccc [their compulsory, capacity, conflict] at a level with
    sub-blocks, whose misses are sub-block misses) of one Dinero level,
    in pto-sim's terms: a read is anything but a write (instruction fetches
    and misc records included)."""
    f, m = d["Demand Fetches"], d["Demand Misses"]
    out = [f[0] - f[4], f[4], m[0] - m[4], m[4], d["Bytes From Memory"][0], d["Bytes To Memory"][0]]
    if ccc:
        out += [d["Compulsory misses"][0], d["Capacity misses"][0], d["Conflict misses"][0]]
    if "Demand Block Misses" in d:  # a level with sub-blocks
        out.append(d["Demand Block Misses"][0])
        if ccc:
            out += [d["DB compulsory misses"][0], d["DB capacity misses"][0], d["DB conflict misses"][0]]
    return out


def count_names(ccc, subblocks):
    """The names of level_counts()'s numbers for a level with or without
    -ccc and sub-blocks."""
    out = ["reads", "writes", "read_misses", "write_misses", "bytes_from_below", "bytes_to_below"]
    if ccc:
        out += ["compulsory", "capacity", "conflict"]
    if subblocks:
        out += ["block_misses"] + (["compulsory_blocks", "capacity_blocks", "conflict_blocks"] if ccc else [])
    return out


def pto_counts(report, names, ccc_flags):
    """The same numbers from a pto-sim JSON report, for the cache levels
    `names` (top first): bytes from / to below are what the next level (or
    DRAM) received."""
    levels = report["levels"]
    by_name = {l["name"]: i for i, l in enumerate(levels)}
    out = []
    for name, ccc in zip(names, ccc_flags):
        i = by_name[name]
        l, below = levels[i], levels[i + 1]
        row = [l["reads"], l["writes"], l["read_misses"], l["write_misses"], below["bytes_read"], below["bytes_written"]]
        if ccc:
            row += [l["compulsory_misses"], l["capacity_misses"], l["conflict_misses"]]
        if "block_misses" in l:  # a level with sub-blocks
            row.append(l["block_misses"])
            if ccc:
                row += [l["compulsory_block_misses"], l["capacity_block_misses"], l["conflict_block_misses"]]
        out.append(row)
    return out


def tmpdir(prefix):
    return tempfile.TemporaryDirectory(prefix=prefix)
