#include "sim/analysis/sweep_rows.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "sim/analysis/report_flatten.h"
#include "sim/analysis/run_identity.h"
#include "sim/common/units.h"
#include "sim/config/config_override.h"
#include "sim/frontend/frontend.h"
#include "sim/report/render.h"
#include "sim/report/report_keys.h"

namespace ptosim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string self_exe() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("pto-sim") : p.string();
}


std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) return line.size() > 500 ? line.substr(0, 500) + "..." : line;
  return "";
}

// A combination of config and overrides, loaded: its hash and levels, or
// why it does not load. One process may plan many sweeps of the same
// combinations (pto-sim tune: one per round of probes; the Xeon config's
// YAML was 11 M instructions a load, half of tune's own on attention), so
// each is loaded once per version of its file (modification time, size).
// The config itself is kept for point_config (tune's own reads of it).
struct ComboLoad {
  std::string hash, error;
  std::vector<std::pair<std::string, std::string>> levels;
  std::shared_ptr<const HwConfig> config;
};

const ComboLoad& load_combo(const SweepPoint& p, const std::string& key) {
  static std::map<std::string, ComboLoad> memo;
  std::string version = key;
  std::error_code ec;
  if (!p.config.empty()) {
    const auto t = fs::last_write_time(p.config, ec);
    const auto size = fs::file_size(p.config, ec);
    if (!ec) version += "@" + std::to_string(t.time_since_epoch().count()) + ":" + std::to_string(size);
  }
  auto it = memo.find(version);
  if (it != memo.end() && !ec) return it->second;
  ComboLoad load;
  try {
    std::vector<ConfigOverride> ov;
    for (auto& [n, v] : p.sets) ov.push_back(parse_override(n + "=" + v));
    auto c = std::make_shared<const HwConfig>(load_config_with_overrides(p.config, ov));
    load.hash = config_hash(*c);
    load.levels = c->report_levels();
    load.config = std::move(c);
  } catch (const InputError& e) {
    load.error = e.what();
  }
  return memo[version] = load;
}

// Validity of each config + overrides combination, loaded once each.
std::map<std::string, std::string> check_combos(const std::vector<SweepPoint>& points,
                                                std::vector<std::pair<std::string, std::string>>& levels,
                                                std::map<std::string, std::string>& hashes) {
  std::map<std::string, std::string> invalid;
  std::set<std::string> seen;
  std::string first_error;
  size_t valid = 0;
  for (const SweepPoint& p : points) {
    const std::string k = combo_key(p);
    if (!seen.insert(k).second) continue;
    const ComboLoad& load = load_combo(p, k);
    if (!load.error.empty()) {
      invalid[k] = load.error;
      if (first_error.empty()) first_error = load.error;
      continue;
    }
    hashes[k] = load.hash;
    ++valid;
    for (auto& l : load.levels)
      if (std::find(levels.begin(), levels.end(), l) == levels.end()) levels.push_back(l);
  }
  // Not one combination loads: the sweep itself is wrong (a typo in a path).
  if (valid == 0 && !first_error.empty()) throw InputError(first_error);
  return invalid;
}


}  // namespace

