#!/usr/bin/env python3
"""Fails when a file outside a concept's folder compares a string against a
name registered for that concept (`model == "cpu"`, `"lru" != x`), or when a
file of the bottom layers (BOTTOM: common, config, trace, report) spells one
at all (`std::string replacement = "lru"`: a default the registry declares,
ChoiceLists::default_name).

Why: a layer that switches on a registered name is the place a new choice
is silently skipped (a new prefetcher without the stream's defaults, a new
stack policy refused by `curves`). Such code asks the registry instead
(ChoiceLists::has_trait, ChoiceLists::defaults; sim/common/registry.h). The
names come from `pto-sim schema --choices --format json`, so a new choice is
checked without editing this file; a new concept must name its folder below.
Usage: registered_names_test.py PTO_SIM SOURCE_ROOT
"""
import json
import os
import re
import subprocess
import sys

# Each concept's folder (or folders): the one place its names may be compared.
FOLDERS = {
    "replacement": "models/cache/replacement/",
    "prefetcher": "models/cache/prefetch/",
    "dram timing": "models/dram/",
    "core model": "models/core/",
    # an op registers in its executor family's file, and the language binds it
    "pto op": ("sim/exec/", "sim/frontend/"),
}

# Comparisons that name something else spelled the same, by file and name.
UNRELATED = {
    ("sim/exec/exec_context.cpp", "random"): "a tensor's init, not the replacement policy",
    ("sim/frontend/pto_bindings.cpp", "random"): "a tensor's init, not the replacement policy",
    ("bench/fidelity/probes.cpp", "copy"): "a probe's mode, not the pto op",
}

# The layers below every model: they may not spell a registered name, even
# as a default or an example (param::registered takes both from the registry).
BOTTOM = ("sim/common/", "sim/config/", "sim/trace/", "sim/report/")

# Concepts no config key picks (a program calls a pto op by name): there is no
# default or example for a bottom layer to spell, and their names are words
# those layers use for other things (the npu's "cube" unit), so only the
# comparisons are checked.
NOT_CONFIG_CHOICES = ("pto op",)

# Spellings in BOTTOM that name something else, by file and name.
OTHER_THINGS = {
    ("sim/config/config_loader.cpp", "subblock"): "the config key, not the prefetcher",
    ("sim/config/shared_keys.h", "subblock"): "the config key, not the prefetcher",
    ("sim/config/npu_config.h", "none"): "a buffer's role, not the prefetcher",
    ("sim/config/config_override.cpp", "none"): "an empty list in a message",
    ("sim/report/sampling.cpp", "none"): "a sampled run's warming",
}


def spellings(text, names):
    """The (line, name) of each "name" literal in text, comments left out."""
    alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    pattern = re.compile(r'"(%s)"' % alt)
    found = []
    for i, line in enumerate(text.split("\n"), 1):
        for m in pattern.finditer(line.split("//")[0]):
            found.append((i, m.group(1)))
    return found


def comparisons(text, names):
    """The (line, name) of each `== "name"` / `"name" !=` in text."""
    alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    pattern = re.compile(r'(?:[=!]=\s*"(%s)")|(?:"(%s)"\s*[=!]=)' % (alt, alt))
    found = []
    for m in pattern.finditer(text):
        found.append((text.count("\n", 0, m.start()) + 1, m.group(1) or m.group(2)))
    return found


def self_check():
    names = ["lru", "cpu"]
    bad = 'if (c.replacement != "lru") x();\nbool b = "cpu" == m;\n'
    good = 'const char* d = "lru";  // the default\nif (name == "lrux") y();\nf("cpu");\n'
    assert comparisons(bad, names) == [(1, "lru"), (2, "cpu")], comparisons(bad, names)
    assert comparisons(good, names) == [], comparisons(good, names)
    assert spellings(good, names) == [(1, "lru"), (3, "cpu")], spellings(good, names)
    assert spellings('x = f();  // "lru" is the default\n', names) == []


def main(pto_sim, root):
    self_check()
    out = subprocess.run([pto_sim, "schema", "--choices", "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    kinds = json.loads(out)
    errors = []
    for kind, choices in kinds.items():
        if kind not in FOLDERS:
            errors.append("concept '%s' has no folder in %s's FOLDERS" % (kind, __file__))
            continue
        names = [c["name"] for c in choices]
        for top in ("sim", "models", "bench"):
            for dirpath, _, files in os.walk(os.path.join(root, top)):
                for name in files:
                    if not name.endswith((".h", ".cpp")):
                        continue
                    rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
                    if rel.startswith(FOLDERS[kind]):
                        continue
                    with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                        text = f.read()
                    for line, n in comparisons(text, names):
                        if (rel, n) in UNRELATED:
                            continue
                        errors.append('%s:%d: compares against the %s name "%s"; ask the registry '
                                      "(a trait or a declared default)" % (rel, line, kind, n))
                    if rel.startswith(BOTTOM) and kind not in NOT_CONFIG_CHOICES:
                        for line, n in spellings(text, names):
                            if (rel, n) not in OTHER_THINGS:
                                errors.append('%s:%d: spells the %s name "%s" below the models; take it from the '
                                              "registry (ChoiceLists::default_name, param::registered)"
                                              % (rel, line, kind, n))
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
