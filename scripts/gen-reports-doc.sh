#!/usr/bin/env bash
# Rewrites the generated key table of docs/REPORTS.md from the one list of
# report keys (sim/report/report_keys.cpp), via `pto-sim schema`. With
# --check it changes nothing and fails when the table is out of date (a test).
# Usage: scripts/gen-reports-doc.sh [--check] [PTO_SIM]
set -euo pipefail
cd "$(dirname "$0")/.."
check=()
if [ "${1:-}" = "--check" ]; then check=(--check); shift; fi
bin="${1:-build/sim/cli/pto-sim}"
python3 scripts/gen_doc_table.py "${check[@]}" docs/REPORTS.md report-keys scripts/gen-reports-doc.sh -- \
  "$bin" schema --format markdown
