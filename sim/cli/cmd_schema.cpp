// `pto-sim schema`: the report keys with type, unit and meaning, from the one
// list in sim/report/report_keys.cpp. docs/REPORTS.md's table is this
// command's markdown (scripts/gen-reports-doc.sh); Python reads the JSON.
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/report/report_keys.h"

namespace ptosim::cli {

void add_schema(CLI::App& app, Action& action) {
  static std::string format = "markdown";
  CLI::App* schema = app.add_subcommand("schema", "Print the report keys (type, unit, meaning)");
  schema->add_option("--format", format, "markdown (docs/REPORTS.md's table) or json")
      ->check(CLI::IsMember({"markdown", "json"}));
  schema->callback([&action] {
    action = [] {
      std::cout << (format == "json" ? report_keys_json() : report_keys_markdown());
      return 0;
    };
  });
}

}  // namespace ptosim::cli
