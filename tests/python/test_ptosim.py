#!/usr/bin/env python3
"""Tests of the Python module python/ptosim against the built binary, and
of its sweep-and-plot example. Usage: test_ptosim.py PTO_SIM SOURCE_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

PTO_SIM, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(SRC, "python"))
import ptosim  # noqa: E402

TILED = os.path.join(SRC, "workloads", "matmul_tiled.pto")


class PtoSimTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ptosim-py-")
        os.environ["PTOSIM_BIN"] = PTO_SIM

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_run_returns_the_report(self):
        r = ptosim.run(TILED, params={"TM": 16}, sets={"caches.L1.size": "16 KiB"})
        self.assertEqual(r["schema_version"], 2)
        self.assertEqual(r["parameters"]["TM"], 16)
        self.assertEqual(r["parameters"]["TN"], 32)
        self.assertIsInstance(r["cycles"], int)
        self.assertEqual(r["config_resolved"]["caches"][0]["size"], "16 KiB")

    def test_run_error_carries_message_and_position(self):
        with self.assertRaises(ptosim.PtoSimError) as c:
            ptosim.run(TILED, params={"TM": "abc"})
        e = c.exception
        self.assertEqual((e.file, e.line, e.col), (TILED, 17, 42))
        self.assertIn("tile size M must be an integer", e.detail)
        self.assertEqual(e.status, 2)
        with self.assertRaises(ptosim.PtoSimError) as c:
            ptosim.run(TILED, sets={"caches.L1.size": "abc"})
        self.assertEqual(c.exception.file, "--set caches.L1.size=abc")
        self.assertEqual(c.exception.key, "caches[0].size")

    def test_check_failure_raises_with_the_report(self):
        prog = os.path.join(self.tmp, "bad.pto")
        with open(prog, "w") as f:
            f.write("A = pto.tensor([4], pto.float32, init=\"ones\")\n"
                    "pto.check(A, pto.tensor([4], pto.float32, init=\"zeros\"))\n")
        with self.assertRaises(ptosim.CheckFailed) as c:
            ptosim.run(prog)
        self.assertEqual(c.exception.line, 2)
        self.assertEqual(c.exception.report["program"]["checks_failed"], 1)

    def test_sweep_rows_and_load(self):
        out = os.path.join(self.tmp, "r.csv")
        rows = ptosim.sweep(TILED, params={"TM": [16, 32], "TN": "16..32:x2"}, jobs=2, output=out,
                            json_dir=os.path.join(self.tmp, "j"))
        self.assertEqual(len(rows), 4)
        self.assertEqual({(r["param.TM"], r["param.TN"]) for r in rows}, {(16, 16), (16, 32), (32, 16), (32, 32)})
        self.assertTrue(all(r["status"] == "ok" and isinstance(r["cycles"], int) for r in rows))
        self.assertEqual(ptosim.load(out), rows)
        reports = ptosim.load(os.path.join(self.tmp, "j"))
        self.assertEqual(sorted(r["cycles"] for r in reports), sorted(r["cycles"] for r in rows))

    def test_sweep_that_cannot_start_raises(self):
        with self.assertRaises(ptosim.PtoSimError) as c:
            ptosim.sweep(TILED, params={"TQ": [1]})
        self.assertEqual(c.exception.file, "-D")
        self.assertEqual(c.exception.key, "TQ")

    def test_load_bad_json_has_position(self):
        p = os.path.join(self.tmp, "x.json")
        with open(p, "w") as f:
            f.write('{"a": 1,\n "b": }\n')
        with self.assertRaises(ptosim.PtoSimError) as c:
            ptosim.load(p)
        self.assertEqual((c.exception.line, c.exception.col), (2, 7))

    def test_sweep_and_plot_example(self):
        png = os.path.join(self.tmp, "plot.png")
        # Debian's python3-matplotlib (scripts/setup.sh) belongs to /usr/bin/python3,
        # which need not be the python3 first on PATH.
        python = sys.executable
        if subprocess.run([python, "-c", "import matplotlib"], capture_output=True).returncode != 0:
            python = "/usr/bin/python3"
        p = subprocess.run([python, os.path.join(SRC, "python", "examples", "sweep_plot.py"), png, "--size", "64"],
                           capture_output=True, text=True, env=dict(os.environ, PTOSIM_BIN=PTO_SIM))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("6 points plotted", p.stdout)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=1)
