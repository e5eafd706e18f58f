#include <iostream>

#include "models/tlm/system.h"
#include "sim/cli/commands.h"
#include "sim/common/error.h"
#include "sim/cli/insight_options.h"
#include "sim/cli/program_runner.h"
#include "sim/cli/run_identity.h"
#include "sim/config/config_override.h"
#include "sim/report/report.h"
#include "sim/trace/trace_format.h"

namespace ptosim::cli {
namespace {

struct RunArgs {
  std::string program, trace, config, format = "text", output;
  bool flush = false;
  std::vector<std::string> defines, sets;
  uint64_t max_events = 0;
  InsightArgs insight;
};

// What a trace must fit to run on `config`: its cores, and its spaces as
// the core numbers them, writable unless they go to a read-only memory.
TraceRules trace_rules(const HwConfig& config) {
  TraceRules r;
  r.cores = config.core.count;
  r.spaces = config.space_names();
  for (const std::string& space : r.spaces) {
    const MemoryConfig* m = config.memory(config.spaces.at(space));
    r.writable.push_back(!(m && m->read_only));
  }
  return r;
}

void add_trace_counts(StatsNode& root, const TraceCounts& c) {
  StatsNode& t = root.child("trace", NodeKind::Trace);
  t.set("records", c.records).set("reads", c.reads).set("writes", c.writes).set("fetches", c.fetches);
  t.set("misc", c.misc).set("copybacks", c.copybacks).set("invalidates", c.invalidates);
  for (auto& [type, n] : c.skipped) t.set("skipped_" + type, n);
}

}  // namespace

void add_run(CLI::App& app, Action& action) {
  static RunArgs a;
  CLI::App* run = app.add_subcommand("run", "Simulate a PTO program or replay a memory trace");
  run->add_option("PROGRAM", a.program, "PTO kernel program (.pto)");
  run->add_option("--trace", a.trace, "Replay a din or native trace instead ('-' = stdin)");
  run->add_option("--config", a.config, "YAML hardware config (default: built in)");
  run->add_flag("--flush", a.flush, "Write back every dirty line at the end");
  run->add_option("--format", a.format, "Report format")->check(CLI::IsMember({"text", "json", "csv"}));
  run->add_option("-o,--output", a.output, "Write the report here instead of stdout");
  add_program_options(*run, a.defines, a.max_events);
  add_set_option(*run, a.sets);
  add_insight_options(*run, a.insight);
  run->callback([&action] {
    action = [] {
      if (a.program.empty() == a.trace.empty()) {
        std::cerr << "pto-sim run: give either a PROGRAM or --trace FILE\n";
        return 2;
      }
      refuse_overwriting_inputs(a.output, {a.program, a.trace, a.config});
      refuse_insight_overwrites(a.insight, a.output, {a.program, a.trace, a.config});
      const std::vector<ConfigOverride> overrides = parse_overrides(a.sets);
      HwConfig config = load_config_or_default(a.config, overrides);
      System system(config);
      RunOptions options;
      options.flush = a.flush;
      options.source = a.trace.empty() ? a.program : a.trace;
      apply_insight_options(a.insight, options);
      if (!a.insight.hot_tile.empty()) parse_hot_tile(a.insight.hot_tile);  // a bad flag fails before the run
      if (a.insight.hot_spots && !a.trace.empty())
        throw InputError({"--hot-spots", 0, 0}, "", "needs a PROGRAM: a trace has no tensors");
      if (a.insight.heatmap_bins && !a.trace.empty())
        throw InputError({"--heatmap-bins", 0, 0}, "", "needs a PROGRAM: a trace has no tensors");
      StatsNode root;
      std::vector<ProgramParam> params;
      int status = 0;
      if (!a.trace.empty()) {
        TraceCounts counts;
        const TraceRules rules = trace_rules(config);
        root = system.run([&](EventSink& sink) { counts = replay_trace(a.trace, sink, rules); }, options);
        add_trace_counts(root, counts);
      } else {
        // The program's print() output must not corrupt a JSON or CSV report on stdout.
        const bool report_on_stdout = a.output.empty() || a.output == "-";
        std::ostream* prints = report_on_stdout && a.format != "text" ? &std::cerr : nullptr;
        HotSpotArgs hot{a.insight.hot_spots, a.insight.hot_tile, a.insight.heatmap_bins};
        status = run_program_on(system, config, a.program, a.defines, a.max_events, options, root, prints, &params, hot);
        add_source_text(root, a.program);
        if (a.insight.leaks == "off") drop_leaks(root);
      }
      write_insight_files(system, root, a.insight, options.source, a.program);
      RunInputs in;
      in.source = options.source;
      in.config = &config;
      in.config_file = a.config;
      in.overrides = &overrides;
      in.params = a.trace.empty() ? &params : nullptr;
      add_run_identity(root, in);
      write_output(a.output, render(root, a.format));
      return status ? status : leak_status(root, a.insight);
    };
  });
}

}  // namespace ptosim::cli
