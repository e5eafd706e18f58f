#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include <sys/stat.h>

#include "models/tlm/system.h"
#include "sim/cli/commands.h"
#include "sim/common/error.h"
#include "sim/cli/insight_options.h"
#include "sim/cli/program_runner.h"
#include "sim/analysis/run_identity.h"
#include "sim/cli/tool_backends.h"
#include "sim/frontend/frontend.h"
#include "sim/config/config_override.h"
#include "sim/cli/progress_line.h"
#include "sim/common/memory_budget.h"
#include "sim/common/run_control.h"
#include "sim/report/render.h"
#include "sim/trace/trace_format.h"

namespace ptosim::cli {
namespace {

// What a program's tools turn on when the flags do not say (tools_turn_on).
constexpr uint64_t kToolEpochCycles = 10000;
constexpr uint32_t kToolHeatmapBins = 32;
constexpr uint64_t kToolHotSpots = 10;

struct RunArgs {
  std::string program, trace, config, format = "text", output;
  bool flush = false, check_data = false, progress = false, single_thread = false, two_threads = false, no_values = false;
  std::vector<std::string> defines, sets;
  uint64_t max_events = 0, stop_after = 0, stop_after_compute = 0;
  InsightArgs insight;
  bool sample = false, sample_values = false, warm_before_compute = false;
  uint64_t probe_period = 0;
  uint64_t sample_unit = 1000, sample_every = 50, sample_warmup = 2000, sample_seed = 1;
  std::string sample_warming = "functional";
};

void add_trace_counts(StatsNode& root, const TraceCounts& c) {
  StatsNode& t = root.child("trace", NodeKind::Trace);
  t.set("records", c.records).set("reads", c.reads).set("writes", c.writes).set("fetches", c.fetches);
  t.set("misc", c.misc).set("copybacks", c.copybacks).set("invalidates", c.invalidates);
  for (auto& [type, n] : c.skipped) t.set("skipped_" + type, n);
}

// A program that makes a MemoryVisualizer needs epochs and per-bin counts
// (its heatmap's columns and rows), one with a MemoryProfiler hot tiles
// (get_hot_spots): turned on here, before the run, unless the flags say
// otherwise (docs/LANGUAGE.md, "The article's tools").
void tools_turn_on(const std::string& program, InsightArgs& insight) {
  const std::set<std::string> used = pto_names_used(program);
  if (used.count("MemoryVisualizer")) {
    if (!insight.epoch && !insight.epoch_accesses) insight.epoch = kToolEpochCycles;
    if (!insight.heatmap_bins && !insight.hot_spots) insight.heatmap_bins = kToolHeatmapBins;
  } else if (used.count("MemoryProfiler") && !insight.hot_spots && !insight.heatmap_bins) {
    insight.hot_spots = kToolHotSpots;
  }
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
  add_output_option(*run, a.output, "Write the report here instead of stdout");
  run->add_flag("--progress", a.progress, "Show progress on stderr even when it is not a terminal");
  run->add_flag("--single-thread", a.single_thread,
                "Run the interpreter or trace reader on the simulation's own thread (a program's default; a trace "
                "from stdin or a FIFO otherwise keeps its reader's thread)");
  run->add_flag("--two-threads", a.two_threads,
                "Run the interpreter or trace reader on a thread of its own, overlapped with the simulation: more CPU and, "
                "measured, a slower run (docs/PERFORMANCE.md, \"One thread or two\"); the counts are the same")
      ->excludes("--single-thread");
  run->add_option("--stop-after", a.stop_after,
                   "Simulate about the first N events only and report them (marked interrupted, with events_done; "
                   "exit 0): a quick probe, as pto-sim tune takes")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 62));
  run->add_option("--stop-after-compute", a.stop_after_compute,
                  "As --stop-after, counting from the program's first compute event (a phase before it, such as "
                  "an im2col, runs whole)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 62))
      ->excludes("--stop-after");
  run->add_option("--probe-period", a.probe_period,
                  "With --stop-after-compute N: past its N events, run on until a statement that computed before "
                  "computes again after another one (a period: one iteration of every phase of a blocked loop), "
                  "at the first such return after M events (report key probe_periods): tune's probe")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 62))
      ->needs("--stop-after-compute");
  run->add_flag("--no-values", a.no_values,
                "Events only: pto.matmul and pto.ref.matmul leave their results' values unset and pto.check "
                "compares nothing (report key values_off): a cheaper probe, as pto-sim tune takes; the counts "
                "change only for a program whose loops or addresses depend on tensor values")
      ->excludes("--check-data");
  run->add_flag("--sample", a.sample,
                "Sampled run (SMARTS): measure a unit of --sample-unit accesses every --sample-every units, warm "
                "between them; cycles, seconds, misses and DRAM bytes become estimates with 95 % intervals "
                "(report key sample; docs/SAMPLING.md)");
  run->add_option("--sample-unit", a.sample_unit,
                  "Accesses (line requests of the first level) per measured unit (with --sample; default 1000)");
  run->add_option("--sample-every", a.sample_every, "Measure one unit in this many (with --sample; default 50)");
  run->add_option("--sample-warmup", a.sample_warmup,
                  "Accesses simulated in detail, unmeasured, before each unit (with --sample; default 2 x "
                  "--sample-unit, at most the gap between units)");
  run->add_option("--sample-seed", a.sample_seed, "Picks each unit's place in its period (with --sample; default 1)");
  run->add_flag("--sample-values", a.sample_values,
                "Compute tensor values in a sampled run too (it skips them, as --no-values does): for a program "
                "whose loops or addresses depend on them (docs/SAMPLING.md)");
  run->add_option("--sample-warming", a.sample_warming,
                  "Between units: functional (the caches' contents follow every access; the default) or none "
                  "(accesses dropped)");
  run->add_flag("--warm-before-compute", a.warm_before_compute,
                "The accesses before the program's first compute event only warm the caches' contents (no time, "
                "not counted; docs/SAMPLING.md): with --stop-after-compute, tune's probe of a prefix that is the "
                "same for every tile (conv2d's im2col)");
  add_program_options(*run, a.defines, a.max_events);
  add_set_option(*run, a.sets);
  add_insight_options(*run, a.insight);
  run->callback([&action, run] {
    action = [run] {
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
      refuse_insight_overwrites(a.insight, a.output, {a.program, a.trace, a.config});
      const std::vector<ConfigOverride> overrides = parse_overrides(a.sets);
      HwConfig config = load_config_or_default(a.config, overrides);
      spdlog::info("config {} ({}): {} cache level(s), {} memories, DRAM {} ({})", config.name,
                   a.config.empty() ? "built in" : a.config, config.caches.size(), config.memories.size(),
                   config.dram.name, config.dram.timing);
      for (const CacheConfig& c : config.caches)
        spdlog::debug("level {}: {} B, {} ways, {} B lines, {} cycles, {}", c.name, c.size, c.ways, c.line, c.latency,
                      c.replacement);
      spdlog::debug("clock {} Hz, {} core(s); --max-memory defaults to {} B", config.clock_hz, config.core.count,
                    memory_budget::default_limit());
      const bool stops = a.stop_after || a.stop_after_compute;
      if (stops && a.check_data)
        throw InputError({a.stop_after ? "--stop-after" : "--stop-after-compute", 0, 0}, "",
                         "cannot be combined with --check-data (it checks the whole run)");
      std::optional<SampleParams> sample;
      if (a.sample) {
        // Unless given, the warm-up is SMARTS's 2 x U, as far as it fits between units.
        const uint64_t warmup =
            run->count("--sample-warmup") || a.sample_every < 2 || a.sample_unit == 0
                ? a.sample_warmup
                : std::min(2 * a.sample_unit, (a.sample_every - 1) * a.sample_unit);
        sample = make_sample_params(a.sample_unit, a.sample_every, warmup, a.sample_seed, a.sample_warming);
        if (stops) throw InputError({"--sample", 0, 0}, "", "cannot be combined with --stop-after(-compute)");
      } else {
        for (const char* flag :
             {"--sample-unit", "--sample-every", "--sample-warmup", "--sample-seed", "--sample-warming", "--sample-values"})
          if (run->count(flag)) throw InputError({flag, 0, 0}, "", "needs --sample");
      }
      run_control::set_event_limit(a.stop_after ? a.stop_after : a.stop_after_compute, a.stop_after_compute != 0);
      run_control::set_period_probe(a.probe_period);
      if (!a.program.empty()) tools_turn_on(a.program, a.insight);
      System system(config, a.check_data);
      RunOptions options;
      options.flush = a.flush || a.check_data;
      options.source = a.trace.empty() ? a.program : a.trace;
      apply_insight_options(a.insight, options);
      if (!a.insight.hot_tile.empty()) parse_hot_tile(a.insight.hot_tile);  // a bad flag fails before the run
      if (a.insight.hot_spots && !a.trace.empty())
        throw InputError({"--hot-spots", 0, 0}, "", "needs a PROGRAM: a trace has no tensors");
      if (a.insight.heatmap_bins && !a.trace.empty())
        throw InputError({"--heatmap-bins", 0, 0}, "", "needs a PROGRAM: a trace has no tensors");
      if (a.no_values && !a.trace.empty())
        throw InputError({"--no-values", 0, 0}, "", "needs a PROGRAM: a trace has no values to skip");
      if (a.sample_values && !a.trace.empty())
        throw InputError({"--sample-values", 0, 0}, "", "needs a PROGRAM: a trace has no values to compute");
      options.data_in_stream = a.check_data && a.trace.empty();
      options.sample = sample ? &*sample : nullptr;
      if (a.warm_before_compute && !a.trace.empty())
        throw InputError({"--warm-before-compute", 0, 0}, "", "needs a PROGRAM: a trace has no compute events");
      if (a.warm_before_compute && a.sample)
        throw InputError({"--warm-before-compute", 0, 0}, "", "cannot be combined with --sample");
      options.warm_before_compute = a.warm_before_compute;
      StatsNode root;
      std::string source_hash;  // a trace's, taken while it was read
      std::vector<ProgramParam> params;
      int status = 0;
      std::vector<ProgramResult::Picture> pictures;
      const auto started = std::chrono::steady_clock::now();
      std::optional<ProgressLine> progress;
      progress.emplace(a.progress);
      if (!a.trace.empty()) {
        // A regular file is read on the simulation's thread: its reader never
        // waits for input, and parsing costs less than handing its events
        // to another thread would (docs/PERFORMANCE.md). stdin and FIFOs
        // keep the reader's thread, so that a stop request is seen while
        // the reader waits.
        struct stat st {};
        options.producer_same_thread =
            stops || (!a.two_threads && (a.single_thread || (a.trace != "-" && ::stat(a.trace.c_str(), &st) == 0 &&
                                                              S_ISREG(st.st_mode))));
        // Shared with the reader's thread, which an interrupted run lets go.
        auto counts = std::make_shared<TraceCounts>();
        auto rules = std::make_shared<const TraceRules>(trace_rules(config));
        root = system.run([counts, rules](EventSink& sink) { *counts = replay_trace(a.trace, sink, *rules); }, options);
        // An interrupted run let the reader's thread go: counts are its own.
        if (!root.find("interrupted")) {
          add_trace_counts(root, *counts);
          source_hash = counts->source_hash;
        }
      } else {
        // The program's print() output must not corrupt a JSON or CSV report on stdout.
        const bool report_on_stdout = a.output.empty() || a.output == "-";
        std::ostream* prints = report_on_stdout && a.format != "text" ? &std::cerr : nullptr;
        HotSpotArgs hot{a.insight.hot_spots, a.insight.hot_tile, a.insight.heatmap_bins};
        // One thread by default: handing events to another thread costs more
        // than the overlap saves, even for a lone run on an idle machine
        // (1.18x the wall time and twice the CPU on matmul_naive 256^3:
        // bench/threads_wall.py, docs/PERFORMANCE.md "One thread or two").
        // A probe (--stop-after) unwinds the interpreter where it stops rather
        // than leaving its thread running while the process ends.
        options.producer_same_thread = !a.two_threads || stops;
        // A sampled run's counts come from the events alone, and computing
        // the values of the ops that cost more than their events (pto.matmul's
        // products) was a fifth of attention's instructions
        // (docs/notes/2026-12-06-sampling-third.md): skipped unless asked for.
        const bool values_off = a.no_values || (a.sample && !a.sample_values);
        status = run_program_on(system, config, a.program, a.defines, a.max_events, options, root, prints, &params, hot,
                                &pictures, !values_off);
        if (values_off) root.set("values_off", true);
        if (a.warm_before_compute) root.set("prefix_warmed", true);
        if (a.probe_period) {
          const run_control::Periods p = run_control::periods();
          root.set("probe_periods", p.closed);
          root.set("probe_first_period_from", p.first_from);
          root.set("probe_first_period_to", p.first_to);
          root.set("probe_last_period_from", p.last_from);
          root.set("probe_last_period_to", p.last_to);
        }
        add_source_text(root, a.program);
        if (a.insight.leaks == "off") drop_leaks(root);
      }
      progress.reset();
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      spdlog::info("simulated {} events ({} accesses) in {:.3f} s", run_control::counters().events.load(),
                   run_control::counters().accesses.load(), wall);
      const int sig = run_control::stop_signal();
      // An interrupted run's timeline and epochs cover what was simulated, as its report does.
      write_insight_files(system, root, a.insight, sig ? options.source + " (interrupted)" : options.source, a.program);
      RunInputs in;
      in.source = options.source;
      in.source_hash = source_hash;
      in.config = &config;
      in.config_file = a.config;
      in.overrides = &overrides;
      in.params = a.trace.empty() && !sig ? &params : nullptr;
      add_run_identity(root, in);
      write_output(a.output, render(root, a.format));
      if (sig) {
        std::fflush(stdout);
        std::cerr << "pto-sim: stopped by " << (sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal")
                  << " after " << run_control::counters().events.load() << " events; the report covers them\n";
        // The producer thread may still be inside a read or a computation
        // that uses this frame's objects: end the process here, not by
        // unwinding them.
        std::cerr.flush();
        std::_Exit(std::ferror(stdout) ? 2 : 128 + sig);
      }
      // A MemoryVisualizer's pictures, from the complete report.
      if (const int drawn = draw_pictures(pictures, pictures.empty() ? "" : render(root, "json")); drawn) return drawn;
      return status ? status : leak_status(root, a.insight);
    };
  });
}

}  // namespace ptosim::cli
