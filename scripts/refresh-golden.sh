#!/usr/bin/env bash
# Regenerates tests/golden/: one JSON report per shipped workload on every
# shipped config at its default parameters. Run it on purpose, after a change
# that is meant to move the figures, and review the diff like code.
# Deterministic: run from the repository root with relative paths, and the
# two fields that differ between runs (started_at, wall_seconds) are dropped,
# and the command line is "pto-sim run ..." without the temporary -o path.
# Usage: scripts/refresh-golden.sh [PTO_SIM]   (default: build/sim/cli/pto-sim)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-build/sim/cli/pto-sim}"
[ -x "$bin" ] || { echo "refresh-golden: no pto-sim at $bin (build first or pass its path)" >&2; exit 2; }
out=tests/golden
mkdir -p "$out"
rm -f "$out"/*.json
infeasible="$out/INFEASIBLE.txt"
echo "# workload x config pairs without a baseline: the run fails at its default parameters (scripts/refresh-golden.sh)" > "$infeasible"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for w in workloads/*.pto; do
  for c in configs/*.yaml; do
    name="$(basename "$w" .pto)__$(basename "$c" .yaml)"
    if "$bin" run "$w" --config "$c" --format json -o "$tmp/r.json" 2> "$tmp/err"; then
      python3 - "$tmp/r.json" "$out/$name.json" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]), object_pairs_hook=dict)
for k in ("started_at", "wall_seconds"):
    r.pop(k, None)
# The binary's and the temporary output's paths depend on who refreshes.
cmd = r["command_line"]
r["command_line"] = re.sub(r" -o \S+$", "", "pto-sim" + cmd[cmd.index(" run "):])
open(sys.argv[2], "w").write(json.dumps(r, indent=2) + "\n")
PY
      n=$((n + 1))
    else
      echo "$name: $(head -1 "$tmp/err")" >> "$infeasible"
    fi
  done
done
echo "refresh-golden: $n baselines in $out; $(($(wc -l < "$infeasible") - 1)) infeasible pairs listed in $infeasible"
