#pragma once
// The one list of report keys: every key a JSON report can hold, with its
// type, unit and meaning. docs/REPORTS.md's key table is generated from it
// (`pto-sim schema --format markdown`; a test fails when the two differ), the
// CSV's columns are documented by it, and `compare` reads from it which
// values are exact counters, which are identity rather than results, and
// which direction is better. Adding a report key = one entry in
// report_keys.cpp, then scripts/gen-reports-doc.sh (the test says so).
#include <string>
#include <vector>

namespace ptosim {

enum class KeyType { Count, Real, Bool, String, Object, List };

enum class Better { None, Lower, Higher };

struct ReportKey {
  // Path in the JSON report: members joined by '.', array items by "[]",
  // "*" for a name chosen by the input: "levels[].miss_rate",
  // "parameters.*", "trace.skipped_*".
  const char* path;
  KeyType type;
  const char* unit;     // "" when dimensionless or not a quantity
  const char* meaning;
  Better better = Better::None;
  bool identity = false;  // describes the run's inputs, not its results: not compared
  // levels[] keys only: the level kinds that have it, space-separated; "" = every kind.
  const char* kinds = "";
};

const std::vector<ReportKey>& report_keys();
// The entry whose path matches `pattern` ("levels[].tensors[].misses"; a "*"
// entry matches any name there); null when the key is not in the list.
const ReportKey* find_report_key(const std::string& pattern);
const char* type_name(KeyType t);
// Whether a levels[] key applies to a level of `kind`.
bool key_applies_to(const ReportKey& key, const std::string& kind);
// docs/REPORTS.md's generated table, between its markers.
std::string report_keys_markdown();
std::string report_keys_json();

}  // namespace ptosim
