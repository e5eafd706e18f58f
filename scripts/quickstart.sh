#!/usr/bin/env bash
# Installs the packages, builds (Release) and runs the main job: a tiled
# matmul PTO kernel on the default config (its pto.check must pass), then the
# replay of a naive 128x128x128 fp32 matmul's memory trace.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
mkdir -p out
build/sim/cli/pto-sim run workloads/matmul_tiled.pto -D M=256 -D N=256 -D K=256
build/bench/gen_matmul_trace 128 > out/matmul128.din
build/sim/cli/pto-sim run --trace out/matmul128.din
