#include <algorithm>
#include <sstream>

#include "sim/report/report.h"

namespace ptosim {
namespace {

std::string quote(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

// One row per level; the run's identity and totals repeat on every row so
// that rows from many runs (a sweep) concatenate into one table. Only a
// level's own values become columns: its child tables (tensors, regions,
// DRAM channels) have no place in a flat row and are left to JSON.
std::string render_csv(const StatsNode& root) {
  const StatsNode* levels = root.find_child("levels");
  std::vector<std::string> run_keys = {"config", "source", "cycles", "seconds", "flops", "arithmetic_intensity"};
  std::vector<std::string> keys;
  if (levels)
    for (auto& l : levels->children)
      for (auto& [k, v] : l.values)
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  std::ostringstream o;
  for (auto& k : run_keys) o << k << ",";
  o << "level,kind";
  for (auto& k : keys) o << "," << k;
  o << "\n";
  if (!levels) return o.str();
  for (auto& l : levels->children) {
    for (auto& k : run_keys) {
      const StatValue* v = root.find(k);
      o << (v ? quote(to_string(*v)) : "") << ",";
    }
    o << quote(l.name) << "," << l.kind;
    for (auto& k : keys) {
      const StatValue* v = l.find(k);
      o << "," << (v ? quote(to_string(*v)) : "");
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
      for (auto& [k, v] : l.values) o << "," << quote(l.name + "_" + k);
    for (auto& f : first->find_child("footprint")->children) o << "," << quote("footprint_" + f.name);
  }
  o << "\n";
  for (auto& e : epochs->children) {
    o << e.name;
    for (auto& k : own) {
      const StatValue* v = e.find(k);
      o << "," << (v ? quote(to_string(*v)) : "");
    }
    for (auto& l : e.find_child("levels")->children)
      for (auto& [k, v] : l.values) o << "," << quote(to_string(v));
    for (auto& f : e.find_child("footprint")->children) o << "," << f.u64("peak_bytes");
    o << "\n";
  }
  return o.str();
}

}  // namespace ptosim
