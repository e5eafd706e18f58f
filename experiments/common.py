"""Shared by the experiments (experiments/*/run): finding pto-sim, running it
into a private temporary directory, tables, pictures and the results file
that README's "Results" section is generated from. Scripts, not a pto-sim
subcommand, because an experiment is many runs plus a picture (matplotlib,
Python) plus prose; keeping them out of the binary keeps it free of
plotting and lets a reader see and change each experiment in one file."""
import argparse
import concurrent.futures
import hashlib
import json
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def arguments(doc, quick_help):
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pto-sim", default=None, help="the binary (default: build/ or build-dev/ of this checkout)")
    p.add_argument("--quick", action="store_true", help=quick_help)
    p.add_argument("--check", action="store_true", help="assert the experiment's orderings (exit 1 when one fails)")
    p.add_argument("--out", default=None, help="where to write results.md and the PNG (default: the experiment's "
                   "out/; with --quick a temporary directory unless given)")
    p.add_argument("-j", type=int, default=1, help="runs at a time (default 1)")
    p.add_argument("--reports", default=None, metavar="DIR",
                   help="keep each run's JSON report in DIR and reuse one whose binary, arguments and input files "
                   "are unchanged (to rewrite a table or its prose without simulating again)")
    return p


def binary(given):
    if given:
        return given
    for b in ("build", "build-dev"):
        path = os.path.join(ROOT, b, "sim", "cli", "pto-sim")
        if os.access(path, os.X_OK):
            return path
    sys.exit("no pto-sim found under build/ or build-dev/: build it or pass --pto-sim")


class Runner:
    """Runs pto-sim into its own temporary directory; a failed run stops the
    experiment with pto-sim's message (exit 2), never a half table."""

    def __init__(self, pto_sim, jobs, reports=None):
        self.bin = pto_sim
        self.jobs = max(1, jobs)
        self.reports = reports
        if reports:
            os.makedirs(reports, exist_ok=True)
            self.bin_hash = _file_hash(pto_sim)
        self.tmp = tempfile.mkdtemp(prefix="ptosim-exp-")
        # The reports are read as they come; nothing of them is kept (a --quick run in CI left one per run).
        atexit.register(shutil.rmtree, self.tmp, True)
        self.n = 0

    def host_config(self):
        path = os.path.join(self.tmp, "host.yaml")
        p = subprocess.run([self.bin, "config", "host"], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"pto-sim config host failed: {p.stderr.strip()}")
        open(path, "w").write(p.stdout)
        return path

    def _key(self, args):
        """A kept report's name: the binary's bytes and each argument, as the contents of the file it names when it
        names one (config host's YAML is written to a new temporary path every time). A .pto that imports
        nothing and a config that includes nothing are all a run reads, so an unchanged key is an unchanged run."""
        h = hashlib.sha256(self.bin_hash.encode())
        for a in args:
            h.update(b"\0" + (("file:" + _file_hash(a)) if os.path.isfile(a) else "arg:" + a).encode())
        return os.path.join(self.reports, h.hexdigest()[:32] + ".json")

    def _one(self, args):
        if self.reports:
            kept = self._key(args)
            if os.path.exists(kept):
                return json.load(open(kept))
            rep = self._run(args)
            tmp = f"{kept}.{os.getpid()}.{id(args)}.tmp"
            with open(tmp, "w") as f:
                json.dump(rep, f)
            os.replace(tmp, kept)  # atomic: a stopped run leaves no half report to be reused
            return rep
        return self._run(args)

    def _run(self, args):
        self.n += 1
        out = os.path.join(self.tmp, f"r{self.n}_{os.getpid()}_{id(args)}.json")
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        t0 = time.monotonic()
        p = subprocess.Popen([self.bin, "run", *args, "--format", "json", "-o", out], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, env=env)
        err = p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)  # the run's own CPU time: on a shared machine wall time says little
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            raise RuntimeError(f"pto-sim run {' '.join(args)} failed ({p.returncode}): {err.strip()}")
        rep = json.load(open(out))
        rep["_run_cost"] = {"cpu_seconds": usage.ru_utime + usage.ru_stime, "wall_seconds": time.monotonic() - t0,
                            "max_rss_kib": usage.ru_maxrss}
        return rep

    def many(self, arg_lists):
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            try:
                return list(pool.map(self._one, arg_lists))
            except RuntimeError as e:
                sys.stderr.write(f"{e}\n")
                sys.exit(2)


