#!/usr/bin/env bash
# Installs the packages, builds (Release) and runs the main job: a naive
# 128x128x128 fp32 matmul's memory trace replayed on the default config.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
mkdir -p out
build/bench/gen_matmul_trace 128 > out/matmul128.din
build/sim/cli/pto-sim run --trace out/matmul128.din
