#!/usr/bin/env bash
# Rewrites the generated table of `pto.` calls in docs/LANGUAGE.md from the
# interpreter's own table (the built-ins and the ops registered beside their
# implementations, sim/exec/pto_op.h), via `pto-sim schema --pto-ops`, so that
# a new op edits no hand-written list. With --check it changes nothing and
# fails when the table is out of date (the language_doc test).
# Usage: scripts/gen-language-doc.sh [--check] [PTO_SIM]
set -euo pipefail
cd "$(dirname "$0")/.."
check=()
if [ "${1:-}" = "--check" ]; then check=(--check); shift; fi
bin="${1:-build/sim/cli/pto-sim}"
python3 scripts/gen_doc_table.py "${check[@]}" docs/LANGUAGE.md pto-ops scripts/gen-language-doc.sh -- \
  "$bin" schema --pto-ops --format markdown
