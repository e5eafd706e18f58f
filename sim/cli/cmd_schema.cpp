// `pto-sim schema`: the report keys with type, unit and meaning, from the one
// list in sim/report/report_keys.cpp. docs/REPORTS.md's table is this
// command's markdown (scripts/gen-reports-doc.sh); Python reads the JSON.
// `--choices`: every open concept's registered names (sim/common/registry.h),
// so that the tests and scripts derive their choice lists from the build.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/cli/commands.h"
#include "sim/common/registry.h"
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

}  // namespace

void add_schema(CLI::App& app, Action& action) {
  static std::string format = "markdown";
  static bool choices = false;
  CLI::App* schema = app.add_subcommand("schema", "Print the report keys (type, unit, meaning)");
  schema->add_option("--format", format, "markdown (docs/REPORTS.md's table) or json")
      ->check(CLI::IsMember({"markdown", "json"}));
  schema->add_flag("--choices", choices,
                   "the registered choices of every open concept (replacement, prefetcher, dram timing, core model) "
                   "instead of the report keys");
  schema->callback([&action] {
    action = [] {
      if (choices) std::cout << (format == "json" ? choices_json() : choices_markdown());
      else std::cout << (format == "json" ? report_keys_json() : report_keys_markdown());
      return 0;
    };
  });
}

}  // namespace ptosim::cli
