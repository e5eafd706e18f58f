#pragma once
// What ties a sweep's children and temporary folder to the sweep's life, so
// that a `kill -9` of the sweep leaves neither running children nor, after
// the next sweep, its folder (docs/SWEEP.md, "When a sweep is killed").
#include <string>
#include <sys/types.h>
#include <vector>

namespace ptosim::cli {

// The environment of a child: this process's, plus the variable that
// watch_sweep_parent() reads (PTOSIM_SWEEP_PARENT=<this pid>), and
// GLIBC_TUNABLES with glibc.malloc.hugetlb=1 unless it names that tunable.
std::vector<std::string> sweep_child_environment();

// In every pto-sim at start: when started by a sweep, asks the kernel for
// SIGTERM when the sweep dies (PR_SET_PDEATHSIG), and ends at once if it
// died already (before the request was made). SIGTERM, not SIGKILL: a run
// stops at its next safe point and leaves only complete files.
void watch_sweep_parent();

// A temporary folder for the sweep's reports, locked (flock on its `.lock`)
// for as long as this process lives; the kernel drops the lock when the
// process dies, however it dies. Folders of dead sweeps (this user's, in
// the same temporary directory, whose lock can be taken) are removed
// first; a folder without a lock file is left alone (an older pto-sim's,
// which may still be running: nothing tells). Returns the folder's path.
std::string make_sweep_temp_dir();

}  // namespace ptosim::cli
