#!/usr/bin/env bash
# Rewrites the generated table of model keys in docs/CONFIG.md from the
# models' own declarations (sim/config/params.h, PTOSIM_PARAMS in each
# model's file), via `pto-sim schema --params`. With --check it changes
# nothing and fails when the table is out of date (the config_doc test).
# Usage: scripts/gen-config-doc.sh [--check] [PTO_SIM]
set -euo pipefail
cd "$(dirname "$0")/.."
check=()
if [ "${1:-}" = "--check" ]; then check=(--check); shift; fi
bin="${1:-build/sim/cli/pto-sim}"
python3 scripts/gen_doc_table.py "${check[@]}" docs/CONFIG.md model-keys scripts/gen-config-doc.sh -- \
  "$bin" schema --params --format markdown
