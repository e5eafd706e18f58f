"""ptosim: drive the pto-sim simulator from Python (standard library only).

Each simulation runs in its own `pto-sim` process (SystemC allows one
simulation per process), so this module only builds command lines and reads
what pto-sim writes: JSON reports and sweep CSVs (docs/PYTHON.md).

    import ptosim
    rep = ptosim.run("workloads/matmul_tiled.pto", params={"TM": 16})
    rows = ptosim.sweep("workloads/matmul_tiled.pto", params={"TM": [16, 32], "TN": "16..64:x2"})

Errors raise PtoSimError with pto-sim's message and its position (file,
line, column, key); a failed pto.check raises CheckFailed, which carries the
report.
"""
import csv
import json
import os
import re
import shutil
import subprocess
import tempfile

__all__ = ["run", "sweep", "load", "binary", "PtoSimError", "CheckFailed"]


class PtoSimError(Exception):
    """pto-sim rejected an input (exit status 2), or could not be run.

    message: pto-sim's first error line; file, line, col, key: its position
    (line and col are 0 when unknown, key "" when none); detail: the rest of
    the message; stderr: all of it."""

    _POS = re.compile(r"^(?P<file>.+?):(?P<line>\d+)(?::(?P<col>\d+))?: (?:(?P<key>[A-Za-z0-9_.\[\]]+): )?(?P<detail>.*)$")
    _NOPOS = re.compile(r"^(?P<file>[^:]+): (?:(?P<key>[A-Za-z0-9_.\[\]]+): )?(?P<detail>.*)$")

    def __init__(self, stderr, status=2):
        self.stderr = stderr
        self.status = status
        lines = [l for l in stderr.splitlines() if l.strip()]
        self.message = lines[0] if lines else f"pto-sim exited with status {status}"
        self.file, self.line, self.col, self.key, self.detail = "", 0, 0, "", self.message
        m = self._POS.match(self.message) or self._NOPOS.match(self.message)
        if m:
            g = m.groupdict()
            self.file = g["file"]
            self.line = int(g.get("line") or 0)
            self.col = int(g.get("col") or 0)
            self.key = g.get("key") or ""
            self.detail = g["detail"]
        super().__init__(self.message)


class CheckFailed(PtoSimError):
    """A pto.check failed (exit status 1); `report` holds the run's report."""

    def __init__(self, stderr, report):
        super().__init__(stderr, 1)
        self.report = report


def binary(path=None):
    """The pto-sim executable: `path`, $PTOSIM_BIN, the repository's build
    folders, or pto-sim on $PATH."""
    if path:
        return path
    if os.environ.get("PTOSIM_BIN"):
        return os.environ["PTOSIM_BIN"]
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    # The repository's build folders (PYTHONPATH=python), or PREFIX/bin after
    # `cmake --install` (the module is in PREFIX/lib/python3/dist-packages).
    candidates = [os.path.join(root, b, "sim", "cli", "pto-sim") for b in ("build", "build-rel", "build-dev")]
    candidates.append(os.path.join(here, "..", "..", "..", "..", "bin", "pto-sim"))
    for p in candidates:
        if os.access(p, os.X_OK):
            return os.path.normpath(p)
    found = shutil.which("pto-sim")
    if not found:
        raise PtoSimError("pto-sim: not found (set PTOSIM_BIN or put pto-sim on PATH)")
    return found


def _values(v):
    """A sweep axis: a list of values, or pto-sim's own text ("16..256:x2")."""
    if isinstance(v, (list, tuple, range)):
        return ",".join(_text(x) for x in v)
    return _text(v)


def _text(v):
    if isinstance(v, bool):
        return "True" if v else "False"
    return str(v)


def _sets(sets, axes):
    args = []
    for path, v in (sets or {}).items():
        args += ["--set", f"{path}={_values(v) if axes else _text(v)}"]
    return args


def _call(args, bin_path):
    try:
        return subprocess.run([binary(bin_path)] + args, capture_output=True, text=True,
                              env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    except OSError as e:
        raise PtoSimError(f"pto-sim: cannot run {binary(bin_path)}: {e}") from None


def run(program=None, params=None, config=None, flush=False, trace=None, sets=None, max_events=None, bin=None):
    """Simulates a program (or replays `trace`) and returns its JSON report as
    a dict. params: {name: value} for -D; sets: {dotted.path: value} for --set;
    config: a YAML path (None = the built-in default)."""
    if (program is None) == (trace is None):
        raise ValueError("give a program or a trace")
    args = ["run"] + ([program] if program is not None else ["--trace", trace])
    for name, v in (params or {}).items():
        args += ["-D", f"{name}={_text(v)}"]
    if config:
        args += ["--config", config]
    args += _sets(sets, False)
    if flush:
        args.append("--flush")
    if max_events:
        args += ["--max-events", str(max_events)]
    with tempfile.TemporaryDirectory(prefix="ptosim-") as tmp:
        out = os.path.join(tmp, "report.json")
        p = _call(args + ["--format", "json", "-o", out], bin)
        if p.returncode == 1 and os.path.exists(out):
            raise CheckFailed(p.stderr, load(out))
        if p.returncode != 0:
            raise PtoSimError(p.stderr, p.returncode)
        return load(out)


def sweep(program=None, params=None, sets=None, configs=None, jobs=None, output=None, json_dir=None, timeout=None,
          trace=None, bin=None):
    """Runs `pto-sim sweep` (points in parallel processes) and returns its
    rows as dicts, numbers as int / float. params: {name: [values] or
    "16..256:x2"}; sets: {dotted.path: [values]}; configs: [paths] (None =
    the built-in one). output: the CSV (kept, and resumed when it exists);
    None = a temporary file. Failed points are rows with their `status` and
    `error`; a sweep that cannot start raises PtoSimError."""
    if (program is None) == (trace is None):
        raise ValueError("give a program or a trace")
    args = ["sweep"] + ([program] if program is not None else ["--trace", trace])
    for name, v in (params or {}).items():
        args += ["-D", f"{name}={_values(v)}"]
    args += _sets(sets, True)
    if configs:
        args += ["--config", ",".join(configs) if not isinstance(configs, str) else configs]
    if jobs:
        args += ["-j", str(jobs)]
    if json_dir:
        args += ["--json-dir", json_dir]
    if timeout:
        args += ["--timeout", str(timeout)]
    with tempfile.TemporaryDirectory(prefix="ptosim-sweep-") as tmp:
        out = output or os.path.join(tmp, "results.csv")
        p = _call(args + ["-o", out], bin)
        if p.returncode not in (0, 1):
            raise PtoSimError(p.stderr, p.returncode)
        return load(out)


def _typed(s):
    if s == "":
        return None
    if re.fullmatch(r"-?\d+", s):
        return int(s)
    try:
        return float(s)
    except ValueError:
        pass
    return {"true": True, "false": False}.get(s, s)


def load(path):
    """A JSON report -> dict; a CSV (sweep results or --format csv) -> list of
    dicts with typed values; a folder -> the list of its *.json reports."""
    if os.path.isdir(path):
        return [load(os.path.join(path, f)) for f in sorted(os.listdir(path)) if f.endswith(".json") and f != "sweep.json"]
    if path.endswith(".csv"):
        with open(path, newline="") as f:
            return [{k: _typed(v) for k, v in row.items()} for row in csv.DictReader(f)]
    with open(path) as f:
        try:
            return json.load(f)
        except json.JSONDecodeError as e:
            raise PtoSimError(f"{path}:{e.lineno}:{e.colno}: JSON syntax: {e.msg}") from None
