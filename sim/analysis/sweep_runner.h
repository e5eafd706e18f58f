#pragma once
// The ways a sweep runs: here, as separate `pto-sim run` processes (SystemC
// allows one simulation per process), -j at a time; elsewhere, as emitted
// jobs merged back; and the ranking of its results.
#include <string>
#include <vector>

#include "sim/analysis/sweep_plan.h"

namespace ptosim::cli {

// Runs every point not already in spec.output; returns the exit status
// (0 all done, 1 some point failed, 2 bad input, 130 interrupted).
int run_sweep(const SweepSpec& spec);

// --emit-jobs FILE: one shell command per point, results into spec.json_dir.
int emit_jobs(const SweepSpec& spec, const std::string& jobs_file);
// --merge DIR -o CSV: the rows of every point that finished in DIR.
int merge_sweep(const std::string& dir, const std::string& output);

// --best KEY[:min|:max] over a results CSV: prints the top `count` points.
int print_best(const std::string& csv_path, const std::string& key, size_t count);

}  // namespace ptosim::cli
