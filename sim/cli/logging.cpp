#include "sim/cli/logging.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace ptosim::cli {

void add_log_options(CLI::App& app, LogOptions& o) {
  app.add_flag("-v,--verbose", o.verbose, "More diagnostics on stderr (-v info, -vv debug)");
  app.add_option("--log-level", o.level, "Diagnostics on stderr: trace, debug, info, warn, error or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
}

void start_logging(const LogOptions& o) {
  auto logger = spdlog::stderr_logger_st("pto-sim");
  logger->set_pattern("pto-sim: %l: %v");
  spdlog::set_default_logger(logger);
  spdlog::level::level_enum level = spdlog::level::warn;
  if (!o.level.empty()) level = spdlog::level::from_str(o.level);
  else if (o.verbose == 1) level = spdlog::level::info;
  else if (o.verbose >= 2) level = spdlog::level::debug;
  spdlog::set_level(level);
}

}  // namespace ptosim::cli
