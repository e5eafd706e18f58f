#pragma once
// A JSON report as a flat list of named metrics ("cycles", "L1.miss_rate",
// "L1.tensors.A.misses", "program.outputs.C.fnv1a"), each tied to its entry
// in the report key list. `compare` aligns reports by these names, `sweep`
// fills its columns from them and `--best` ranks by one.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/report/report_keys.h"

namespace ptosim::cli {

struct Metric {
  std::string name;     // "L1.miss_rate"
  std::string pattern;  // "levels[].miss_rate": the key list's path
  nlohmann::json value;
  const ReportKey* key = nullptr;  // null for a key missing from the list
};

// Reads a report; InputError "path:line:col: ..." on bad JSON, on a report of
// another schema_version and on JSON that is not a pto-sim report;
// "path: key: ..." on a value of another type than `pto-sim schema` gives it.
nlohmann::json load_report(const std::string& path);
// Parses JSON text with positions in errors (sweep results, tolerance files).
nlohmann::json parse_json(const std::string& text, const std::string& file);

// Scalars only (objects and arrays are descended into; config_resolved is
// skipped). With `level_names` given, levels[i] is named by it instead of its
// own name (comparing configs whose levels are named differently).
std::vector<Metric> flatten_report(const nlohmann::json& report, const std::vector<std::string>* level_names = nullptr);

// "16", "0.25", "true", "text": a metric's value as a CSV or table cell.
std::string cell(const nlohmann::json& v);

}  // namespace ptosim::cli
