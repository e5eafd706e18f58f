#include <iostream>

#include "models/tlm/system.h"
#include "sim/cli/commands.h"
#include "sim/cli/program_runner.h"
#include "sim/report/report.h"
#include "sim/trace/trace_format.h"

namespace ptosim::cli {
namespace {

struct RunArgs {
  std::string program, trace, config, format = "text", output;
  bool flush = false, check_data = false;
  std::vector<std::string> defines;
  uint64_t max_events = 0;
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
  run->add_flag("--check-data", a.check_data,
                "Carry real bytes through the hierarchy and check every load and, after the flush (implied), "
                "the memories; a mismatch exits 1");
  run->add_option("--format", a.format, "Report format")->check(CLI::IsMember({"text", "json", "csv"}));
  run->add_option("-o,--output", a.output, "Write the report here instead of stdout");
  add_program_options(*run, a.defines, a.max_events);
  run->callback([&action] {
    action = [] {
      if (a.program.empty() == a.trace.empty()) {
        std::cerr << "pto-sim run: give either a PROGRAM or --trace FILE\n";
        return 2;
      }
      refuse_overwriting_inputs(a.output, {a.program, a.trace, a.config});
      HwConfig config = load_config_or_default(a.config);
      System system(config, a.check_data);
      RunOptions options;
      options.flush = a.flush || a.check_data;
      options.source = a.trace.empty() ? a.program : a.trace;
      options.data_in_stream = a.check_data && a.trace.empty();
      StatsNode root;
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
        status = run_program_on(system, config, a.program, a.defines, a.max_events, options, root, prints);
      }
      write_output(a.output, render(root, a.format));
      return status;
    };
  });
}

}  // namespace ptosim::cli
