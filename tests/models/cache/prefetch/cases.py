"""The prefetcher cases checked against Dinero IV: seeded din traces and the
hierarchies they run on, each described once for both simulators.

Why its own generator: the traces must be the same bytes wherever the
golden counts are recorded or checked, so they come from a fixed 64-bit LCG,
not from a library whose sequence may change between versions.
Cases with writes run on one level: the order in which a level sends a
fill and a victim's writeback below (docs/CACHES.md) is not what these cases
check, and with one level below it is only memory, which counts both.
Levels are LRU and write-allocate (the Dinero-exactness suite,
scripts/dinero_cases.py, covers the other policies); some have sub-blocks
(Dinero IV's -lN-Tsbsize), which load_forward and subblock need.
"""


class Lcg:
    def __init__(self, seed):
        self.s = (seed * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)

    def next(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        return self.s >> 33

    def below(self, n):
        return self.next() % n


def sequential(n, step=4, base=0x10000, write_every=0):
    for i in range(n):
        yield ("w" if write_every and i % write_every == 0 else "r"), base + i * step, step


def descending(n, step=8, base=0x400000):
    for i in range(n):
        yield "r", base - i * step, step


def strided(n, stride, base=0x20000, span=1 << 20):
    for i in range(n):
        yield "r", base + (i * stride) % span, 4


def random_mix(n, seed, span=1 << 18, writes=0):
    g = Lcg(seed)
    for _ in range(n):
        hot = g.below(2) == 0
        addr = g.below(16 << 10) if hot else g.below(span)
        kind = "w" if writes and g.below(writes) == 0 else "r"
        size = (1, 4, 8, 16, 64)[g.below(4 if writes else 5)]  # 16 and 64 may straddle a line
        yield kind, addr, size


def matmul(n, a=0x100000, b=0x200000, c=0x300000):
    for i in range(n):
        for j in range(n):
            for k in range(n):
                yield "r", a + 4 * (i * n + k), 4
                yield "r", b + 4 * (k * n + j), 4
            yield "w", c + 4 * (i * n + j), 4


TRACES = {
    "seq_read": lambda: sequential(24000),
    "seq_rw": lambda: sequential(24000, write_every=5),
    "descending": lambda: descending(16000),
    "stride_4160": lambda: strided(12000, 4160),
    "stride_192": lambda: strided(20000, 192),
    "random_read": lambda: random_mix(20000, 11),
    "random_rw": lambda: random_mix(20000, 12, writes=3),
    "matmul_24": lambda: matmul(24),
}
READ_ONLY = {"seq_read", "descending", "stride_4160", "stride_192", "random_read"}


def write_trace(name, path):
    with open(path, "w") as f:
        for kind, addr, size in TRACES[name]():
            f.write(f"{kind} {addr:x} {size:x}\n")


# One level: (size, ways, line, replacement, write_back, write_allocate[, sub-block size]).
LEVELS = {
    "dm4k": (4096, 1, 32, "lru", True, True),
    "4w8k": (8192, 4, 64, "lru", True, True),
    "2w4k": (4096, 2, 64, "lru", True, True),
    "fa2k": (2048, 32, 64, "lru", True, True),
    "4w8k_wt": (8192, 4, 64, "lru", False, True),
    "l2_8w64k": (65536, 8, 64, "lru", True, True),
    "l2_4w32k_128": (32768, 4, 128, "lru", True, True),
    "l2_8w32k_32": (32768, 8, 32, "lru", True, True),
    "4w8k_sb16": (8192, 4, 64, "lru", True, True, 16),
    "dm4k_sb8": (4096, 1, 32, "lru", True, True, 8),
    "fa2k_sb16": (2048, 32, 64, "lru", True, True, 16),
    "4w8k_wt_sb16": (8192, 4, 64, "lru", False, True, 16),
}

# (name, trace, [(level, prefetcher, distance)...]); prefetcher as Dinero's fetch letter.
CASES = []
for trace in TRACES:
    for level in ("dm4k", "4w8k", "2w4k", "fa2k", "4w8k_wt"):
        for fetch, dist in (("a", 1), ("m", 2), ("t", 1), ("t", 3)):
            CASES.append((f"{trace}-{level}-{fetch}{dist}", trace, [(level, fetch, dist)]))
for trace in sorted(READ_ONLY):
    for l2 in ("l2_8w64k", "l2_4w32k_128"):
        for fetch1, fetch2, dist in (("d", "t", 2), ("t", "m", 1), ("a", "a", 4)):
            CASES.append((f"{trace}-4w8k+{l2}-{fetch1}{fetch2}{dist}", trace,
                          [("4w8k", fetch1, dist), (l2, fetch2, dist)]))

# An L2 with lines shorter than L1's: every L1 fill is split there, and each
# part trains L2's prefetcher (Dinero IV's multiblock remainder is a read).
for trace in sorted(READ_ONLY):
    for fetch2, dist in (("a", 1), ("t", 2)):
        CASES.append((f"{trace}-4w8k+l2_8w32k_32-d{fetch2}{dist}", trace,
                       [("4w8k", "d", dist), ("l2_8w32k_32", fetch2, dist)]))

# Sub-blocks: load_forward and subblock (which act within a line: distance at
# most the sub-blocks per line) and the others counting in sub-blocks; and
# load_forward and subblock without sub-blocks (Dinero allows distance 1).
for trace in TRACES:
    for level in ("4w8k_sb16", "dm4k_sb8", "fa2k_sb16"):
        for fetch, dist in (("l", 1), ("l", 2), ("l", 4), ("s", 1), ("s", 3), ("t", 2)):
            CASES.append((f"{trace}-{level}-{fetch}{dist}", trace, [(level, fetch, dist)]))
    for fetch, dist in (("a", 2), ("m", 1), ("s", 4)):
        CASES.append((f"{trace}-4w8k_wt_sb16-{fetch}{dist}", trace, [("4w8k_wt_sb16", fetch, dist)]))
    for fetch in ("l", "s"):
        CASES.append((f"{trace}-4w8k-{fetch}1", trace, [("4w8k", fetch, 1)]))

PREFETCHER = {"d": "none", "a": "always", "m": "miss", "t": "tagged", "l": "load_forward", "s": "subblock"}


def dinero_args(levels):
    args = ["-informat", "D"]
    for i, (level, fetch, dist) in enumerate(levels, 1):
        size, ways, line, repl, wb, wa, *sb = LEVELS[level]
        p = f"-l{i}-u"
        args += [p + "size", str(size), p + "assoc", str(ways), p + "bsize", str(line), p + "repl", repl[0],
                 p + "wback", "a" if wb else "n", p + "walloc", "a" if wa else "n", p + "ccc"]
        if sb:
            args += [p + "sbsize", str(sb[0])]
        if fetch != "d":
            args += [p + "fetch", fetch, p + "pfdist", str(dist)]
    return args


def config_yaml(levels):
    out = ["caches:"]
    for i, (level, fetch, dist) in enumerate(levels, 1):
        size, ways, line, repl, wb, wa, *sb = LEVELS[level]
        sub = f"subblock: {sb[0]} B, " if sb else ""
        out.append(f"  - {{name: L{i}, size: {size} B, ways: {ways}, line: {line} B, {sub}replacement: {repl}, "
                   f"write_policy: {'write_back' if wb else 'write_through'}, write_allocate: {str(wa).lower()}, "
                   f"prefetcher: {PREFETCHER[fetch]}, prefetch_distance: {dist}}}")
    return "\n".join(out) + "\n"


def dinero_counts(out):
    """{level: {metric: value}} from Dinero IV's report (totals over types)."""
    counts, level = {}, None
    metrics = {"Demand Fetches": "fetch", "Demand Misses": "miss", "Compulsory misses": "compulsory",
               "Capacity misses": "capacity", "Conflict misses": "conflict", "Prefetch Fetches": "pf_fetch",
               "Prefetch Misses": "pf_miss", "Bytes From Memory": "bytes_from_below",
               "Bytes To Memory": "bytes_to_below"}
    for line in out.splitlines():
        if line.endswith("-ucache"):
            level = "L" + line[1:line.index("-")]
            counts[level] = {"pf_fetch": 0, "pf_miss": 0}
        elif level:
            s = line.strip()
            for metric, key in metrics.items():
                if s.startswith(metric + "\t") or s.startswith(metric + " "):
                    f = s[len(metric):].split()
                    if key in ("fetch", "miss"):
                        counts[level][key + "_read"] = int(f[3])
                        counts[level][key + "_write"] = int(f[4])
                    else:
                        counts[level][key] = int(float(f[0]))
    return counts


def pto_counts(report, nlevels):
    """The same counts from a pto-sim JSON report."""
    levels = report["levels"]
    caches = [l for l in levels if l["kind"] == "cache"]
    below = caches[1:] + [l for l in levels if l["kind"] == "dram"]
    out = {}
    for l, b in zip(caches[:nlevels], below):
        out[l["name"]] = {
            "fetch_read": l["reads"], "fetch_write": l["writes"],
            "miss_read": l["read_misses"], "miss_write": l["write_misses"],
            "compulsory": l["compulsory_misses"], "capacity": l["capacity_misses"],
            "conflict": l["conflict_misses"],
            "pf_fetch": l.get("prefetch_requests", 0), "pf_miss": l.get("prefetches_issued", 0),
            "bytes_from_below": b["bytes_read"], "bytes_to_below": b["bytes_written"],
        }
    return out
