#pragma once
// Diagnostics on stderr (what was loaded, what was built, how long the run
// took) for a user who wants to see what pto-sim is doing: off by default
// apart from warnings, `-v` (info), `-vv` (debug) or `--log-level`.
// Errors are not logged here: they are the `file:line: message` lines the
// CLI prints itself, whatever the level.
#include <CLI/CLI.hpp>
#include <string>

namespace ptosim::cli {

struct LogOptions {
  std::string level;  // empty: from -v
  int verbose = 0;
};

// Registers -v and --log-level on the top-level app.
void add_log_options(CLI::App& app, LogOptions& o);
// Sets up the stderr logger; call after parsing.
void start_logging(const LogOptions& o);

}  // namespace ptosim::cli
