#pragma once
// What a sweep runs: parameter and config-override axes, configs, and their
// cross product as points, from the command line or a sweep file. Kept apart
// from running them so that --emit-jobs, --merge and the local runner share
// one list of points and one table layout.
#include <functional>
#include <string>
#include <vector>

#include "sim/common/error.h"

namespace ptosim::cli {

struct SweepAxis {
  std::string name;                 // parameter name or dotted config path
  std::vector<std::string> values;  // in sweep order
  SourcePos pos;                    // where it was given (for messages)
};

struct SweepPoint;

struct SweepSpec {
  std::string file;                 // sweep.yaml, "" when none
  std::string program, trace;       // exactly one
  std::vector<SweepAxis> params;    // -D axes
  std::vector<SweepAxis> sets;      // --set axes
  std::vector<std::string> configs; // "" = the built-in default; at least one entry
  unsigned jobs = 0;                // 0 = the core count
  double timeout_s = 0;             // per point; 0 = none
  uint64_t max_events = 0;
  bool flush = false;
  // Run each program point functionally first (`pto-sim check`, no timing
  // model): points that cannot run (capacity, assert) are marked without
  // being simulated; feasible points pay the functional part twice.
  bool precheck = false;
  // Resume runs the points whose row in -o failed again (--no-retry-failed: keeps them).
  bool retry_failed = true;
  std::string output, json_dir;
  // Added to every point's `pto-sim run` (pto-sim tune's probes: --stop-after, --epoch-accesses).
  std::vector<std::string> run_args;
  // When set, only the points it accepts run (pto-sim tune's finalists); the others get no row.
  std::function<bool(const SweepPoint&)> select;
  // Rows with the status and error only (Outcome::status_only): tune's probes.
  bool rows_status_only = false;
};

struct SweepPoint {
  size_t index = 0;                 // 0-based, in cross-product order
  std::string config;               // "" = built in
  std::vector<std::pair<std::string, std::string>> sets, params;
  // Identifies the point in the CSV (its `point` cell), resume matches on
  // it: the resolved config's hash and every parameter's value after
  // defaults, however the command line spelled them (name_points).
  std::string key;
  std::string spelled;              // the axes as given: the key of CSVs written before

  std::string id() const;           // "p00001_default_TM=16": per-point file names
};

// "TM=16,32,64", "TN=16..256:x2", "K=0..64:+16" (":16" = ":+16"). `what` is
// "-D" or "--set" for messages.
SweepAxis parse_axis(const std::string& spec, const std::string& what);
// Values of one axis given in a sweep file: a scalar (list or range text) or a list.
std::vector<std::string> expand_values(const std::string& text, const SourcePos& pos, const std::string& name);

// Reads a sweep file into `spec` (command-line axes added later override
// axes of the same name). Relative paths are relative to the file.
void load_sweep_file(const std::string& path, SweepSpec& spec);

std::vector<SweepPoint> expand_points(const SweepSpec& spec);

}  // namespace ptosim::cli
