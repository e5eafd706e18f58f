"""The cases of the Dinero IV differential suite: seeded din traces and the
hierarchies they run on, described for both pto-sim (a YAML config) and
Dinero IV (its command line).

Everything here is deterministic: a case is its name, and the same name
gives the same trace and hierarchy on every machine and Python version (the
generator is this file's own xorshift, not `random`). scripts/dinero_golden.py
runs Dinero IV on every case and records its counts in
tests/golden/dinero/cases.json; tests/golden/dinero_test.py regenerates the
traces and checks pto-sim's counts against those.

Cases (see CASES below): six trace families (random, streaming, strided,
matmul-like, conv-like, and one of every din record type with accesses that
straddle lines) on hierarchies of 1 to 4 unified levels: line sizes that grow
or shrink between levels, direct-mapped to fully associative, LRU and FIFO,
write-back / write-through x allocate / no-allocate / allocate-nofetch at
every level, with Dinero IV's 3C classification at every level; then the
same with sub-blocks (FIXED_SUBBLOCK, and random hierarchies whose levels
get sub-blocks of 1 B up to the line).
"""

MASK64 = (1 << 64) - 1


class Rng:
    """xorshift64*: fixed forever, so that a seed names the same trace everywhere."""

    def __init__(self, seed):
        self.s = (seed * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) & MASK64 or 1

    def next(self):
        s = self.s
        s ^= s >> 12
        s ^= (s << 25) & MASK64
        s ^= s >> 27
        self.s = s
        return (s * 0x2545F4914F6CDD1D) & MASK64

    def below(self, n):
        return (self.next() >> 11) % n

    def pick(self, xs):
        return xs[self.below(len(xs))]

    def chance(self, p_percent):
        return self.below(100) < p_percent


# ---------------------------------------------------------------- traces

def _rec(out, t, addr, size):
    out.append(f"{t} {addr:x} {size:x}")


def trace_random(rng, n):
    """Uniform over a span a few times the caches, mixed sizes and alignments."""
    out = []
    base = rng.below(1 << 20) << 6
    span = 1 << (14 + rng.below(6))  # 16 KiB .. 512 KiB
    wr = 10 + rng.below(40)
    for _ in range(n):
        size = rng.pick([1, 2, 4, 4, 4, 8, 8, 16, 32, 64])
        addr = base + rng.below(span)
        _rec(out, "w" if rng.chance(wr) else "r", addr, size)
    return out


def trace_streaming(rng, n):
    """c[i] = a[i] op b[i] over arrays longer than the caches, with a code loop."""
    out = []
    e = rng.pick([4, 8])
    arrays = 2 + rng.below(3)
    length = 1 << (10 + rng.below(5))
    bases = [(0x100000 + k * (length * e + rng.below(16) * 64)) for k in range(arrays + 1)]
    code = 0x40000
    i = 0
    while len(out) < n:
        if rng.chance(30):
            _rec(out, "i", code + 4 * (i % 16), 4)
        for k in range(arrays):
            _rec(out, "r", bases[k] + (i % length) * e, e)
        _rec(out, "w", bases[arrays] + (i % length) * e, e)
        i += 1
    return out[:n]


