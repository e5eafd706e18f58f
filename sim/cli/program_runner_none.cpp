// Used only while the PTO frontend is not part of the build.
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/program_runner.h"

namespace ptosim::cli {

void add_program_options(CLI::App& cmd, std::vector<std::string>& defines, uint64_t& max_events) {
  cmd.add_option("-D", defines, "Override a program parameter: -D NAME=VALUE");
  cmd.add_option("--max-events", max_events, "Stop a program that emits more events than this");
}

static int unavailable() {
  std::cerr << "pto-sim: this build has no PTO frontend\n";
  return 2;
}

int run_program_on(System&, const HwConfig&, const std::string&, const std::vector<std::string>&, uint64_t,
                   const RunOptions&, StatsNode&) {
  return unavailable();
}
int trace_program(const HwConfig&, const std::string&, const std::vector<std::string>&, uint64_t, EventSink&) {
  return unavailable();
}
void add_check(CLI::App&, Action&) {}

}  // namespace ptosim::cli
