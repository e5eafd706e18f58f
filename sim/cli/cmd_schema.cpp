// `pto-sim schema`: the report keys with type, unit and meaning, from the one
// list in sim/report/report_keys.cpp. docs/REPORTS.md's table is this
// command's markdown (scripts/gen-reports-doc.sh); Python reads the JSON.
// `--choices`: every open concept's registered names (sim/common/registry.h),
// so that the tests and scripts derive their choice lists from the build.
// `--params`: the config keys the models declare (sim/config/params.h);
// docs/CONFIG.md's table of model keys is its markdown (scripts/gen-config-doc.sh).
// `--pto-ops`: every callable `pto.` and `pto.ref.` name (the built-ins and
// the ops registered from sim/exec, sim/exec/pto_op.h) with its parameters
// and its line; docs/LANGUAGE.md's table of ops is its markdown
// (scripts/gen-language-doc.sh), so a new op edits no list.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/cli/commands.h"
#include "sim/common/registry.h"
#include "sim/config/hw_config.h"
#include "sim/config/params.h"
#include "sim/config/shared_keys.h"
#include "sim/frontend/nodes.h"
#include "sim/report/report_keys.h"

namespace ptosim::cli {

namespace {

// {"kind": [{"name", "rank", "description", "traits"}, ...]}, listing order.
std::string choices_json() {
  nlohmann::json j = nlohmann::json::object();
  for (const std::string& kind : ChoiceLists::kinds()) {
    nlohmann::json list = nlohmann::json::array();
    for (const Choice& c : ChoiceLists::of(kind))
      list.push_back({{"name", c.name}, {"rank", c.rank}, {"description", c.description}, {"traits", c.traits}});
    j[kind] = list;
  }
  return j.dump(2) + "\n";
}

std::string choices_markdown() {
  std::ostringstream o;
  for (const std::string& kind : ChoiceLists::kinds()) {
    o << "| " << kind << " | what it is |\n|---|---|\n";
    for (const Choice& c : ChoiceLists::of(kind)) o << "| `" << c.name << "` | " << c.description << " |\n";
    o << "\n";
  }
  return o.str();
}

// A key that picks a registered choice: its meaning, then each choice's own
// line from its registration, so that docs/CONFIG.md names no choice by hand.
template <class Cfg>
std::string param_doc(const Param<Cfg>& p) {
  if (p.choices_of.empty()) return p.doc;
  std::string s = p.doc + ".";
  for (const Choice& c : ChoiceLists::of(p.choices_of))
    s += (s.back() == '.' ? " `" : "; `") + c.name + "`: " + c.description;
  return s;
}

// One row a declared key, section by section: core, memories[], caches[],
// dram, coherence. A registered choice's range and choices are the
// registry's, read now that every name has registered.
template <class Cfg>
void param_rows(nlohmann::json& rows) {
  for (const Param<Cfg>& p : Params<Cfg>::all())
    rows.push_back({{"key", std::string(param_section<Cfg>()) + "." + p.key},
                    {"concept", p.concept_kind},
                    {"read_by", p.owners},
                    {"type", p.type},
                    {"unit", p.unit},
                    {"default", p.default_doc.empty() ? p.default_text() : p.default_doc},
                    {"range", p.choices_of.empty() ? p.range : ChoiceLists::listing(p.choices_of)},
                    {"doc", param_doc(p)}});
}

nlohmann::json params_json() {
  nlohmann::json rows = nlohmann::json::array();
  param_rows<CoreConfig>(rows);
  param_rows<MemoryConfig>(rows);
  param_rows<CacheConfig>(rows);
  param_rows<PrefetchConfig>(rows);
  param_rows<DramConfig>(rows);
  param_rows<CoherenceConfig>(rows);
  return rows;
}

// A markdown cell: a choice list's `|` would split it.
std::string cell(const nlohmann::json& v) {
  std::string out;
  for (char ch : v.get<std::string>()) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

std::string params_markdown() {
  std::ostringstream o;
  o << "| key | read by | type | default | range | meaning |\n|---|---|---|---|---|---|\n";
  for (const auto& r : params_json()) {
    const std::string by = r["concept"].get<std::string>().empty() ? cell(r["read_by"])
                                                                    : cell(r["concept"]) + " " + cell(r["read_by"]);
    o << "| `" << cell(r["key"]) << "` | " << by << " | " << cell(r["type"]) << " | `" << cell(r["default"]) << "` | "
      << cell(r["range"]) << " | " << cell(r["doc"]) << " |\n";
  }
  return o.str();
}

// `pto.conv2d(input, weight[, stride, padding])`: the optional parameters
// bracketed, keyword-only ones with `=`, `...` where extra positionals go.
std::string pto_signature(const frontend::BuiltinDef& d) {
  std::vector<std::string> tok;
  for (size_t i = 0; i < d.params.size(); ++i) {
    if (d.variadic && int(i) == d.positional) tok.push_back("...");
    tok.push_back(d.params[i] + (d.positional >= 0 && int(i) >= d.positional ? "=" : ""));
  }
  std::string s = d.name + "(";
  for (size_t i = 0; i < tok.size(); ++i) {
    if (int(i) == d.required) s += i == 0 ? "[" : "[, ";
    else if (i > 0) s += ", ";
    s += tok[i];
  }
  return s + (int(tok.size()) > d.required ? "])" : ")");
}

nlohmann::json pto_ops_json() {
  nlohmann::json rows = nlohmann::json::array();
  for (const frontend::BuiltinDef* d : frontend::pto_callables())
    rows.push_back({{"name", d->name}, {"params", d->params}, {"required", d->required},
                    {"signature", pto_signature(*d)}, {"description", d->about}, {"registered", d->run != nullptr}});
  return rows;
}

std::string pto_ops_markdown() {
  std::ostringstream o;
  o << "| call | what it does |\n|---|---|\n";
  for (const auto& r : pto_ops_json()) o << "| `" << cell(r["signature"]) << "` | " << cell(r["description"]) << " |\n";
  return o.str();
}

}  // namespace

void add_schema(CLI::App& app, Action& action) {
  static std::string format = "markdown";
  static bool choices = false, params = false, pto_ops = false;
  CLI::App* schema = app.add_subcommand("schema", "Print the report keys (type, unit, meaning)");
  schema->add_option("--format", format, "markdown (docs/REPORTS.md's table) or json")
      ->check(CLI::IsMember({"markdown", "json"}));
  schema->add_flag("--choices", choices,
                   "the registered choices of every open concept (replacement, prefetcher, dram timing, core model, "
                   "pto op) instead of the report keys");
  schema->add_flag("--params", params,
                   "the config keys the models declare (type, unit, default, range, meaning) instead of the report "
                   "keys; docs/CONFIG.md's table of model keys");
  schema->add_flag("--pto-ops", pto_ops,
                   "every pto. and pto.ref. call (parameters, what it does) instead of the report keys; "
                   "docs/LANGUAGE.md's table of ops");
  schema->callback([&action] {
    action = [] {
      if (int(choices) + int(params) + int(pto_ops) > 1)
        throw InputError({"pto-sim schema", 0, 0}, "", "one of --choices, --params and --pto-ops, not two");
      if (pto_ops) std::cout << (format == "json" ? pto_ops_json().dump(2) + "\n" : pto_ops_markdown());
      else if (choices) std::cout << (format == "json" ? choices_json() : choices_markdown());
      else if (params) std::cout << (format == "json" ? params_json().dump(2) + "\n" : params_markdown());
      else std::cout << (format == "json" ? report_keys_json() : report_keys_markdown());
      return 0;
    };
  });
}

}  // namespace ptosim::cli
