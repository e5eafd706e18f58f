#pragma once
// The options that ask a run where its misses come from and when (per line,
// epochs, a timeline, leaks), shared by `run` and `annotate`, and the files
// they write besides the report.
#include <CLI/CLI.hpp>
#include <string>

#include "models/tlm/system.h"
#include "sim/report/stats.h"

namespace ptosim::cli {

// The most bins --heatmap-bins cuts a tensor into (each is a tag of its own).
constexpr uint32_t kMaxHeatmapBins = 1024;

struct InsightArgs {
  bool by_line = false;
  uint64_t epoch = 0, epoch_accesses = 0;
  std::string epoch_csv, timeline;
  std::string leaks = "report";  // off | report | error
  uint64_t hot_spots = 0;
  std::string hot_tile;
  uint32_t heatmap_bins = 0;  // epochs per tensor bin of its address range
};

void add_insight_options(CLI::App& cmd, InsightArgs& a);
// Checks the combination (InputError) and fills options.attribution.
void apply_insight_options(const InsightArgs& a, RunOptions& options);
// Outputs that must not replace the run's inputs, nor one another.
void refuse_insight_overwrites(const InsightArgs& a, const std::string& report_output,
                               std::initializer_list<std::string> inputs);
// The source text of each by_line row (`source`), from the program file.
void add_source_text(StatsNode& root, const std::string& program);
// Writes the timeline and the epoch CSV, when asked for.
// `program`: its path ("" for a trace), whose lines name the timeline's slices.
void write_insight_files(const System& system, const StatsNode& root, const InsightArgs& a,
                         const std::string& source, const std::string& program);
// --leaks=off: the report lists none.
void drop_leaks(StatsNode& root);
// With --leaks=error: prints each leak (file:line:col) and returns 1; else 0.
int leak_status(const StatsNode& root, const InsightArgs& a);

}  // namespace ptosim::cli
