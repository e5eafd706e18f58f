#!/usr/bin/env python3
"""A hypothesis for tr_blk_32's store columns, run as a toy model.

bench/fidelity/residency.py measures that a column of K store lines cycled
word by word misses L1D on every store whatever K, yet costs 3.7 cycles a
store near K = 32 and 64 and 6-10 elsewhere (store_window.cpp). This is the
closest mechanism tried, kept as an executable statement of what was
tested and how it fails (docs/PERFORMANCE.md,
"tr_blk_32's store columns"); it is not pto-sim and fits no figure:

- a store queue of W entries; stores dispatch one a cycle while there is
  room and execute (address known) a cycle later;
- the oldest N executed stores fetch their lines (an RFO near the head of
  the queue, always useful), and the head drains when its line is there,
  in order, a cycle each;
- the hypothesis (on unless --no-rfo): a store that executes while its line is
  neither in L1D nor on its way fetches it then, 64 entries before it
  drains; in these patterns that line is evicted again before its store
  drains (a wasted fill), unless the line is the one the head is writing
  (K x stores-a-position divides W) or an older queued store uses it;
- L1D: 64 sets x 8 ways, LRU (as measured); a set takes a fill every F
  cycles (fill and dirty victim), each arriving L cycles after its request.

With the defaults (F = 7: the native fast case's 3.7 cycles a store over
two sets) it gets the native dip at K = 28-34 (one store a position, 2 and
4 KiB apart) and the slow 36-40 and 72-128; it does not get the slow
K = 20-26 and 48-56 (fast here: the line fetched at execute serves an
older queued store), the dip's staying with three and four stores a
position (natively 3.7-5.3 at K = 30-34; here none with three), nor the
1 KiB spacing (too fast at K = 40-72). So it is not the mechanism.
Without --rfo every K costs 3.5: the fast case.

    python3 bench/fidelity/store_window_model.py [--no-rfo] [--apart B] [--repeat R] [--near N] [-F F] [-L L]
"""
import argparse
import collections

KS = (16, 20, 24, 26, 28, 30, 32, 34, 36, 40, 48, 56, 64, 72, 96, 128)


def cycles_a_position(K, apart, repeat, rfo, near, F, L, W=64, ways=8, sets_n=64, columns=4):
    seq = []
    for b in range(columns):
        for w in range(16):
            for k in range(K):
                seq += [(k * apart) // 64 + b] * repeat
    n = len(seq)
    sets = collections.defaultdict(collections.OrderedDict)  # set -> lines, LRU first
    inflight, arriving = {}, collections.defaultdict(list)
    set_free = collections.defaultdict(lambda: -10**9)

    def present(line):
        return line in sets[line % sets_n]

    def fetch(line, t):
        if line in inflight or present(line):
            return
        s = line % sets_n
        at = max(t + L, set_free[s] + F)
        set_free[s] = at
        inflight[line] = at
        arriving[at].append(line)

    head = dispatched = t = 0
    executing = collections.deque()
    executed = [False] * n
    drained = [0] * n
    while head < n:
        for line in arriving.pop(t, ()):
            del inflight[line]
            s = sets[line % sets_n]
            s[line] = None
            s.move_to_end(line)
            if len(s) > ways:
                s.popitem(last=False)
        while executing and executing[0][0] <= t:
            j = executing.popleft()[1]
            executed[j] = True
            if rfo:
                fetch(seq[j], t)
        for j in range(head, min(dispatched, head + near)):
            if executed[j]:
                fetch(seq[j], t)
        if head < dispatched and executed[head]:
            line = seq[head]
            if present(line):
                sets[line % sets_n].move_to_end(line)
                drained[head] = t
                head += 1
                # two stores a cycle within a line (probes.py spair)
                if head < dispatched and executed[head] and seq[head] == line and head % 2:
                    drained[head] = t
                    head += 1
            else:
                fetch(line, t)
        if dispatched < n and dispatched - head < W:
            executing.append((t + 1, dispatched))
            dispatched += 1
        t += 1
    half = n // 2
    return (drained[-1] - drained[half]) / (n - 1 - half) * repeat


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--no-rfo", action="store_true", help="no fetch when a store executes (near-head RFOs only)")
    ap.add_argument("--apart", type=int, default=2048, help="bytes between the K lines")
    ap.add_argument("--repeat", type=int, default=1, help="stores a position (to the same address)")
    ap.add_argument("--near", type=int, default=8, help="queued stores nearest the head that fetch their lines")
    ap.add_argument("-F", type=int, default=7, help="cycles between two fills of a set")
    ap.add_argument("-L", type=int, default=14, help="cycles from a fill's request to its arrival")
    a = ap.parse_args()
    row = [f"{k}:{cycles_a_position(k, a.apart, a.repeat, not a.no_rfo, a.near, a.F, a.L):.1f}" for k in KS]
    print(f"{a.apart} B apart, {a.repeat} store(s) a position, rfo at execute {'off' if a.no_rfo else 'on'}:",
          " ".join(row))


if __name__ == "__main__":
    main()