def _file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def host_name():
    """The CPU the figures were taken on (/proc/cpuinfo's model name)."""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown host"


def caches(report):
    return [l for l in report["levels"] if l["kind"] == "cache"]


def table(header, rows):
    cols = [header] + [[str(c) for c in r] for r in rows]
    w = [max(len(r[i]) for r in cols) for i in range(len(header))]
    line = lambda r: "| " + " | ".join(c.rjust(w[i]) if i else c.ljust(w[i]) for i, c in enumerate(r)) + " |"
    return "\n".join([line(header), "|" + "|".join("-" * (x + 2) for x in w) + "|"] + [line(r) for r in cols[1:]])


def pyplot():
    try:
        import matplotlib
    except ImportError:
        sys.exit(f"needs matplotlib, which {sys.executable} cannot import: install Debian's python3-matplotlib "
                 "(apt-get install python3-matplotlib) and run with /usr/bin/python3")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def out_dir(args, here):
    if args.out:
        d = args.out
    elif args.quick:
        # --quick without --out keeps nothing: the suite runs it, and a picture at reduced size is not a result.
        d = tempfile.mkdtemp(prefix="ptosim-exp-out-")
        atexit.register(shutil.rmtree, d, True)
    else:
        d = os.path.join(here, "out")
    os.makedirs(d, exist_ok=True)
    return d


def picture_line(args, title, experiment, png):
    """The results file's line for the picture: README's link for the committed full-size run, else where it is
    (or that it was not kept)."""
    if not args.quick:
        return f"![{title}](experiments/{experiment}/out/{os.path.basename(png)})"
    return f"Picture: {png}" if args.out else "Picture: not kept at --quick (pass --out DIR to keep it)."


def size_bytes(text):
    """A config size as the resolved config prints it ('32 KiB', '35.75 MiB', '64 B') in bytes."""
    num, unit = str(text).split()
    return int(float(num) * {"B": 1, "KiB": 1024, "MiB": 1 << 20, "GiB": 1 << 30}[unit])


def register_bytes(binary, config):
    """The bytes of a config's register file: its resolved `memories` entry of kind register (None without one: the
    NPU's `register` space is its unified buffer, sized for tiles)."""
    import yaml
    p = subprocess.run([binary, "config", "show", config], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"pto-sim config show {config} failed: {p.stderr.strip()}")
    mems = yaml.safe_load(p.stdout).get("memories") or []
    return max((size_bytes(m["size"]) for m in mems if m.get("kind") == "register"), default=None)


def cached_tiles(reg_bytes, tf=8, th=8, tw=8):
    """conv2d_cached.pto's output tile (TF x TH x TW of fp32, held in `register`) sized to a register file as an
    engineer sizes a register block: the workload's 8x8x8 where it fits (the Xeon's 2 KiB of zmm registers), TH and
    then TW halved while it does not (an AVX2 host's 1 KiB takes 8x4x8)."""
    while reg_bytes is not None and tf * th * tw * 4 > reg_bytes and (th > 1 or tw > 1):
        if th >= tw:
            th //= 2
        else:
            tw //= 2
    return dict(TF=tf, TH=th, TW=tw)


def write_results(d, text):
    """results.md: what README's Results section is made of (scripts/gen-results.py)."""
    tmp = os.path.join(d, ".results.md.tmp")
    open(tmp, "w").write(text)
    os.replace(tmp, os.path.join(d, "results.md"))


class Checks:
    def __init__(self):
        self.failed = []

    def expect(self, what, ok, detail=""):
        print(f"{'ok' if ok else 'FAIL'}: {what}" + ("" if ok else f" ({detail})"))
        if not ok:
            self.failed.append(what)

    def finish(self):
        if self.failed:
            sys.exit(1)
