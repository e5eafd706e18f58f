#pragma once
// Renderers of the stats tree. All three read the same tree; see
// docs/REPORTS.md for the JSON schema and the CSV columns.
#include <string>
#include <vector>

#include "sim/report/stats.h"

namespace ptosim {

constexpr int kReportSchemaVersion = 2;

std::string render_text(const StatsNode& root);
std::string render_json(const StatsNode& root);
std::string render_csv(const StatsNode& root);
// The `epochs` table (--epoch / --epoch-accesses) as CSV: one row per epoch;
// columns epoch, start_cycles, end_cycles, accesses, flops, region,
// dram_row_hits, dram_row_hit_rate, then <level>_<key> for each level's
// accesses, misses, miss_rate, bytes, bandwidth_bytes_per_s, then
// footprint_<space> (peak bytes in the epoch).
std::string render_epochs_csv(const StatsNode& root);
// "text" | "json" | "csv"; throws std::invalid_argument otherwise.
std::string render(const StatsNode& root, const std::string& format);

// CSV pieces shared with `pto-sim sweep`'s table.
std::string csv_quote(const std::string& field);
const std::vector<std::string>& csv_run_columns();
// Scalar level keys in schema order: those some level of `levels` has, or
// every one when `levels` is null.
std::vector<std::string> csv_level_columns(const StatsNode* levels);

}  // namespace ptosim
