// A sweep point's identity, apart from how the command line spelled it: a
// resumed sweep must recognise a point it already ran when -D axes come in
// another order, a -D repeats the program's default, or two --set spellings
// resolve to the same config (the config hash says so).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "sim/analysis/sweep_rows.h"
#include "sim/common/read_file.h"
#include "sim/frontend/parser.h"

namespace ptosim::cli {
namespace {

// "16.0", not "16": a real -D is another value than an integer one to the program.
std::string real_text(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  std::string s = buf;
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

// A `param` default the parser gives as a literal (it folds a leading minus
// into the number); "" for an expression, which only a run can evaluate.
std::string literal(const frontend::Expr& e) {
  using frontend::ExprKind;
  switch (e.kind) {
    case ExprKind::Int: return std::to_string(e.ival);
    case ExprKind::Float: return real_text(e.fval);
    case ExprKind::Bool: return e.ival ? "True" : "False";
    case ExprKind::Str: return e.name;
    default: return "";
  }
}

std::string config_part(const SweepTable& t, const SweepPoint& p) {
  const std::string combo = combo_key(p);
  const auto hash = t.config_hash.find(combo);
  if (hash != t.config_hash.end()) return "config=" + hash->second;
  std::vector<std::string> sets;
  for (auto& [n, v] : p.sets) sets.push_back(" set." + n + "=" + v);
  std::sort(sets.begin(), sets.end());
  std::string k = "config=" + (p.config.empty() ? std::string("<default>") : p.config);
  for (auto& s : sets) k += s;
  return k;
}

}  // namespace

// Mirrors the frontend's reading of a -D value (sim/frontend/interpreter.cpp,
// parse_define): an integer in any base strtoll takes, then a real.
std::string canonical_define(const std::string& s) {
  if (s.empty()) return s;
  char* end = nullptr;
  errno = 0;
  const long long i = std::strtoll(s.c_str(), &end, 0);
  if (*end == '\0' && errno == 0) return std::to_string(i);
  const double d = std::strtod(s.c_str(), &end);
  if (*end == '\0') return real_text(d);
  return s;
}

std::map<std::string, std::string> literal_param_defaults(const std::string& program) {
  std::map<std::string, std::string> out;
  std::map<std::string, int> seen;
  try {
    const frontend::Module m = frontend::parse_program(read_input_file(program, "program"));
    for (const frontend::StmtP& st : m.body)
      if (st->kind == frontend::StmtKind::Param && st->value && ++seen[st->name] == 1) out[st->name] = literal(*st->value);
  } catch (const frontend::ProgramError&) {
    return {};  // the run reports it, at its line
  }
  for (auto& [name, n] : seen)
    if (n > 1) out[name] = "";  // declared twice: which default applies depends on the run
  return out;
}

void name_points(const SweepTable& t, std::vector<SweepPoint>& points) {
  for (SweepPoint& p : points) {
    std::string key = config_part(t, p);
    for (auto& [name, fallback] : t.params) {
      std::string v = fallback.empty() ? "(default)" : fallback;
      for (auto& [n, given] : p.params)
        if (n == name) v = canonical_define(given);
      key += " " + name + "=" + v;
    }
    p.key = key;
  }
}

}  // namespace ptosim::cli
