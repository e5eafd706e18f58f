#include <iostream>

#include "sim/cli/commands.h"
#include "sim/config/config_loader.h"

namespace ptosim::cli {

void add_config(CLI::App& app, Action& action) {
  CLI::App* config = app.add_subcommand("config", "Inspect hardware configs");
  config->require_subcommand(1);
  CLI::App* show = config->add_subcommand("show", "Print a config (default: the built-in one) with every default filled in");
  static std::string file;
  show->add_option("FILE", file, "YAML hardware config");
  show->callback([&action] {
    action = [] {
      const std::string yaml = to_yaml(load_config_or_default(file));  // fails before printing anything
      std::cout << "# " << (file.empty() ? "built-in default config" : file) << ", every default filled in\n" << yaml;
      return 0;
    };
  });
}

}  // namespace ptosim::cli