def trace_strided(rng, n):
    """A column walk: a stride that is a multiple of the line plus an offset."""
    out = []
    stride = rng.pick([64, 128, 4096, 4160, 8192 + 32, 1000, 256 + 4])
    e = rng.pick([4, 8])
    rows = 16 + rng.below(200)
    cols = max(1, n // rows)
    base = 0x200000
    wr = rng.pick([0, 10, 30, 50])
    k = 0
    while len(out) < n:
        for r in range(rows):
            addr = base + r * stride + (k % cols) * e
            _rec(out, "w" if rng.chance(wr) else "r", addr, e)
            if len(out) >= n:
                break
        k += 1
    return out


def trace_matmul(rng, n):
    """Naive C[i][j] += A[i][k] * B[k][j], row-major, ijk or ikj order."""
    out = []
    e = rng.pick([4, 8])
    N = rng.pick([24, 32, 40, 48, 64])
    A, B = 0x300000, 0x300000 + N * N * e + rng.below(8) * 64
    C = B + N * N * e + rng.below(8) * 64
    ikj = rng.chance(50)
    while len(out) < n:
        for i in range(N):
            for j_or_k in range(N):
                if ikj:
                    k = j_or_k
                    _rec(out, "r", A + (i * N + k) * e, e)
                    for j in range(N):
                        _rec(out, "r", B + (k * N + j) * e, e)
                        _rec(out, "r", C + (i * N + j) * e, e)
                        _rec(out, "w", C + (i * N + j) * e, e)
                else:
                    j = j_or_k
                    _rec(out, "r", C + (i * N + j) * e, e)
                    for k in range(N):
                        _rec(out, "r", A + (i * N + k) * e, e)
                        _rec(out, "r", B + (k * N + j) * e, e)
                    _rec(out, "w", C + (i * N + j) * e, e)
                if len(out) >= n:
                    return out[:n]
    return out[:n]


def trace_conv(rng, n):
    """A KxK convolution over an HxW image with C channels (NCHW), one output plane at a time."""
    out = []
    e = 4
    H = W = rng.pick([32, 48, 64])
    K = rng.pick([3, 5])
    Cin = rng.pick([1, 2, 4])
    img = 0x400000
    wts = img + Cin * H * W * e + 4096
    res = wts + Cin * K * K * e + 4096
    o = 0
    while len(out) < n:
        for y in range(H - K + 1):
            for x in range(W - K + 1):
                for c in range(Cin):
                    for dy in range(K):
                        # one row of the window as a single access (straddles lines)
                        _rec(out, "r", img + ((c * H + y + dy) * W + x) * e, K * e)
                        _rec(out, "r", wts + ((c * K + dy) * K) * e, K * e)
                _rec(out, "w", res + ((o * H + y) * W + x) * e, e)
                if len(out) >= n:
                    return out[:n]
        o += 1
    return out[:n]


def trace_records(rng, n):
    """Every din record type Dinero IV simulates: reads, writes, instruction
    fetches, misc, copyback and invalidate (of one line and, size 0, of
    everything), accesses that straddle lines, and text after the size."""
    out = []
    base = 0x500000
    span = 1 << (13 + rng.below(5))
    for q in range(n):
        u = rng.below(1000)
        addr = base + rng.below(span)
        if u < 8:
            # copyback / invalidate: usually one line, rarely the whole cache
            t = "c" if u < 5 else "v"
            size = 0 if rng.chance(10) else rng.pick([1, 4, 64])
            out.append(f"{t} {addr:x} {size:x}")
        elif u < 60:
            _rec(out, "m", addr, rng.pick([1, 4, 8]))
        elif u < 300:
            out.append(f"i {base + rng.below(4096) & ~3:x} 4\ti{q}")  # a tag after the size, as p2d writes
        elif u < 360:
            # straddling: odd sizes at odd addresses, up to a few lines
            _rec(out, "w" if rng.chance(40) else "r", addr, rng.pick([3, 7, 33, 65, 100, 129, 200]))
        else:
            _rec(out, "w" if rng.chance(35) else "r", addr, rng.pick([1, 2, 4, 8, 16]))
    return out


TRACES = {
    "random": trace_random,
    "streaming": trace_streaming,
    "strided": trace_strided,
    "matmul": trace_matmul,
    "conv": trace_conv,
    "records": trace_records,
}


def trace_text(kind, seed, n):
    """The din text of a trace (newline-terminated lines)."""
    return "\n".join(TRACES[kind](Rng(seed * 1000003 + sum(map(ord, kind))), n)) + "\n"


# ---------------------------------------------------------------- hierarchies

POLICIES = [("a", "a"), ("a", "n"), ("n", "a"), ("n", "n"), ("a", "f"), ("n", "f"), ("f", "a"), ("f", "n")]  # (wback, walloc)


def level(size, ways, line, repl="lru", wback="a", walloc="a", sb=0):
    """A unified cache level. ways 0 = fully associative; sb: sub-block size (0 = none)."""
    if ways == 0:
        ways = size // line
    out = {"size": size, "ways": ways, "line": line, "repl": repl, "wback": wback, "walloc": walloc}
    if sb:
        out["sb"] = sb
    return out


# Hand-picked hierarchies: the ones the issue names, and the edges.
FIXED = {
    "2lvl-default": [level(32768, 8, 64), level(262144, 8, 64)],
    "dm-over-l2": [level(8192, 1, 64), level(65536, 8, 64)],
    "32-over-64": [level(4096, 4, 32), level(32768, 8, 64)],
    "64-over-128": [level(8192, 4, 64), level(65536, 8, 128)],
    "128-over-32": [level(8192, 2, 128), level(32768, 4, 32)],
    "3lvl-xeon": [level(8192, 8, 64), level(32768, 16, 64), level(131072, 16, 64)],
    "3lvl-lines": [level(2048, 2, 16), level(16384, 4, 64), level(65536, 8, 256)],
    "4lvl": [level(1024, 2, 32), level(4096, 4, 64), level(16384, 8, 64), level(65536, 16, 128)],
    "4lvl-shrinking": [level(4096, 4, 128), level(8192, 4, 64), level(32768, 8, 32), level(131072, 4, 64)],
    "fa-l1": [level(2048, 0, 64), level(32768, 8, 64)],
    "fa-both": [level(1024, 0, 32), level(8192, 0, 64)],
    "fifo-2lvl": [level(4096, 4, 64, "fifo"), level(32768, 8, 64, "fifo")],
    "wt-l1": [level(4096, 4, 64, wback="n"), level(32768, 8, 64)],
    "wt-noalloc-l1": [level(4096, 4, 64, wback="n", walloc="n"), level(32768, 8, 64)],
    "noalloc-l2": [level(4096, 4, 64), level(32768, 8, 64, walloc="n")],
    "nofetch-l1": [level(4096, 4, 32, walloc="f"), level(32768, 8, 64, walloc="f")],
    "wback-nofetch": [level(4096, 2, 32, wback="f", walloc="n"), level(32768, 8, 64, wback="f")],
    "wt-everywhere": [level(2048, 2, 32, wback="n"), level(16384, 4, 64, wback="n"), level(65536, 8, 64, wback="n")],
    "1lvl-dm": [level(8192, 1, 32)],
    "1lvl-4way": [level(8192, 4, 16)],
    "1lvl-fa-fifo": [level(4096, 0, 64, "fifo")],
}


# Sub-blocks (Dinero IV's -lN-Tsbsize): one or two levels split, with every
# write policy, 2 to 16 sub-blocks per line, direct-mapped to fully
# associative, FIFO, differing line sizes above and below. Not 32: Dinero IV
# (d4-7) with -lN-Tccc does not finish such a run (it spins in its 3C code).
FIXED_SUBBLOCK = {
    "sb-l1": [level(4096, 4, 64, sb=16), level(32768, 8, 64)],
    "sb-l2": [level(2048, 2, 32), level(32768, 8, 128, sb=32)],
    "sb-both": [level(4096, 2, 64, sb=8), level(65536, 8, 128, sb=32)],
    "sb-dm-tiny": [level(1024, 1, 16, sb=1)],
    "sb-fa-fifo": [level(2048, 0, 64, "fifo", sb=16), level(16384, 4, 64, sb=32)],
    "sb-wt": [level(4096, 4, 64, wback="n", sb=16), level(32768, 8, 64, sb=16)],
    "sb-wt-noalloc": [level(4096, 4, 64, wback="n", walloc="n", sb=8), level(32768, 8, 64)],
    "sb-noalloc": [level(4096, 4, 64, walloc="n", sb=16), level(32768, 8, 128, walloc="n", sb=16)],
    "sb-nofetch": [level(4096, 4, 32, walloc="f", sb=4), level(32768, 8, 64, walloc="f", sb=8)],
    "sb-wback-nofetch": [level(4096, 2, 64, wback="f", walloc="n", sb=16), level(32768, 8, 64, wback="f", sb=16)],
    "sb-3lvl": [level(2048, 2, 16, sb=4), level(16384, 4, 64, sb=16), level(65536, 8, 256, sb=64)],
}


def random_hierarchy(rng):
    """1-4 levels, each line 16..256 B (either direction), ways 1..16 or fully
    associative, LRU or FIFO, any write policy; each level larger than the
    one above it in bytes (not required, but typical)."""
    n = 1 + rng.below(4)
    levels = []
    size = 1 << (10 + rng.below(3))  # 1..4 KiB at L1
    for i in range(n):
        line = 1 << (4 + rng.below(5))
        ways = rng.pick([1, 2, 4, 8, 16, 0])
        while size // line < max(ways, 1):
            size *= 2
        repl = "fifo" if rng.chance(30) else "lru"
        wback, walloc = POLICIES[rng.below(len(POLICIES))] if rng.chance(50) else ("a", "a")
        levels.append(level(size, ways, line, repl, wback, walloc))
        size *= 1 << (1 + rng.below(3))
    return levels


def make_cases():
    """[(name, trace kind, seed, records, levels)]: every fixed hierarchy on
    every trace family (120 cases), then 60 random hierarchies."""
    cases = []
    kinds = list(TRACES)
    for h, levels in FIXED.items():
        for k in kinds:
            seed = len(cases) + 1
            cases.append((f"{h}/{k}", k, seed, 12000, levels))
    rng = Rng(20261130)
    for i in range(60):
        levels = random_hierarchy(rng)
        k = kinds[i % len(kinds)]
        seed = 1000 + i
        cases.append((f"random{i:02d}/{k}", k, seed, 12000, levels))
    for h, levels in FIXED_SUBBLOCK.items():
        for k in kinds:
            seed = 2000 + len(cases)
            cases.append((f"{h}/{k}", k, seed, 12000, levels))
    rng = Rng(20261201)
    for i in range(24):
        levels = random_hierarchy(rng)
        for l in levels:  # a sub-block size from 1 B to the line (the line itself: none, to keep it exercised)
            if rng.chance(70):
                l["sb"] = max(l["line"] // 16, min(l["line"], 1 << rng.below(6)))  # at most 16 per line
        k = kinds[i % len(kinds)]
        cases.append((f"random-sb{i:02d}/{k}", k, 3000 + i, 12000, levels))
    return cases


CASES = make_cases()


# ---------------------------------------------------------------- the two descriptions

def dinero_args(levels):
    """Dinero IV's options for `levels` (unified caches, demand fetch, 3C)."""
    args = []
    for i, l in enumerate(levels, 1):
        p = f"-l{i}-u"
        args += [p + "size", str(l["size"]), p + "bsize", str(l["line"]), p + "assoc", str(l["ways"]),
                 p + "repl", {"lru": "l", "fifo": "f"}[l["repl"]], p + "wback", l["wback"], p + "walloc", l["walloc"]]
        if "sb" in l:
            args += [p + "sbsize", str(l["sb"])]
        args.append(p + "ccc")
    return args


def pto_config(levels):
    """A pto-sim config (YAML text) with the same caches."""
    lines = ["name: dinero-case", "caches:"]
    for i, l in enumerate(levels, 1):
        # Dinero IV's -wback f tests, once the written bytes are valid, whether they are: always true (ref.c
        # sets the valid bits first), so it writes back like -wback a.
        policy = "write_through" if l["wback"] == "n" else "write_back"
        allocate = {"a": "true", "n": "false", "f": "nofetch"}[l["walloc"]]
        sb = f", subblock: {l['sb']} B" if "sb" in l else ""
        lines.append(f"  - {{name: L{i}, size: {l['size']} B, ways: {l['ways']}, line: {l['line']} B{sb}, "
                     f"replacement: {l['repl']}, write_policy: {policy}, write_allocate: {allocate}}}")
    return "\n".join(lines) + "\n"
