#!/usr/bin/env bash
# Builds the whole project and its test suite with AddressSanitizer and
# UndefinedBehaviorSanitizer (g++) into build-asan/ and runs the suite there:
# any report fails the test that triggered it.
#
# SystemC (Debian's build) runs SC_THREADs on QuickThreads coroutines and
# switches their stacks under the thread that calls sc_start without telling
# ASan, which then misreads that thread's stack on every later throw
# (google/sanitizers#189: "ignoring requested __asan_handle_no_return", then
# false stack-buffer-overflows). What we chose: System::run starts the kernel
# on a thread of its own and waits for it (models/tlm/system.cpp), so the
# thread that rethrows the simulation's errors and runs everything after it
# never switched stacks; and inside the simulation no exception leaves a
# coroutine through a throw (the producer's error travels as an
# exception_ptr: EventPipe::drain, CoreModule::run).
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
