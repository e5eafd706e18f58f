#include "sim/analysis/report_flatten.h"

#include "sim/common/error.h"
#include "sim/common/read_file.h"
#include "sim/common/units.h"
#include "sim/report/render.h"
#include "sim/report/report_check.h"

namespace ptosim::cli {
namespace {

using nlohmann::json;

void walk(const json& v, const std::string& name, const std::string& pattern, std::vector<Metric>& out,
          const std::vector<std::string>* level_names) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (pattern.empty() && it.key() == "config_resolved") continue;
      // Items of an array carry their name; it is the item's label, not a metric.
      walk(it.value(), name.empty() ? it.key() : name + "." + it.key(),
           pattern.empty() ? it.key() : pattern + "." + it.key(), out, level_names);
    }
    return;
  }
  if (v.is_array()) {
    for (size_t i = 0; i < v.size(); ++i) {
      const json& item = v[i];
      std::string label = std::to_string(i);
      if (item.is_object() && item.contains("name") && item["name"].is_string()) label = item["name"].get<std::string>();
      if (pattern == "levels" && level_names && i < level_names->size()) label = (*level_names)[i];
      // Levels are the report's main rows: "L1.miss_rate", not "levels.L1.miss_rate".
      const std::string item_name = pattern == "levels" ? label : name + "." + label;
      if (!item.is_object()) {
        out.push_back({item_name, pattern + "[]", item, find_report_key(pattern + "[]")});
        continue;
      }
      for (auto it = item.begin(); it != item.end(); ++it) {
        if (it.key() == "name") continue;
        walk(it.value(), item_name + "." + it.key(), pattern + "[]." + it.key(), out, level_names);
      }
    }
    return;
  }
  out.push_back({name, pattern, v, find_report_key(pattern)});
}

SourcePos offset_pos(const std::string& text, const std::string& file, size_t byte) {
  int line = 1, col = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') ++line, col = 1;
    else ++col;
  }
  return {file, line, col};
}

}  // namespace

json parse_json(const std::string& text, const std::string& file) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    const size_t colon = what.find("syntax error");
    throw InputError(offset_pos(text, file, e.byte ? e.byte - 1 : 0), "",
                     "JSON " + (colon == std::string::npos ? what : what.substr(colon)));
  }
}

json load_report(const std::string& path) {
  const std::string text = read_input_file(path, "report");
  json r = parse_json(text, path);
  if (!r.is_object() || !r.contains("schema_version") || !r.contains("levels"))
    throw InputError({path, 1, 1}, "", "not a pto-sim JSON report (no schema_version / levels)");
  if (r["schema_version"] != kReportSchemaVersion)
    throw InputError({path, 1, 1}, "schema_version",
                     "is " + r["schema_version"].dump() + ", this pto-sim reads " + std::to_string(kReportSchemaVersion) +
                         " (re-run the report with this pto-sim)");
  check_report_types(r, path);
  return r;
}

std::vector<Metric> flatten_report(const json& report, const std::vector<std::string>* level_names) {
  std::vector<Metric> out;
  walk(report, "", "", out, level_names);
  return out;
}

std::string cell(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_float()) return units::format_number(v.get<double>());
  if (v.is_null()) return "";
  return v.dump();
}

}  // namespace ptosim::cli
