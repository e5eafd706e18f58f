#!/usr/bin/env bash
# Builds if needed and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
cd build && ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"
