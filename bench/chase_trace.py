#!/usr/bin/env python3
"""Writes a native trace of a dependent pointer chase: STEPS loads of one
random 64 B line each over a FOOTPRINT, each load's address coming from the
previous load (Access::dep = the event before). Replayed with a `core.model:
cpu` config, one miss is in flight at a time, so cycles / STEPS is the
config's idle load-to-use latency at that footprint — how the Xeon config's
DRAM was calibrated against the ~80 ns it cites (docs/PERFORMANCE.md).

    python3 bench/chase_trace.py chase.ptt --footprint 256MiB --steps 20000
    pto-sim run --trace chase.ptt --config configs/xeon-gold-6248r.yaml
"""
import argparse
import random
import struct


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def zigzag(d):
    return (d << 1) ^ (d >> 63) if d >= 0 else ((-d) << 1) - 1


def parse_size(s):
    s = s.strip()
    for suffix, mult in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if s.endswith(suffix):
            return int(float(s[: -len(suffix)]) * mult)
    return int(s)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--footprint", default="256MiB")
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    lines = parse_size(a.footprint) // 64
    rng = random.Random(a.seed)
    base = 0x10000000
    with open(a.out, "wb") as f:
        f.write(b"PTOTRACE" + struct.pack("<I", 3))
        last = 0
        for i in range(a.steps):
            addr = base + rng.randrange(lines) * 64
            flags = 0 | (4 if i else 0) | (64 if i else 0)  # read, size as before, a dependence
            rec = bytearray([flags])
            if i:
                rec += varint(1)  # waits for the load before it
            rec += varint(zigzag(addr - last))
            if not i:
                rec += varint(8)
            f.write(rec)
            last = addr


if __name__ == "__main__":
    main()
