#!/usr/bin/env bash
# Builds the whole project and its test suite with AddressSanitizer and
# UndefinedBehaviorSanitizer (g++) into build-asan/ and runs the suite there:
# any report fails the test that triggered it.
#
# SystemC (Debian's build) runs SC_THREADs on QuickThreads coroutines; a C++
# throw on a coroutine stack makes ASan ignore the unwound frames
# (google/sanitizers#189) and report false stack-buffer-overflows later. The
# simulation therefore never lets an exception leave its coroutine through a
# throw: the producer's error (a bad program, a bad trace) is carried out of
# the SC thread as an exception_ptr and rethrown after sc_start returns
# (EventPipe::drain, CoreModule::run, System::run).
#   scripts/sanitize.sh [ctest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
[ -f build-asan/CMakeCache.txt ] || cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" -DPTOSIM_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$jobs"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
# SystemC keeps its simulation context until exit on purpose: not a leak to report.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd build-asan && ctest --output-on-failure -j "$jobs" "$@"
