#pragma once
// Renderers of the stats tree. All three read the same tree; see
// docs/REPORTS.md for the JSON schema and the CSV columns.
#include <string>

#include "sim/report/stats.h"

namespace ptosim {

constexpr int kReportSchemaVersion = 1;

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

}  // namespace ptosim
