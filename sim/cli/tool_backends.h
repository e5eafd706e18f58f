#pragma once
// What the article's tools in a program (sim/frontend/tools.h) are backed by
// on the command line: the simulation's figures read from the running
// System, a side model of other cache levels (models/cache), and the
// pictures a MemoryVisualizer asked for, drawn by scripts/plot.py from the
// finished run's report.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sim/config/hw_config.h"
#include "sim/exec/program_result.h"
#include "sim/exec/run_figures.h"
#include "sim/report/stats.h"

namespace ptosim::cli {

// A report tree (System::snapshot or the final one) as the figures a program reads.
exec::RunFigures figures_of(const StatsNode& root, const HwConfig& config);
// pto.CacheSimulator's levels, exact counts and no time (CacheHierarchy).
std::unique_ptr<exec::CacheSideModel> make_cache_side_model(const std::vector<CacheConfig>& levels,
                                                            std::vector<bool> cached);

// Draws each picture from `report_json` (the complete run's JSON report)
// with `python3 scripts/plot.py`; returns 0, or 2 after printing
// `file:line:col: generate_heatmap: ...` for the first that failed.
int draw_pictures(const std::vector<ProgramResult::Picture>& pictures, const std::string& report_json);

}  // namespace ptosim::cli