std::string absolute_path(const std::string& p) {
  if (p.empty() || p == "-") return p;
  std::error_code ec;
  const fs::path a = fs::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

// The combination of a config and its overrides: points that share it share

// its validity and its levels.
std::string combo_key(const SweepPoint& p) {
  std::string k = p.config;
  for (auto& [path, v] : p.sets) k += "\n" + path + "=" + v;
  return k;
}

const HwConfig& point_config(const SweepPoint& p) {
  const ComboLoad& load = load_combo(p, combo_key(p));
  if (!load.config) throw InputError(load.error);
  return *load.config;
}

std::vector<std::string> point_argv(const SweepSpec& spec, const SweepPoint& p, const std::string& json_out, bool abs_paths,
                                    bool single_thread) {
  auto path = [&](const std::string& s) { return abs_paths ? absolute_path(s) : s; };
  std::vector<std::string> a = {self_exe(), "run"};
  if (!spec.program.empty()) a.push_back(path(spec.program));
  else a.insert(a.end(), {"--trace", path(spec.trace)});
  for (auto& [n, v] : p.params) a.insert(a.end(), {"-D", n + "=" + v});
  if (!p.config.empty()) a.insert(a.end(), {"--config", path(p.config)});
  for (auto& [n, v] : p.sets) a.insert(a.end(), {"--set", n + "=" + v});
  if (spec.max_events) a.insert(a.end(), {"--max-events", std::to_string(spec.max_events)});
  if (spec.flush) a.push_back("--flush");
  if (single_thread) a.push_back("--single-thread");
  a.insert(a.end(), spec.run_args.begin(), spec.run_args.end());
  a.insert(a.end(), {"--format", "json", "-o", json_out});
  return a;
}

std::vector<std::string> precheck_argv(const SweepSpec& spec, const SweepPoint& p) {
  std::vector<std::string> a = {self_exe(), "check", spec.program};
  for (auto& [n, v] : p.params) a.insert(a.end(), {"-D", n + "=" + v});
  if (!p.config.empty()) a.insert(a.end(), {"--config", p.config});
  for (auto& [n, v] : p.sets) a.insert(a.end(), {"--set", n + "=" + v});
  if (spec.max_events) a.insert(a.end(), {"--max-events", std::to_string(spec.max_events)});
  return a;
}

Row make_row(const SweepTable& table, const SweepPoint& p, const std::string& json_path, const std::string& err_path,
             const Outcome& o) {
  const auto bad = table.invalid.find(combo_key(p));
  const std::string invalid = bad == table.invalid.end() ? "" : bad->second;
  Row r;
  r["point"] = p.key;
  r["config_file"] = p.config.empty() ? "<default>" : p.config;
  for (auto& [n, v] : p.sets) r["set." + n] = v;
  for (auto& [n, v] : p.params) r["param." + n] = v;
  if (!invalid.empty()) {
    r["status"] = "invalid";
    r["error"] = invalid;
    return r;
  }
  if (o.timed_out) {
    r["status"] = "timeout";
    r["error"] = "no result after " + units::format_number(o.timeout_s) + " s; killed";
    return r;
  }
  if (o.signal) {
    r["status"] = "crashed";
    r["error"] = std::string("killed by signal ") + std::to_string(o.signal) + " (" + strsignal(o.signal) + ")";
    return r;
  }
  const std::string err = first_line(err_path);
  if ((o.code == 0 || o.code == 1) && o.status_only) {
    r["status"] = o.code == 0 ? "ok" : "check_failed";
    if (o.code == 1) r["error"] = err;
    return r;
  }
  if (o.code == 0 || o.code == 1) {
    try {
      const json rep = load_report(json_path);
      std::set<std::string> cols(table.columns.begin(), table.columns.end());
      for (const Metric& m : flatten_report(rep)) {
        std::string name = m.name;
        if (name.rfind("parameters.", 0) == 0) name = "param." + name.substr(11);
        else if (name.rfind("config_overrides.", 0) == 0) name = "set." + name.substr(17);
        if (cols.count(name)) r[name] = cell(m.value);
      }
      r["status"] = o.code == 0 ? "ok" : "check_failed";
      if (o.code == 1) r["error"] = err;
      return r;
    } catch (const InputError& e) {
      r["status"] = "error";
      r["error"] = std::string("no report: ") + e.what();
      return r;
    }
  }
  // Exit 2: the point's input was bad. Capacity and assertion failures say the
  // combination cannot run on this hardware; anything else is an error.
  const bool infeasible = err.find("cannot allocate") != std::string::npos || err.find("assertion failed") != std::string::npos ||
                          err.find("does not fit") != std::string::npos;
  r["status"] = o.code == 2 ? (infeasible ? "infeasible" : "error") : "error";
  r["error"] = err.empty() ? "exit status " + std::to_string(o.code) : err;
  return r;
}

std::string csv_line(const SweepTable& t, const Row& r) {
  std::string line;
  for (size_t i = 0; i < t.columns.size(); ++i) {
    auto it = r.find(t.columns[i]);
    line += (i ? "," : "") + (it == r.end() ? std::string() : csv_quote(it->second));
  }
  return line + "\n";
}

std::string csv_fields(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_quote(fields[i]);
  return line + "\n";
}

std::string header_line(const SweepTable& t) { return csv_fields(t.columns); }


bool row_ok(const Row& r) { return r.at("status") == "ok"; }

void make_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) throw InputError({dir, 0, 0}, "", "cannot create the directory: " + ec.message());
}


