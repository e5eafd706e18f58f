#pragma once
// The CLI's bridge to the PTO frontend: runs a program into the simulated
// system, into a trace writer, or functionally only.
#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>
#include <vector>

#include "models/tlm/system.h"
#include "sim/frontend/frontend.h"
#include "sim/trace/event.h"

namespace ptosim::cli {

void add_program_options(CLI::App& cmd, std::vector<std::string>& defines, uint64_t& max_events);

// Each returns the exit status: 0, or 1 when a pto.check failed.
// hot_spots > 0: the N hottest tensor tiles per level (`hot_spots` in the
// report; the levels' `tensors` tables stay per tensor); hot_tile "32x32"
// ("" = from the program's tiling).
// bins > 0 (--heatmap-bins, instead of hot spots): the epochs count each
// tensor per bin of its address range (`bins` rows, `heatmap_tensors`).
struct HotSpotArgs {
  uint64_t count = 0;
  std::string tile;
  uint32_t bins = 0;
};
int run_program_on(System& system, const HwConfig& config, const std::string& program,
                   const std::vector<std::string>& defines, uint64_t max_events, const RunOptions& options,
                   StatsNode& root, std::ostream* print_stream = nullptr,
                   std::vector<ProgramParam>* params = nullptr, const HotSpotArgs& hot = {},
                   std::vector<ProgramResult::Picture>* pictures = nullptr, bool values = true);
// "32x32" -> {32, 32}; InputError for --hot-tile otherwise.
std::vector<int64_t> parse_hot_tile(const std::string& s);
int trace_program(const HwConfig& config, const std::string& program, const std::vector<std::string>& defines,
                  uint64_t max_events, EventSink& sink);

}  // namespace ptosim::cli
