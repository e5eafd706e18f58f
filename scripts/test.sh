#!/usr/bin/env bash
# Builds if needed and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
(cd build && ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)")
# The unit tests under ASan + UBSan, and each fuzz target for a few seconds
# from its seed corpus (clang; skipped where it is not installed).
if command -v clang++ >/dev/null; then
  PTOSIM_FUZZ_SEED=1 scripts/fuzz.sh --unit-tests 3
else
  echo "test.sh: no clang++: the sanitized unit tests and the fuzz targets are skipped"
fi
