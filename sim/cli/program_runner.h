#pragma once
// The CLI's bridge to the PTO frontend: runs a program into the simulated
// system, into a trace writer, or functionally only.
#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>
#include <vector>

#include "models/tlm/system.h"
#include "sim/trace/event.h"

namespace ptosim::cli {

void add_program_options(CLI::App& cmd, std::vector<std::string>& defines, uint64_t& max_events);

// Each returns the exit status: 0, or 1 when a pto.check failed.
int run_program_on(System& system, const HwConfig& config, const std::string& program,
                   const std::vector<std::string>& defines, uint64_t max_events, const RunOptions& options,
                   StatsNode& root, std::ostream* print_stream = nullptr);
int trace_program(const HwConfig& config, const std::string& program, const std::vector<std::string>& defines,
                  uint64_t max_events, EventSink& sink);

}  // namespace ptosim::cli
