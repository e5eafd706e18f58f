#pragma once
// One sweep point's row: the table's columns (fixed before the first point
// runs, so rows can be appended as points finish and a resumed or merged
// sweep writes the same columns), the command that runs a point, and the row
// its outcome becomes. Shared by the local runner, --emit-jobs and --merge.
#include <csignal>
#include <map>
#include <string>
#include <vector>

#include "sim/analysis/sweep_plan.h"
#include "sim/config/hw_config.h"

namespace ptosim::cli {

struct SweepTable {
  std::vector<std::string> columns;
  // Config + overrides combinations that do not load: their points get an
  // `invalid` row without running. Keyed by combo_key().
  std::map<std::string, std::string> invalid;
  // The resolved config's hash of each combination that loads (combo_key).
  std::map<std::string, std::string> config_hash;
  // The program's parameters in source order with their default's canonical
  // value ("" when the default is not a literal, so not known before a run).
  std::vector<std::pair<std::string, std::string>> params;
};

// Validates the sweep up front (program parameters, configs with their
// overrides) and lays out its columns. Throws InputError for a sweep that
// cannot run at all; combinations that are merely invalid become rows.
SweepTable plan_table(const SweepSpec& spec, const std::vector<SweepPoint>& points);

// Sets each point's key: "config=HASH NAME=VALUE ..." with every parameter
// (defaults included, values canonical as the program reads them) in source
// order; a combination that does not load is named by its file and sorted
// overrides instead of a hash. The spelling and order of -D and --set, and a
// -D equal to the default, do not change it.
void name_points(const SweepTable& table, std::vector<SweepPoint>& points);
// A -D value as the program reads it (int, then real, else the text), in
// one spelling: "0x10" and "16" are both "16".
std::string canonical_define(const std::string& value);
// Defaults of the program's `param` statements that are literals, canonical.
std::map<std::string, std::string> literal_param_defaults(const std::string& program);

// How a point's process ended.
struct Outcome {
  bool timed_out = false;
  int signal = 0;      // killed by this signal
  int code = 0;        // exit status otherwise
  double timeout_s = 0;
  // The row keeps the status and error only, not the report's figures
  // (pto-sim tune's probes: it reads each report itself, and checking and
  // flattening reports of many epochs was two thirds of its own CPU).
  bool status_only = false;
  // Stopped by Ctrl-C (SIGINT, or exit 130 from a run that handles it): not a
  // result; the point stays unfinished and a resumed sweep runs it again.
  bool interrupted() const { return !timed_out && (signal == SIGINT || code == 128 + SIGINT); }
};

using Row = std::map<std::string, std::string>;  // column -> cell

// The combination of a config and its overrides: points that share it share
// its validity and its levels.
std::string combo_key(const SweepPoint& p);
// A point's config with its overrides, from the load plan_table made (once
// per version of the file): pto-sim tune's own reads of it (the prefix
// check, the count, the bound) took a second YAML load, 23 M instructions on
// the Xeon config. Throws InputError when the combination does not load.
const HwConfig& point_config(const SweepPoint& p);
// `pto-sim run ...` for a point, its JSON report into `json_out`.
// `single_thread`: the run shares the machine with other points (sweep -j
// N, emitted jobs), so its producer runs on the simulation's thread (run
// --single-thread): one core per point, none spent handing events over.
std::vector<std::string> point_argv(const SweepSpec& spec, const SweepPoint& p, const std::string& json_out,
                                    bool abs_paths, bool single_thread);
// `pto-sim check ...` for a program point: its functional run, no timing model.
std::vector<std::string> precheck_argv(const SweepSpec& spec, const SweepPoint& p);
Row make_row(const SweepTable& table, const SweepPoint& p, const std::string& json_path, const std::string& err_path,
             const Outcome& o);
bool row_ok(const Row& r);
std::string csv_line(const SweepTable& t, const Row& r);
std::string header_line(const SweepTable& t);
std::string csv_fields(const std::vector<std::string>& fields);  // one CSV line

// A CSV file as rows of fields (RFC 4180 quoting); InputError with line on a
// malformed file.
std::vector<std::vector<std::string>> read_csv(const std::string& path);
// A sweep's results CSV (to resume, or to skip in emitted jobs): refused
// unless it holds exactly `table`'s columns; their order becomes the file's
// (--set axes given in another order).
std::vector<std::vector<std::string>> read_sweep_csv(const std::string& path, SweepTable& table);

std::string absolute_path(const std::string& p);
void make_dir(const std::string& dir);

}  // namespace ptosim::cli
