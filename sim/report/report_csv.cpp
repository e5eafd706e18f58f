#include <algorithm>
#include <sstream>

#include "sim/report/render.h"
#include "sim/report/report_keys.h"

namespace ptosim {

std::string csv_quote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

const std::vector<std::string>& csv_run_columns() {
  static const std::vector<std::string> k = {"config", "config_hash", "source", "source_hash", "cycles", "seconds",
                                             "flops", "dram_bytes", "arithmetic_intensity"};
  return k;
}

// The scalar level keys of the schema, in its order: CSV columns and sweep
// columns follow it, so that a header does not depend on module insertion order.
std::vector<std::string> csv_level_columns(const StatsNode* levels) {
  std::vector<std::string> keys;
  for (const ReportKey& k : report_keys()) {
    const std::string p = k.path;
    if (p.rfind("levels[].", 0) != 0 || k.type == KeyType::List || k.type == KeyType::Object) continue;
    const std::string key = p.substr(9);
    if (key.find_first_of(".[") != std::string::npos || key == "name" || key == "kind") continue;
    bool present = levels == nullptr;
    if (levels)
      for (auto& l : levels->children) present = present || l.find(key);
    if (present) keys.push_back(key);
  }
  return keys;
}

// One row per level; the run's identity, parameters and totals repeat on
// every row so that rows from many runs concatenate into one table. Only a
// level's own values become columns: its child tables (tensors, regions,
// DRAM channels) have no place in a flat row and are left to JSON.
std::string render_csv(const StatsNode& root) {
  const StatsNode* levels = root.find_child("levels");
  const StatsNode* params = root.find_child("parameters");
  const StatsNode* sets = root.find_child("config_overrides");
  const std::vector<std::string> keys = csv_level_columns(levels);
  std::ostringstream o;
  for (auto& k : csv_run_columns()) o << k << ",";
  if (params)
    for (auto& [k, v] : params->values) o << csv_quote("param." + k) << ",";
  if (sets)
    for (auto& [k, v] : sets->values) o << csv_quote("set." + k) << ",";
  o << "level,kind";
  for (auto& k : keys) o << "," << k;
  o << "\n";
  if (!levels) return o.str();
  for (auto& l : levels->children) {
    for (auto& k : csv_run_columns()) {
      const StatValue* v = root.find(k);
      o << (v ? csv_quote(to_string(*v)) : "") << ",";
    }
    if (params)
      for (auto& [k, v] : params->values) o << csv_quote(to_string(v)) << ",";
    if (sets)
      for (auto& [k, v] : sets->values) o << csv_quote(to_string(v)) << ",";
    o << csv_quote(l.name) << "," << l.kind;
    for (auto& k : keys) {
      const StatValue* v = l.find(k);
      o << "," << (v ? csv_quote(to_string(*v)) : "");
    }
    o << "\n";
  }
  return o.str();
}

std::string render_epochs_csv(const StatsNode& root) {
  const StatsNode* epochs = root.find_child("epochs");
  std::ostringstream o;
  if (!epochs) return o.str();
  const std::vector<std::string> own = {"start_cycles", "end_cycles", "accesses", "flops", "region",
                                        "dram_row_hits", "dram_row_hit_rate"};
  o << "epoch";
  for (auto& k : own) o << "," << k;
  const StatsNode* first = epochs->children.empty() ? nullptr : &epochs->children.front();
  if (first) {
    for (auto& l : first->find_child("levels")->children)
      for (auto& [k, v] : l.values) o << "," << csv_quote(l.name + "_" + k);
    for (auto& f : first->find_child("footprint")->children) o << "," << csv_quote("footprint_" + f.name);
  }
  o << "\n";
  for (auto& e : epochs->children) {
    o << e.name;
    for (auto& k : own) {
      const StatValue* v = e.find(k);
      o << "," << (v ? csv_quote(to_string(*v)) : "");
    }
    for (auto& l : e.find_child("levels")->children)
      for (auto& [k, v] : l.values) o << "," << csv_quote(to_string(v));
    for (auto& f : e.find_child("footprint")->children) o << "," << f.u64("peak_bytes");
    o << "\n";
  }
  return o.str();
}

}  // namespace ptosim
