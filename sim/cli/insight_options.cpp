#include "sim/cli/insight_options.h"

#include <iostream>
#include <sstream>

#include "sim/cli/commands.h"
#include "sim/common/error.h"
#include "sim/common/read_file.h"
#include "sim/report/render.h"

namespace ptosim::cli {

void add_insight_options(CLI::App& cmd, InsightArgs& a) {
  cmd.add_flag("--by-line", a.by_line, "Attribute accesses, misses, DRAM bytes and cycles to source lines (by_line)");
  cmd.add_option("--epoch", a.epoch, "Add a time series with one row per CYCLES core cycles (epochs)")
      ->type_name("CYCLES")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 50));
  cmd.add_option("--epoch-accesses", a.epoch_accesses, "Add a time series with one row per N core accesses")
      ->type_name("N")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 50));
  cmd.add_option("--epoch-csv", a.epoch_csv, "Also write the epochs as CSV to FILE")->type_name("FILE");
  cmd.add_option("--timeline", a.timeline, "Write a Chrome / Perfetto trace-event JSON timeline to FILE")
      ->type_name("FILE");
  cmd.add_option("--hot-spots", a.hot_spots, "List the N tensor tiles with the most accesses and misses per level")
      ->type_name("N")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 20));
  cmd.add_option("--hot-tile", a.hot_tile, "Tile shape of --hot-spots, e.g. 32x32 (default: the program's pto.tile, else 32x32)")
      ->type_name("RxC");
  cmd.add_option("--heatmap-bins", a.heatmap_bins,
                 "Epochs count each tensor's accesses in N equal parts of its address range (the heatmap's rows)")
      ->type_name("N")
      ->check(CLI::Range(uint32_t(1), uint32_t(kMaxHeatmapBins)));
  cmd.add_option("--leaks", a.leaks, "Buffers left allocated in managed spaces: off, report (default) or error (exit 1)")
      ->check(CLI::IsMember({"off", "report", "error"}));
}

void apply_insight_options(const InsightArgs& a, RunOptions& options) {
  if (a.epoch && a.epoch_accesses)
    throw InputError({"--epoch", 0, 0}, "", "give either --epoch CYCLES or --epoch-accesses N, not both");
  if (!a.hot_tile.empty() && !a.hot_spots)
    throw InputError({"--hot-tile", 0, 0}, "", "needs --hot-spots N");
  if (!a.epoch_csv.empty() && !a.epoch && !a.epoch_accesses)
    throw InputError({"--epoch-csv", 0, 0}, "", "needs --epoch CYCLES or --epoch-accesses N");
  if (a.heatmap_bins && !a.epoch && !a.epoch_accesses)
    throw InputError({"--heatmap-bins", 0, 0}, "", "needs --epoch CYCLES or --epoch-accesses N (the heatmap's columns)");
  if (a.heatmap_bins && a.hot_spots)
    throw InputError({"--heatmap-bins", 0, 0}, "", "not with --hot-spots: both tag accesses by a part of their tensor");
  AttributionOptions& o = options.attribution;
  o.by_line = o.by_line || a.by_line;
  o.epoch_cycles = a.epoch;
  o.epoch_accesses = a.epoch_accesses;
  o.timeline = !a.timeline.empty();
}

void refuse_insight_overwrites(const InsightArgs& a, const std::string& report_output,
                               std::initializer_list<std::string> inputs) {
  for (const std::string* out : {&a.epoch_csv, &a.timeline}) {
    if (out->empty()) continue;
    refuse_overwriting_inputs(*out, inputs);
    if (*out == report_output || (out == &a.timeline && *out == a.epoch_csv))
      throw InputError({*out, 0, 0}, "", "is given for two outputs");
  }
}

namespace {
std::vector<std::string> source_lines(const std::string& program) {
  std::vector<std::string> lines;
  if (program.empty()) return lines;
  std::istringstream in(read_input_file(program, "program"));
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}
}  // namespace

void add_source_text(StatsNode& root, const std::string& program) {
  StatsNode* by_line = nullptr;
  for (auto& c : root.children)
    if (c.name == "by_line") by_line = &c;
  if (!by_line || program.empty()) return;
  const std::vector<std::string> lines = source_lines(program);
  for (auto& r : by_line->children) {
    const uint64_t n = r.u64("line");
    // Right after `line`, so that a row reads line, source, figures.
    std::string text = n >= 1 && n <= lines.size() ? lines[n - 1] : "";
    if (!text.empty() && text.back() == '\r') text.pop_back();
    r.values.insert(r.values.begin() + 1, {"source", text});
  }
}

void write_insight_files(const System& system, const StatsNode& root, const InsightArgs& a,
                         const std::string& source, const std::string& program) {
  if (!a.timeline.empty()) write_output(a.timeline, system.timeline_json(source, source_lines(program)));
  if (!a.epoch_csv.empty()) write_output(a.epoch_csv, render_epochs_csv(root));
}

void drop_leaks(StatsNode& root) {
  for (auto& c : root.children)
    if (c.name == "program")
      for (size_t i = 0; i < c.children.size(); ++i)
        if (c.children[i].name == "leaks") c.children.erase(c.children.begin() + long(i));
}

int leak_status(const StatsNode& root, const InsightArgs& a) {
  if (a.leaks != "error") return 0;
  const StatsNode* program = root.find_child("program");
  const StatsNode* leaks = program ? program->find_child("leaks") : nullptr;
  if (!leaks || leaks->children.empty()) return 0;
  for (const StatsNode& l : leaks->children) {
    const StatValue* scope = l.find("scope");
    std::cerr << l.name << ": leak: '" << to_string(*l.find("tensor")) << "' (" << l.u64("bytes") << " bytes in "
              << to_string(*l.find("space")) << ") is still allocated at the end of the program: allocated in "
              << to_string(*scope) << ", outside any pto.scope\n";
  }
  return 1;
}

}  // namespace ptosim::cli
