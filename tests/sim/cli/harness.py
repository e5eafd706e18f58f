"""Shared helpers of the end-to-end test scripts: run the binary, record
checks, write temp files, print the closing "N passed, N failed" line."""
import json
import os
import subprocess
import sys
import tempfile


class Harness:
    def __init__(self, prefix):
        self.pto_sim, self.src = sys.argv[1], sys.argv[2]
        self.env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        self.passed = self.failed = 0
        self.skipped = []  # parts this machine cannot run (no pty, ...): exit 77, CTest's SKIP_RETURN_CODE
        self.tmp = tempfile.mkdtemp(prefix=prefix)
        self._choices = None

    def choices(self, kind):
        """The registered names of one open concept ("replacement", "prefetcher",
        "dram timing", "core model"), in listing order, from the binary itself
        (`pto-sim schema --choices`): no test spells a whole choice list."""
        if self._choices is None:
            p = subprocess.run([self.pto_sim, "schema", "--choices", "--format", "json"], capture_output=True,
                               text=True, env=self.env, timeout=60, check=True)
            self._choices = json.loads(p.stdout)
        return [c["name"] for c in self._choices[kind]]

    def listing(self, kind):
        """The choices as config errors list them: "a | b | c"."""
        return " | ".join(self.choices(kind))

    def run(self, *args, stdin=None, timeout=120):
        try:
            p = subprocess.run([self.pto_sim, *args], input=stdin, capture_output=True, text=True, env=self.env,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            return -1, "", f"timed out after {timeout} s"
        return p.returncode, p.stdout, p.stderr

    def check(self, name, cond, detail=""):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {name}: {str(detail)[:2000]}")
        return cond

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def skip(self, reason):
        self.skipped.append(reason)
        print(f"skipped: {reason}")

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed" + (f", {len(self.skipped)} part(s) skipped: " +
                                                           "; ".join(self.skipped) if self.skipped else ""))
        sys.exit(1 if self.failed else 77 if self.skipped else 0)


def level(report, name):
    return next(l for l in report["levels"] if l["name"] == name)
