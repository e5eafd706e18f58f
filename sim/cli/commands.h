#pragma once
// Each subcommand registers its options on the app and returns the action
// to run when it was chosen. Actions return the process exit status.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "sim/common/atomic_file.h"  // write_output, refuse_overwriting_inputs: every command's -o
#include "sim/config/config_override.h"
#include "sim/config/hw_config.h"
#include "sim/trace/trace_format.h"

namespace ptosim::cli {

using Action = std::function<int()>;

void add_run(CLI::App& app, Action& action);
void add_config(CLI::App& app, Action& action);
void add_trace(CLI::App& app, Action& action);
void add_check(CLI::App& app, Action& action);
void add_schema(CLI::App& app, Action& action);
void add_sweep(CLI::App& app, Action& action);
void add_compare(CLI::App& app, Action& action);
void add_annotate(CLI::App& app, Action& action);
void add_curves(CLI::App& app, Action& action);
void add_tune(CLI::App& app, Action& action);

// --set dotted.path=VALUE (repeatable): config overrides, validated like the file.
void add_set_option(CLI::App& cmd, std::vector<std::string>& sets);
// --config FILE or the built-in default, with the --set overrides applied.
// What a trace must fit to run on `config` (run, curves): its cores, and its
// spaces as the core numbers them, writable unless they go to a read-only memory.
TraceRules trace_rules(const HwConfig& config);
HwConfig load_config_or_default(const std::string& path, const std::vector<ConfigOverride>& overrides = {});
std::vector<ConfigOverride> parse_overrides(const std::vector<std::string>& sets);
// Throws InputError "FLAG: NAME: given twice (SPEC and SPEC)" when two of
// `given` (name, as given) share a name: -D M=1 -D M=2 used to let the last win.
void refuse_given_twice(const std::string& flag, const std::vector<std::pair<std::string, std::string>>& given);
// -o,--output FILE: an empty name is refused (it used to mean stdout).
CLI::Option* add_output_option(CLI::App& cmd, std::string& path, const std::string& help);

}  // namespace ptosim::cli
