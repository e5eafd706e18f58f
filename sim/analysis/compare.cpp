// The engine of `pto-sim compare` (its options: sim/cli/cmd_compare.cpp):
// reports side by side with deltas, largest changes first; and `--baseline`, the regression check against a golden report: exit 1
// naming every metric that moved beyond its tolerance, 2 when the two runs
// are not of the same program and parameters.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>

#include "sim/analysis/compare.h"
#include "sim/analysis/report_flatten.h"
#include "sim/common/error.h"
#include "sim/common/content_hash.h"
#include "sim/common/units.h"
#include "sim/report/render.h"

namespace ptosim::cli {
namespace {

using nlohmann::json;

bool glob(const std::string& p, const std::string& s);

struct Row {
  std::string name;
  std::vector<const json*> values;  // per report; null when absent
  const ReportKey* key = nullptr;
  double score = 0;                 // largest |relative change| against the first report
};

// Levels named differently (L1 vs L1D) are aligned by position within their
// kind: cache1, cache2, ..., DRAM; memories keep their names.
std::vector<std::vector<std::string>> level_labels(const std::vector<json>& reps) {
  std::vector<std::vector<std::string>> names;
  for (const json& r : reps) {
    std::vector<std::string> n;
    for (const json& l : r["levels"]) n.push_back(l.value("name", ""));
    names.push_back(n);
  }
  if (std::all_of(names.begin(), names.end(), [&](auto& n) { return n == names[0]; })) return names;
  for (size_t i = 0; i < reps.size(); ++i) {
    int cache = 0;
    for (size_t k = 0; k < names[i].size(); ++k) {
      const std::string kind = reps[i]["levels"][k].value("kind", "");
      if (kind == "cache") names[i][k] = "cache" + std::to_string(++cache);
      else if (kind == "dram") names[i][k] = "DRAM";
    }
  }
  return names;
}

bool compared(const Metric& m) { return !(m.key && m.key->identity) && m.name != "wall_seconds"; }

std::vector<Row> align(const std::vector<json>& reps, std::vector<std::vector<Metric>>& flat) {
  const auto labels = level_labels(reps);
  flat.clear();
  for (size_t i = 0; i < reps.size(); ++i) flat.push_back(flatten_report(reps[i], &labels[i]));
  std::vector<Row> rows;
  std::map<std::string, size_t> at;
  for (size_t i = 0; i < flat.size(); ++i)
    for (const Metric& m : flat[i]) {
      if (!compared(m)) continue;
      auto it = at.find(m.name);
      if (it == at.end()) {
        it = at.emplace(m.name, rows.size()).first;
        Row r;
        r.name = m.name;
        r.values.assign(reps.size(), nullptr);
        r.key = m.key;
        rows.push_back(r);
      }
      rows[it->second].values[i] = &m.value;
    }
  for (Row& r : rows) {
    const json* a = r.values[0];
    for (size_t i = 1; i < r.values.size(); ++i) {
      const json* b = r.values[i];
      double s = 0;
      if (!a || !b) s = INFINITY;
      else if (a->is_number() && b->is_number() && !a->is_boolean()) {
        const double x = a->get<double>(), y = b->get<double>();
        s = x == y ? 0 : x == 0 ? INFINITY : std::fabs((y - x) / x);
      } else if (*a != *b) s = INFINITY;
      r.score = std::max(r.score, s);
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) { return x.score > y.score; });
  // What a reader compares first, whatever changed most: time, then each
  // cache level's demand misses in the report's order, then DRAM traffic.
  std::vector<std::string> lead = {"cycles", "seconds"};
  for (size_t k = 0; k < labels[0].size(); ++k)
    if (reps[0]["levels"][k].value("kind", "") == "cache") lead.push_back(labels[0][k] + ".demand_misses");
  lead.push_back("dram_bytes");
  std::vector<Row> out;
  for (const std::string& name : lead)
    for (Row& r : rows)
      if (r.name == name && !r.name.empty()) {
        out.push_back(r);
        r.name.clear();  // taken
      }
  for (Row& r : rows)
    if (!r.name.empty()) out.push_back(r);
  return out;
}

// --metrics: the rows each pattern names, in the order given; a pattern
// naming nothing is an error (a typo would otherwise show an empty table).
std::vector<Row> pick(const std::vector<Row>& rows, const std::string& spec) {
  std::vector<Row> out;
  std::vector<bool> taken(rows.size(), false);
  std::stringstream ss(spec);
  std::string p;
  while (std::getline(ss, p, ',')) {
    if (p.empty()) throw InputError({"--metrics", 0, 0}, spec, "an empty name (names are joined by commas)");
    bool any = false;
    for (size_t i = 0; i < rows.size(); ++i)
      if (glob(p, rows[i].name)) {
        any = true;
        if (!taken[i]) out.push_back(rows[i]);
        taken[i] = true;
      }
    if (!any)
      throw InputError({"--metrics", 0, 0}, p,
                       "names no metric of the reports (names as the table prints them: cycles, seconds, "
                       "L1.demand_misses, dram_bytes, L1.tensors.A.misses; '*' globs)");
  }
  return out;
}

// A metric in only one of the two reports: "added" in the later one, or "removed" from it.
const char* presence(const json* a, const json* b) { return a && !b ? "removed" : b && !a ? "added" : nullptr; }

std::string delta_text(const json* a, const json* b, bool relative) {
  if (!a || !b) return relative || !presence(a, b) ? "" : presence(a, b);
  if (!a->is_number() || !b->is_number()) return *a == *b ? "" : "changed";
  const double x = a->get<double>(), y = b->get<double>();
  if (relative) {
    if (x == y) return "0%";
    if (x == 0) return "new";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.2f%%", 100 * (y - x) / std::fabs(x));
    return buf;
  }
  if (a->is_number_integer() && b->is_number_integer()) {
    const long double d = (long double)b->get<double>() - (long double)a->get<double>();
    return (d > 0 ? "+" : "") + std::to_string((long long)d);
  }
  // A difference of two doubles carries their rounding (1.7525625e-05 - 9.8675e-06 is 7.658124999999999e-06):
  // 12 significant digits is more than any report's figure means, and prints 7.658125e-06.
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.12g", y - x);
  return (y - x > 0 ? "+" : "") + units::format_number(std::strtod(buf, nullptr));
}

std::string val(const json* v) { return v ? cell(*v) : "-"; }

int print_table(const CompareArgs& a, const std::vector<json>& reps) {
  std::vector<std::vector<Metric>> flat;
  std::vector<Row> rows = align(reps, flat);
  if (!a.metrics.empty()) rows = pick(rows, a.metrics);
  if (a.changed_only) rows.erase(std::remove_if(rows.begin(), rows.end(), [](const Row& r) { return r.score == 0; }), rows.end());
  const size_t n = reps.size();
  if (a.format == "json") {
    json out = {{"reports", a.reports}, {"metrics", json::array()}};
    for (const Row& r : rows) {
      json m = {{"name", r.name}, {"values", json::array()}, {"delta", json::array()}, {"relative", json::array()},
                {"change", json::array()}};
      for (size_t i = 0; i < n; ++i) m["values"].push_back(r.values[i] ? *r.values[i] : json());
      for (size_t i = 1; i < n; ++i) {
        const json *x = r.values[0], *y = r.values[i];
        const char* p = presence(x, y);
        m["change"].push_back(p ? json(p) : json());
        if (x && y && x->is_number() && y->is_number()) {
          const double d = y->get<double>() - x->get<double>();
          m["delta"].push_back(d);
          m["relative"].push_back(x->get<double>() != 0 ? json(d / std::fabs(x->get<double>())) : json());
        } else {
          m["delta"].push_back(json());
          m["relative"].push_back(json());
        }
      }
      out["metrics"].push_back(m);
    }
    std::cout << out.dump(1) << "\n";
    return 0;
  }
  if (a.format == "csv") {
    std::cout << "metric";
    for (size_t i = 0; i < n; ++i) std::cout << "," << csv_quote(a.reports[i]);
    for (size_t i = 1; i < n; ++i) std::cout << "," << csv_quote("delta " + a.reports[i]) << "," << csv_quote("relative " + a.reports[i]);
    std::cout << "\n";
    for (const Row& r : rows) {
      std::cout << csv_quote(r.name);
      for (size_t i = 0; i < n; ++i) std::cout << "," << csv_quote(r.values[i] ? cell(*r.values[i]) : "");
      for (size_t i = 1; i < n; ++i)
        std::cout << "," << csv_quote(delta_text(r.values[0], r.values[i], false)) << ","
                  << csv_quote(delta_text(r.values[0], r.values[i], true));
      std::cout << "\n";
    }
    return 0;
  }
  for (size_t i = 0; i < n; ++i) {
    const json& r = reps[i];
    std::cout << char('A' + std::min<size_t>(i, 25)) << ": " << a.reports[i] << "  (config " << r.value("config", "")
              << " " << r.value("config_hash", "") << ", source " << r.value("source", "") << ")\n";
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> head = {"metric"};
  for (size_t i = 0; i < n; ++i) head.push_back(std::string(1, char('A' + std::min<size_t>(i, 25))));
  for (size_t i = 1; i < n; ++i) {
    const std::string l(1, char('A' + std::min<size_t>(i, 25)));
    head.push_back(l + "-A");
    head.push_back(l + "/A");
  }
  cells.push_back(head);
  for (const Row& r : rows) {
    std::vector<std::string> c = {r.name};
    for (size_t i = 0; i < n; ++i) c.push_back(val(r.values[i]));
    for (size_t i = 1; i < n; ++i) {
      c.push_back(delta_text(r.values[0], r.values[i], false));
      c.push_back(delta_text(r.values[0], r.values[i], true));
    }
    cells.push_back(c);
  }
  std::vector<size_t> w(head.size(), 0);
  for (auto& c : cells)
    // A metric's name is its row's identity: never cut (nested region names are long).
    for (size_t k = 0; k < c.size(); ++k) w[k] = std::max(w[k], k == 0 ? c[k].size() : std::min<size_t>(c[k].size(), 40));
  for (auto& c : cells) {
    std::string line;
    for (size_t k = 0; k < c.size(); ++k) {
      std::string s = k > 0 && c[k].size() > 40 ? c[k].substr(0, 37) + "..." : c[k];
      if (k == 0) line += s + std::string(w[k] - s.size(), ' ');
      else line += "  " + std::string(w[k] - s.size(), ' ') + s;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::cout << line << "\n";
  }
  return 0;
}

struct Tolerance {
  std::string pattern;  // metric name, '*' matches any run of characters
  enum { Relative, Points, Absolute } kind = Absolute;
  double value = 0;
  std::string text;
  bool used = false;
};

bool glob(const std::string& p, const std::string& s) {
  size_t pi = 0, si = 0, star = std::string::npos, mark = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == s[si]) ++pi, ++si;
    else if (pi < p.size() && p[pi] == '*') star = pi++, mark = si;
    else if (star != std::string::npos) pi = star + 1, si = ++mark;
    else return false;
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

std::vector<Tolerance> parse_tolerances(const std::string& spec) {
  std::vector<Tolerance> out;
  if (spec.empty()) return out;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError({"--tolerance", 0, 0}, item, "expected METRIC=VALUE with VALUE like 2%, 0.5pp or 100");
    Tolerance t;
    t.pattern = item.substr(0, eq);
    t.text = item.substr(eq + 1);
    std::string num = t.text;
    if (num.size() > 1 && num.back() == '%') t.kind = Tolerance::Relative, num.pop_back();
    else if (num.size() > 2 && num.compare(num.size() - 2, 2, "pp") == 0) t.kind = Tolerance::Points, num.resize(num.size() - 2);
    char* end = nullptr;
    t.value = std::strtod(num.c_str(), &end);
    if (num.empty() || end != num.c_str() + num.size() || !std::isfinite(t.value) || t.value < 0)
      throw InputError({"--tolerance", 0, 0}, t.pattern, "'" + t.text + "' is not a tolerance (2%, 0.5pp or a non-negative number)");
    out.push_back(t);
  }
  return out;
}

std::string param_text(const json& r) {
  return r.contains("parameters") ? r["parameters"].dump() : "{}";
}

int baseline(const CompareArgs& a, const json& golden, const json& run) {
  std::vector<Tolerance> tol = parse_tolerances(a.tolerance);
  // Comparable: the same program (or trace) bytes and the same parameters.
  std::vector<std::string> why;
  const std::string gh = golden.value("source_hash", ""), rh = run.value("source_hash", "");
  // A baseline written before the hash algorithm changed (or by a newer
  // pto-sim) cannot say whether the input is the same: not a difference.
  const bool other_algorithm = !gh.empty() && !rh.empty() && hash_algorithm(gh) != hash_algorithm(rh);
  if (gh != rh && !other_algorithm) why.push_back("source hash " + gh + " vs " + rh);
  if (param_text(golden) != param_text(run)) why.push_back("parameters " + param_text(golden) + " vs " + param_text(run));
  if (!why.empty() && !a.allow_different) {
    std::string msg;
    for (auto& w : why) msg += (msg.empty() ? "" : "; ") + w;
    throw InputError({a.reports[1], 0, 0}, "", "not comparable with " + a.baseline + ": " + msg + " (--allow-different compares anyway)");
  }
  std::vector<json> reps = {golden, run};
  std::vector<std::vector<Metric>> flat;
  const std::vector<Row> rows = align(reps, flat);
  for (Tolerance& t : tol)
    for (const Row& r : rows) t.used = t.used || glob(t.pattern, r.name);
  for (const Tolerance& t : tol)
    if (!t.used) throw InputError({"--tolerance", 0, 0}, t.pattern, "matches no metric of the two reports");
  std::vector<std::string> moved, added;
  size_t checked = 0;
  for (const Row& r : rows) {
    const json *g = r.values[0], *v = r.values[1];
    if (!g) {  // a metric the baseline's pto-sim (or run) did not have: nothing to regress from
      added.push_back(r.name + " = " + val(v));
      continue;
    }
    ++checked;
    if (!v) {
      moved.push_back(r.name + ": removed (was " + val(g) + ")");
      continue;
    }
    if (!g->is_number() || !v->is_number() || g->is_boolean() || v->is_boolean()) {
      if (*g != *v) moved.push_back(r.name + ": " + val(g) + " -> " + val(v));
      continue;
    }
    const double x = g->get<double>(), y = v->get<double>();
    const Tolerance* t = nullptr;
    for (const Tolerance& c : tol)
      if (glob(c.pattern, r.name)) t = &c;  // the last one given wins
    bool ok;
    std::string limit;
    if (t) {
      const double d = std::fabs(y - x);
      ok = t->kind == Tolerance::Relative ? d <= t->value / 100 * std::fabs(x) + 1e-300
           : t->kind == Tolerance::Points ? d * 100 <= t->value * (1 + 1e-12)
                                          : d <= t->value;
      limit = "tolerance " + t->text;
    } else if (g->is_number_integer() && v->is_number_integer()) {
      ok = g->get<uint64_t>() == v->get<uint64_t>();  // exact counters are exact
      limit = "exact";
    } else {
      ok = std::fabs(y - x) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
      limit = "exact to 1e-9";
    }
    if (!ok) moved.push_back(r.name + ": " + val(g) + " -> " + val(v) + " (" + delta_text(g, v, false) + ", " +
                             delta_text(g, v, true) + "; " + limit + ")");
  }
  for (auto& w : why) std::cout << "note: not the same run inputs: " << w << "\n";
  if (other_algorithm)
    std::cout << "note: the input's identity is not checked: the baseline's source hash is " << hash_algorithm(gh)
              << ", this run's " << hash_algorithm(rh) << " (another hash algorithm; refresh the baseline to check it)\n";
  if (golden.value("config_hash", "") != run.value("config_hash", ""))
    std::cout << "note: configs differ (" << golden.value("config_hash", "") << " vs " << run.value("config_hash", "") << ")\n";
  for (auto& m : added) std::cout << "added: " << m << " (not in the baseline)\n";
  if (moved.empty()) {
    std::cout << "ok: " << checked << " metrics of " << a.reports[1] << " match " << a.baseline << "\n";
    return 0;
  }
  std::cout << "REGRESSION: " << moved.size() << " of " << checked << " metrics of " << a.reports[1] << " moved from "
            << a.baseline << ":\n";
  for (auto& m : moved) std::cout << "  " << m << "\n";
  return 1;
}

}  // namespace

int run_compare(CompareArgs a) {
  if (!a.metrics.empty() && !a.baseline.empty()) throw InputError({"--metrics", 0, 0}, "", "not with --baseline");
  if (!a.baseline.empty()) {
    if (a.reports.size() != 1) throw InputError({"--baseline", 0, 0}, "", "give exactly one report to check against the baseline");
    a.reports.insert(a.reports.begin(), a.baseline);
    return baseline(a, load_report(a.reports[0]), load_report(a.reports[1]));
  }
  if (!a.tolerance.empty()) throw InputError({"--tolerance", 0, 0}, "", "only with --baseline");
  if (a.reports.size() < 2) throw InputError({"pto-sim compare", 0, 0}, "", "give two or more JSON reports");
  std::vector<json> reps;
  for (auto& p : a.reports) reps.push_back(load_report(p));
  return print_table(a, reps);
}

}  // namespace ptosim::cli
