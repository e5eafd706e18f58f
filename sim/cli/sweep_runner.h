#pragma once
// Runs a sweep's points as separate `pto-sim run` processes (SystemC allows
// one simulation per process), turns each point's outcome into one CSV row,
// and writes the same rows from per-point files produced elsewhere
// (--emit-jobs / --merge). The table layout is fixed before the first point
// runs, so rows can be appended as points finish and a resumed or merged
// sweep writes the same columns.
#include <map>
#include <string>
#include <vector>

#include "sim/cli/sweep_plan.h"

namespace ptosim::cli {

struct SweepTable {
  std::vector<std::string> columns;
  // Config + overrides combinations that do not load: their points get an
  // `invalid` row without running. Keyed by config path and overrides.
  std::map<std::string, std::string> invalid;
};

// Validates the sweep up front (program parameters, configs with their
// overrides) and lays out its columns. Throws InputError for a sweep that
// cannot run at all; combinations that are merely invalid become rows.
SweepTable plan_table(const SweepSpec& spec, const std::vector<SweepPoint>& points);

// Runs every point not already in spec.output; returns the exit status
// (0 all done, 1 some point failed, 2 bad input, 130 interrupted).
int run_sweep(const SweepSpec& spec);

// --emit-jobs FILE: one shell command per point, results into spec.json_dir.
int emit_jobs(const SweepSpec& spec, const std::string& jobs_file);
// --merge DIR -o CSV: the rows of every point that finished in DIR.
int merge_sweep(const std::string& dir, const std::string& output);

// --best KEY[:min|:max] over a results CSV: prints the top `count` points.
int print_best(const std::string& csv_path, const std::string& key, size_t count);

// A CSV file as rows of fields (RFC 4180 quoting); InputError with line on a
// malformed file.
std::vector<std::vector<std::string>> read_csv(const std::string& path);

}  // namespace ptosim::cli
