#include <spdlog/spdlog.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

#include "models/tlm/system.h"
#include "sim/cli/commands.h"
#include "sim/cli/program_runner.h"
#include "sim/cli/progress_line.h"
#include "sim/common/memory_budget.h"
#include "sim/common/run_control.h"
#include "sim/report/report.h"
#include "sim/trace/trace_format.h"

namespace ptosim::cli {
namespace {

struct RunArgs {
  std::string program, trace, config, format = "text", output;
  bool flush = false, progress = false;
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
  run->add_option("--format", a.format, "Report format")->check(CLI::IsMember({"text", "json", "csv"}));
  add_output_option(*run, a.output, "Write the report here instead of stdout");
  run->add_flag("--progress", a.progress, "Show progress on stderr even when it is not a terminal");
  add_program_options(*run, a.defines, a.max_events);
  run->callback([&action] {
    action = [] {
      if (a.program.empty() == a.trace.empty()) {
        std::cerr << "pto-sim run: give either a PROGRAM or --trace FILE\n";
        return 2;
      }
      // From here on a first Ctrl-C stops the simulation at its next safe
      // point (at once if it comes before) and the report so far is
      // written; a second one ends the process at once.
      run_control::install_signal_handlers();
      if (!a.trace.empty() && (!a.defines.empty() || a.max_events))
        throw InputError({a.defines.empty() ? "--max-events" : "-D", 0, 0}, "",
                         "applies to a PROGRAM, not to a --trace replay");
      refuse_overwriting_inputs(a.output, {a.program, a.trace, a.config});
      HwConfig config = load_config_or_default(a.config);
      spdlog::info("config {} ({}): {} cache level(s), {} memories, DRAM {} ({})", config.name,
                   a.config.empty() ? "built in" : a.config, config.caches.size(), config.memories.size(),
                   config.dram.name, config.dram.timing);
      for (const CacheConfig& c : config.caches)
        spdlog::debug("level {}: {} B, {} ways, {} B lines, {} cycles, {}", c.name, c.size, c.ways, c.line, c.latency,
                      c.replacement);
      spdlog::debug("clock {} Hz, {} core(s); --max-memory defaults to {} B", config.clock_hz, config.core.count,
                    memory_budget::default_limit());
      System system(config);
      RunOptions options;
      options.flush = a.flush;
      options.source = a.trace.empty() ? a.program : a.trace;
      StatsNode root;
      int status = 0;
      const auto started = std::chrono::steady_clock::now();
      std::optional<ProgressLine> progress;
      progress.emplace(a.progress);
      if (!a.trace.empty()) {
        // Shared with the reader's thread, which an interrupted run lets go.
        auto counts = std::make_shared<TraceCounts>();
        auto rules = std::make_shared<const TraceRules>(trace_rules(config));
        root = system.run([counts, rules](EventSink& sink) { *counts = replay_trace(a.trace, sink, *rules); }, options);
        if (!root.find("interrupted")) add_trace_counts(root, *counts);
      } else {
        // The program's print() output must not corrupt a JSON or CSV report on stdout.
        const bool report_on_stdout = a.output.empty() || a.output == "-";
        std::ostream* prints = report_on_stdout && a.format != "text" ? &std::cerr : nullptr;
        status = run_program_on(system, config, a.program, a.defines, a.max_events, options, root, prints);
      }
      progress.reset();
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      spdlog::info("simulated {} events ({} accesses) in {:.3f} s", run_control::counters().events.load(),
                   run_control::counters().accesses.load(), wall);
      write_output(a.output, render(root, a.format));
      if (const int sig = run_control::stop_signal()) {
        std::fflush(stdout);
        std::cerr << "pto-sim: stopped by " << (sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal")
                  << " after " << run_control::counters().events.load() << " events; the report covers them\n";
        // The producer thread may still be inside a read or a computation
        // that uses this frame's objects: end the process here, not by
        // unwinding them.
        std::cerr.flush();
        std::_Exit(std::ferror(stdout) ? 2 : 128 + sig);
      }
      return status;
    };
  });
}

}  // namespace ptosim::cli
