#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) into build-fuzz/ and
# runs each in turn for SECONDS (default 10), niced, from its seed corpus in
# fuzz/corpus/. New inputs go to build-fuzz/corpus/, crashes to
# build-fuzz/findings/ (the script then fails). Targets: config din native pto.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# With --unit-tests first, also builds and runs the unit tests under the same
# sanitizers (what CI does with a few seconds per target).
set -euo pipefail
cd "$(dirname "$0")/.."
unit=0
if [ "${1:-}" = "--unit-tests" ]; then unit=1; shift; fi
seconds=${1:-10}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(config din native pto)
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is needed (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
jobs=$(nproc 2>/dev/null || echo 2)
[ -f build-fuzz/CMakeCache.txt ] || CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" -DPTOSIM_FUZZ=ON >/dev/null
build=()
for t in "${targets[@]}"; do build+=("fuzz_$t"); done
[ $unit = 1 ] && build+=(unit_tests)
cmake --build build-fuzz -j "$jobs" --target "${build[@]}"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
if [ $unit = 1 ]; then
  (cd build-fuzz && ./tests/unit_tests --gtest_brief=1)
fi
mkdir -p build-fuzz/findings
for t in "${targets[@]}"; do
  mkdir -p "build-fuzz/corpus/$t"
  echo "fuzz.sh: fuzz_$t for $seconds s"
  # PTOSIM_FUZZ_SEED fixes libFuzzer's seed (CI: the same mutations every
  # run, so a red CI is reproducible and never a matter of luck).
  nice -n 19 "build-fuzz/fuzz/fuzz_$t" ${PTOSIM_FUZZ_SEED:+-seed=$PTOSIM_FUZZ_SEED} \
    -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="build-fuzz/findings/$t-" "build-fuzz/corpus/$t" "fuzz/corpus/$t"
done