std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0}, "", "cannot open CSV file");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string t = ss.str();
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  int line = 1;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (quoted) {
      if (c == '"' && i + 1 < t.size() && t[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c, line += c == '\n';
      continue;
    }
    if (c == '"' && field.empty()) quoted = any = true;
    else if (c == ',') row.push_back(field), field.clear(), any = true;
    else if (c == '\n') {
      row.push_back(field);
      rows.push_back(row);
      row.clear(), field.clear(), any = false;
      ++line;
    } else if (c != '\r') field += c, any = true;
  }
  if (quoted) throw InputError({path, line, 0}, "", "unterminated quoted field");
  if (any || !field.empty()) throw InputError({path, line, 0}, "", "the last row has no end of line (an interrupted write?)");
  return rows;
}

SweepTable plan_table(const SweepSpec& spec, const std::vector<SweepPoint>& points) {
  SweepTable t;
  t.columns = {"point", "status", "error", "config", "config_file", "config_hash"};
  if (!spec.program.empty()) {
    const std::vector<std::string> declared = declared_parameters(spec.program);
    for (const SweepAxis& a : spec.params)
      if (std::find(declared.begin(), declared.end(), a.name) == declared.end()) {
        std::string known;
        for (auto& n : declared) known += (known.empty() ? "" : ", ") + n;
        throw InputError(a.pos, a.name, "not a parameter of " + spec.program + " (it declares: " +
                                            (known.empty() ? std::string("none") : known) + ")");
      }
    const std::map<std::string, std::string> defaults = literal_param_defaults(spec.program);
    for (auto& n : declared) {
      t.columns.push_back("param." + n);
      const auto d = defaults.find(n);
      t.params.emplace_back(n, d == defaults.end() ? "" : d->second);
    }
  } else if (!spec.params.empty()) {
    throw InputError(spec.params[0].pos, spec.params[0].name, "a trace sweep has no program parameters");
  }
  for (const SweepAxis& a : spec.sets) t.columns.push_back("set." + a.name);
  // Run results: every scalar, non-identity run-level key of the schema.
  for (const ReportKey& k : report_keys()) {
    const std::string p = k.path;
    if (k.identity || k.type == KeyType::Object || k.type == KeyType::List || p.find_first_of("[*") != std::string::npos) continue;
    if (p.rfind("levels", 0) == 0 || p.rfind("core.per_core", 0) == 0) continue;
    if (p.rfind("trace.", 0) == 0 && spec.trace.empty()) continue;
    if (p.rfind("program.", 0) == 0 && spec.program.empty()) continue;
    t.columns.push_back(p);
  }
  t.columns.push_back("wall_seconds");
  std::vector<std::pair<std::string, std::string>> levels;
  t.invalid = check_combos(points, levels, t.config_hash);
  for (auto& [name, kind] : levels)
    for (const ReportKey& k : report_keys()) {
      const std::string p = k.path;
      if (p.rfind("levels[].", 0) != 0 || k.type == KeyType::List || k.type == KeyType::Object) continue;
      const std::string key = p.substr(9);
      if (key.find_first_of(".[") != std::string::npos || key == "name" || key == "kind" || !key_applies_to(k, kind)) continue;
      t.columns.push_back(name + "." + key);
    }
  return t;
}


std::vector<std::vector<std::string>> read_sweep_csv(const std::string& path, SweepTable& table) {
  auto rows = read_csv(path);
  const std::set<std::string> mine(table.columns.begin(), table.columns.end());
  if (rows.empty() || std::set<std::string>(rows[0].begin(), rows[0].end()) != mine || rows[0].size() != mine.size())
    throw InputError({path, 1, 1}, "",
                     "its columns are not this sweep's (another program, parameters, configs or pto-sim version): "
                     "remove it or choose another -o");
  table.columns = rows[0];
  return rows;
}

}  // namespace ptosim::cli
