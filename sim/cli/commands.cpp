// The helpers commands.h declares that every subcommand shares: --set,
// --output, the config a command runs on, the rules a trace must fit.
#include "sim/cli/commands.h"

#include "sim/common/error.h"
#include "sim/config/config_loader.h"

namespace ptosim::cli {

void add_set_option(CLI::App& cmd, std::vector<std::string>& sets) {
  cmd.add_option("--set", sets, "Override a config key: --set caches.L1.size=16KiB (dotted path into the YAML)")
      ->allow_extra_args(false);
}

TraceRules trace_rules(const HwConfig& config) {
  TraceRules r;
  r.cores = config.core.count;
  r.spaces = config.space_names();
  for (const std::string& space : r.spaces) {
    const MemoryConfig* m = config.memory(config.spaces.at(space));
    r.writable.push_back(!(m && m->read_only));
  }
  return r;
}

HwConfig load_config_or_default(const std::string& path, const std::vector<ConfigOverride>& overrides) {
  return load_config_with_overrides(path, overrides);
}

CLI::Option* add_output_option(CLI::App& cmd, std::string& path, const std::string& help) {
  return cmd.add_option("-o,--output", path, help)->check(
      [](const std::string& s) { return s.empty() ? std::string("an empty file name (use - for stdout)") : std::string(); });
}

std::vector<ConfigOverride> parse_overrides(const std::vector<std::string>& sets) {
  std::vector<ConfigOverride> o;
  std::vector<std::pair<std::string, std::string>> given;
  for (const std::string& spec : sets) {
    o.push_back(parse_override(spec));
    given.emplace_back(o.back().path, spec);
  }
  refuse_given_twice("--set", given);
  return o;
}

void refuse_given_twice(const std::string& flag, const std::vector<std::pair<std::string, std::string>>& given) {
  for (size_t i = 0; i < given.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (given[i].first == given[j].first)
        throw InputError({flag, 0, 0}, given[i].first,
                         "given twice (" + given[j].second + " and " + given[i].second + "); give it once");
}

}  // namespace ptosim::cli
