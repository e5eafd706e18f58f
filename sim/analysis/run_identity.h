#pragma once
// What produced a report (schema_version 2): pto-sim's version, the command
// line, the input and its hash, every parameter's final value, the resolved
// config and its hash, when it started and how long it took. Two reports
// with the same identity come from the same run inputs; a sweep tells its
// points apart by it and `compare --baseline` refuses different ones.
#include <string>
#include <vector>

#include "sim/config/config_override.h"
#include "sim/config/hw_config.h"
#include "sim/frontend/frontend.h"
#include "sim/report/stats.h"

namespace ptosim::cli {

// main() records argv and the start time once; reports read them.
void record_invocation(int argc, char* argv[]);
const std::string& command_line();
std::string shell_quote(const std::string& arg);

struct RunInputs {
  std::string source;                        // program or trace path
  std::string source_hash;                   // its hash if already known, else "" (hash_file then)
  const HwConfig* config = nullptr;
  std::string config_file;                   // "" = built in
  const std::vector<ConfigOverride>* overrides = nullptr;
  const std::vector<ProgramParam>* params = nullptr;  // null for trace runs
};

// Puts the identity keys first in `root` (before config, clock_hz, ...),
// `parameters` and `config_overrides` first among its children and
// `config_resolved` last.
void add_run_identity(StatsNode& root, const RunInputs& in);

// The resolved config's hash, as reports and sweeps print it.
std::string config_hash(const HwConfig& config);

}  // namespace ptosim::cli
