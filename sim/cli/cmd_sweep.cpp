// `pto-sim sweep`: the cross product of program parameters, config overrides
// and configs, run in parallel processes into one CSV row per point; or
// emitted as jobs for GNU parallel / Slurm and merged back; or ranked.
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/analysis/sweep_plan.h"
#include "sim/analysis/sweep_runner.h"

namespace ptosim::cli {
namespace {

struct SweepArgs {
  std::string input, trace, output, json_dir, emit_jobs, merge, best;
  std::vector<std::string> defines, sets, configs;
  unsigned jobs = 0;
  double timeout = 0;
  uint64_t max_events = 0;
  bool flush = false, precheck = false, no_retry_failed = false;
  size_t top = 5;
};

bool is_sweep_file(const std::string& p) {
  auto ends = [&](const char* s) {
    const std::string e = s;
    return p.size() >= e.size() && p.compare(p.size() - e.size(), e.size(), e) == 0;
  };
  return ends(".yaml") || ends(".yml");
}

// Command-line axes replace sweep-file axes of the same name.
void put_axis(std::vector<SweepAxis>& axes, SweepAxis a) {
  for (SweepAxis& x : axes)
    if (x.name == a.name) {
      x = std::move(a);
      return;
    }
  axes.push_back(std::move(a));
}

int run(const SweepArgs& a, const CLI::App& cmd) {
  if (!a.merge.empty()) {
    if (a.output.empty()) throw InputError({"--merge", 0, 0}, "", "give -o FILE for the merged CSV");
    return merge_sweep(a.merge, a.output);
  }
  const bool have_input = !a.input.empty() || !a.trace.empty();
  if (!a.best.empty() && !have_input) {
    if (a.output.empty()) throw InputError({"--best", 0, 0}, "", "give -o FILE: the results CSV to rank");
    return print_best(a.output, a.best, a.top);
  }
  SweepSpec spec;
  if (!a.input.empty() && is_sweep_file(a.input)) load_sweep_file(a.input, spec);
  else if (!a.input.empty()) spec.program = a.input;
  if (!a.trace.empty()) spec.trace = a.trace, spec.program.clear();
  if (spec.program.empty() == spec.trace.empty())
    throw InputError({"pto-sim sweep", 0, 0}, "", "give a PROGRAM.pto, a sweep file (.yaml) with program: or trace:, or --trace FILE");
  std::vector<std::pair<std::string, std::string>> defines, sets;  // command-line axes: each name once
  for (const std::string& d : a.defines) {
    put_axis(spec.params, parse_axis(d, "-D"));
    defines.emplace_back(d.substr(0, d.find('=')), d);
  }
  for (const std::string& s : a.sets) {
    put_axis(spec.sets, parse_axis(s, "--set"));
    sets.emplace_back(s.substr(0, s.find('=')), s);
  }
  refuse_given_twice("-D", defines);
  refuse_given_twice("--set", sets);
  if (!a.configs.empty()) spec.configs.clear();
  for (const std::string& c : a.configs)
    for (const std::string& one : expand_values(c, {"--config", 0, 0}, "")) spec.configs.push_back(one);
  if (spec.configs.empty()) spec.configs.push_back("");
  if (cmd.count("-j")) spec.jobs = a.jobs;
  if (cmd.count("--timeout")) spec.timeout_s = a.timeout;
  if (cmd.count("--max-events")) spec.max_events = a.max_events;
  if (a.flush) spec.flush = true;
  if (a.precheck) spec.precheck = true;
  if (a.no_retry_failed) spec.retry_failed = false;
  if (!a.output.empty()) spec.output = a.output;
  if (!a.json_dir.empty()) spec.json_dir = a.json_dir;
  if (!a.emit_jobs.empty()) return emit_jobs(spec, a.emit_jobs);
  if (spec.output.empty() || spec.output == "-")
    throw InputError({"pto-sim sweep", 0, 0}, "", "give -o FILE.csv (rows are appended as points finish; the same -o resumes)");
  const int status = run_sweep(spec);
  if (!a.best.empty() && status != 130 && status != 2) {
    const int best = print_best(spec.output, a.best, a.top);
    (void)best;
  }
  return status;
}

}  // namespace

void add_sweep(CLI::App& app, Action& action) {
  static SweepArgs a;
  CLI::App* s = app.add_subcommand("sweep", "Run a program over the cross product of parameters, config overrides and configs");
  s->add_option("INPUT", a.input, "PTO program (.pto) or sweep file (.yaml)");
  s->add_option("--trace", a.trace, "Sweep configs over a trace instead of a program");
  s->add_option("-D", a.defines, "NAME=a,b,c or NAME=LO..HI[:+STEP|:xFACTOR] (repeatable)")->allow_extra_args(false);
  s->add_option("--set", a.sets, "dotted.config.path=a,b (repeatable), validated like the file")->allow_extra_args(false);
  s->add_option("--config", a.configs, "Configs to sweep: A.yaml,B.yaml (repeatable)")->allow_extra_args(false);
  s->add_option("-j,--jobs", a.jobs, "Points run at once (default: the core count)")->check(CLI::Range(1u, 4096u));
  add_output_option(*s, a.output, "Results CSV: one row per point, appended as points finish");
  s->add_option("--json-dir", a.json_dir, "Keep each point's JSON report here (p00001_CONFIG_NAME=VALUE....json, ...)");
  s->add_option("--timeout", a.timeout, "Seconds a point may run before it is killed (default: no limit)")
      ->check(CLI::Range(0.001, 1e9));
  s->add_option("--max-events", a.max_events, "Passed to each run")->check(CLI::Range(uint64_t(1), uint64_t(1) << 62));
  s->add_flag("--flush", a.flush, "Passed to each run");
  s->add_flag("--precheck", a.precheck,
              "Run each point functionally first (pto-sim check): infeasible points are marked without simulating");
  s->add_flag("--no-retry-failed", a.no_retry_failed,
              "On resume, keep the rows of failed points instead of running them again");
  s->add_option("--emit-jobs", a.emit_jobs, "Write one shell command per point to FILE instead of running them");
  s->add_option("--merge", a.merge, "Collect the results of emitted jobs from DIR into -o");
  s->add_option("--best", a.best, "Print the best points by a column (KEY, KEY:min or KEY:max)");
  s->add_option("--top", a.top, "How many points --best prints (default 5)")->check(CLI::Range(size_t(1), size_t(1) << 30));
  s->callback([&action, s] { action = [s] { return run(a, *s); }; });
}

}  // namespace ptosim::cli
