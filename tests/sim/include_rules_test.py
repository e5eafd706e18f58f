#!/usr/bin/env python3
"""Fails when a source file includes a folder its library may not depend on.

The allowed arrows are the library map of docs/ARCHITECTURE.md: each folder
may include itself and the folders listed for it, nothing else. The plain-C++
logic (models/ but models/tlm) may not include SystemC or TLM headers.
Why a test: a back-edge compiles fine the day it appears and makes the next
split impossible; here it fails the suite the same day.
"""
import os
import re
import sys

SIM_BASE = ["sim/common"]
ALLOWED = {
    "sim/common": [],
    "sim/host": [],  # the host's microbenchmarks: they time the machine, no model
    "sim/config": SIM_BASE,
    "sim/trace": SIM_BASE + ["sim/config"],
    "sim/report": SIM_BASE + ["sim/config"],
    "sim/exec": SIM_BASE + ["sim/config", "sim/trace"],
    "sim/frontend": SIM_BASE + ["sim/config", "sim/trace", "sim/exec"],
    # The explicitly managed memories' logic (a scratchpad's banks) and the
    # busy port they and the coherence directory share.
    "models/memory": SIM_BASE + ["sim/config", "sim/trace", "sim/report"],
    "models/dram": SIM_BASE + ["sim/config", "sim/trace", "sim/report", "models/memory"],
    "models/core": SIM_BASE + ["sim/config", "sim/trace", "sim/report"],
    "models/cache": SIM_BASE + ["sim/config", "sim/trace", "sim/report", "models/memory", "models/core"],
    "models/attribution": SIM_BASE + ["sim/config", "sim/trace", "sim/report", "models/dram"],
    "models/tlm": SIM_BASE + ["sim/config", "sim/trace", "sim/report", "models/memory", "models/dram",
                              "models/core", "models/cache", "models/attribution"],
    # Above single runs: sweeps, compare, the report flattener. No model and
    # no command line: sim/cli holds options and wiring only.
    "sim/analysis": SIM_BASE + ["sim/config", "sim/trace", "sim/report", "sim/exec", "sim/frontend"],
    "sim/cli": None,  # the program: may include every library
    "bench": None,
}
PLAIN_CPP = ("models/cache", "models/memory", "models/dram", "models/core", "models/attribution", "sim/")
SYSTEMC_HEADERS = re.compile(r'#\s*include\s*<(systemc|systemc\.h|tlm|tlm\.h|tlm_utils/[^>]*)>')
PROJECT_INCLUDE = re.compile(r'#\s*include\s*"([^"]+)"')


def folder_of(rel):
    parts = rel.split("/")
    for depth in (2, 1):
        key = "/".join(parts[:depth])
        if key in ALLOWED:
            return key
    return None


# The product (everything but bench/) includes nothing from bench/: a
# benchmark may use the product, never the other way round.
def product_includes_bench(rel, target):
    return not rel.startswith("bench/") and target == "bench"


def check(root):
    errors = []
    for top in ("sim", "models", "bench"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in files:
                if not name.endswith((".h", ".cpp", ".in")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
                own = folder_of(rel)
                if own is None:
                    errors.append(f"{rel}: folder not in the library map (tests/sim/include_rules_test.py)")
                    continue
                allowed = ALLOWED[own]
                with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = PROJECT_INCLUDE.match(line.strip())
                        if m and product_includes_bench(rel, folder_of(m.group(1))):
                            errors.append(f"{rel}:{lineno}: the product may not include {m.group(1)} (bench/)")
                        if m and allowed is not None:
                            target = folder_of(m.group(1))
                            if target is not None and target != own and target not in allowed:
                                errors.append(f"{rel}:{lineno}: {own} may not include {m.group(1)}")
                        if rel.startswith(PLAIN_CPP) and own != "sim/cli" and SYSTEMC_HEADERS.match(line.strip()):
                            errors.append(f"{rel}:{lineno}: plain-C++ logic may not include SystemC ({line.strip()})")
    return errors


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    errors = check(root)
    # The checker itself must see a back-edge: a self-test on a made-up file.
    probe = check_text("sim/exec/x.cpp", '#include "sim/frontend/frontend.h"\n')
    if not probe:
        errors.append("include_rules_test: the checker missed a known back-edge")
    if not product_includes_bench("sim/cli/cmd_config.cpp", folder_of("bench/host_probe.h")):
        errors.append("include_rules_test: the checker missed the product including bench/")
    for e in errors:
        print(e)
    print(f"include rules: {len(errors)} violation(s)")
    return 1 if errors else 0


def check_text(rel, text):
    own = folder_of(rel)
    out = []
    for line in text.splitlines():
        m = PROJECT_INCLUDE.match(line.strip())
        if m:
            target = folder_of(m.group(1))
            if target and target != own and target not in (ALLOWED[own] or []):
                out.append(line)
    return out


if __name__ == "__main__":
    sys.exit(main())
