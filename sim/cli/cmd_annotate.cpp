// `pto-sim annotate PROGRAM.pto`: runs the program with per-line
// attribution and prints its source with each line's accesses, misses per
// level, DRAM bytes and cycles, after a summary of the costliest lines.
#include <algorithm>
#include <iostream>

#include "models/tlm/system.h"
#include "sim/cli/insight_options.h"
#include "sim/cli/commands.h"
#include "sim/cli/program_runner.h"
#include "sim/common/error.h"
#include "sim/common/read_file.h"
#include "sim/report/annotate.h"
#include "sim/report/render.h"

namespace ptosim::cli {

void add_annotate(CLI::App& app, Action& action) {
  struct Args {
    std::string program, config, level, sort = "misses", format = "text", output;
    std::vector<std::string> defines;
    uint64_t max_events = 0;
    size_t top = 10;
  };
  static Args a;
  CLI::App* cmd = app.add_subcommand("annotate", "Run a program and list its source with the cost of each line");
  cmd->add_option("PROGRAM", a.program, "PTO kernel program (.pto)")->required();
  cmd->add_option("--config", a.config, "YAML hardware config (default: built in)");
  cmd->add_option("--level", a.level, "Show (and sort by) the misses of this level only (default: every cache)");
  cmd->add_option("--sort", a.sort, "Order of the summary")
      ->check(CLI::IsMember({"accesses", "misses", "dram_bytes", "cycles"}));
  cmd->add_option("--top", a.top, "Lines in the summary")->check(CLI::Range(size_t(1), size_t(1) << 20));
  cmd->add_option("--format", a.format, "text (the listing) or json (the run's report with by_line)")
      ->check(CLI::IsMember({"text", "json"}));
  add_output_option(*cmd, a.output, "Write here instead of stdout");
  add_program_options(*cmd, a.defines, a.max_events);
  cmd->callback([&action] {
    action = [] {
      refuse_overwriting_inputs(a.output, {a.program, a.config});
      HwConfig config = load_config_or_default(a.config);
      System system(config);
      RunOptions options;
      options.source = a.program;
      options.attribution.by_line = true;
      StatsNode root;
      const int status =
          run_program_on(system, config, a.program, a.defines, a.max_events, options, root, &std::cerr);
      AnnotateOptions o;
      o.sort = a.sort;
      o.top = a.top;
      std::vector<std::string> all;
      if (const StatsNode* levels = root.find_child("levels"))
        for (const StatsNode& l : levels->children) {
          all.push_back(l.name);
          if (l.kind == NodeKind::Cache) o.levels.push_back(l.name);
        }
      if (!a.level.empty()) {
        if (std::find(all.begin(), all.end(), a.level) == all.end()) {
          std::string known;
          for (auto& n : all) known += (known.empty() ? "" : ", ") + n;
          throw InputError({"--level", 0, 0}, "", "unknown level '" + a.level + "' (this config has: " + known + ")");
        }
        o.levels = {a.level};
      }
      if (o.levels.empty())  // no cache: every memory's count is a "miss" of nothing; show the first level
        for (auto& n : all) if (o.levels.empty()) o.levels.push_back(n);
      o.sort_level = o.levels.front();
      if (a.format == "json") {
        add_source_text(root, a.program);
        write_output(a.output, render_json(root));
      } else {
        write_output(a.output, render_annotated(root, read_input_file(a.program, "program"), o));
      }
      return status;
    };
  });
}

}  // namespace ptosim::cli
