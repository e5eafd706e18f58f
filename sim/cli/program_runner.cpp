#include "sim/cli/program_runner.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/cli/tool_backends.h"
#include "sim/common/units.h"
#include "sim/frontend/frontend.h"
#include "sim/report/hot_spots.h"
#include "sim/report/render.h"

namespace ptosim::cli {
namespace {

// --max-memory, --max-value-memory: one per process, whichever subcommand was given it.
uint64_t g_max_memory = 0, g_max_value_memory = 0;

// An integer literal the program would read (strtoll, any base) that does
// not fit its 64-bit integers: the program would take it for a real and fail
// at a line that is not the mistake.
bool integer_out_of_range(const std::string& v) {
  if (v.empty()) return false;
  size_t i = v[0] == '-' || v[0] == '+' ? 1 : 0;
  const bool hex = v.compare(i, 2, "0x") == 0 || v.compare(i, 2, "0X") == 0;
  if (hex) i += 2;
  if (i >= v.size()) return false;
  for (; i < v.size(); ++i)
    if (!(hex ? std::isxdigit((unsigned char)v[i]) : std::isdigit((unsigned char)v[i]))) return false;
  errno = 0;
  std::strtoll(v.c_str(), nullptr, 0);
  return errno == ERANGE;
}

ProgramOptions program_options(const std::vector<std::string>& defines, uint64_t max_events) {
  ProgramOptions o;
  o.max_memory = g_max_memory;
  o.max_value_memory = g_max_value_memory;
  std::vector<std::pair<std::string, std::string>> given;
  for (auto& d : defines) {
    const size_t eq = d.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError({"-D", 0, 0}, d, "expected NAME=VALUE");
    o.defines.emplace_back(d.substr(0, eq), d.substr(eq + 1));
    if (integer_out_of_range(o.defines.back().second))
      throw InputError({"-D", 0, 0}, d, "the integer is out of range (-2^63 .. 2^63-1)");
    given.emplace_back(o.defines.back().first, d);
  }
  refuse_given_twice("-D", given);
  if (max_events) o.max_events = max_events;
  return o;
}

void add_program_node(StatsNode& root, const ProgramResult& r, const HwConfig& config) {
  StatsNode& p = root.child("program", NodeKind::Program);
  uint64_t passed = 0, failed = 0;
  for (auto& c : r.checks) (c.passed ? passed : failed)++;
  p.set("checks_passed", passed).set("checks_failed", failed).set("events", r.events);
  StatsNode& checks = p.child("checks", NodeKind::Table);
  for (auto& c : r.checks) {
    StatsNode& row = checks.child(c.pos.file + ":" + std::to_string(c.pos.line), NodeKind::Row);
    row.set("passed", c.passed);
    if (!c.passed) row.set("message", c.message);
  }
  StatsNode& outputs = p.child("outputs", NodeKind::Table);
  for (auto& o : r.outputs) {
    char hash[32];
    std::snprintf(hash, sizeof hash, "%016llx", (unsigned long long)o.fnv1a);
    outputs.child(o.tensor, NodeKind::Row).set("dtype", o.dtype).set("sum", o.sum).set("abs_sum", o.abs_sum).set("fnv1a", std::string(hash));
  }
  StatsNode& fp = p.child("footprint", NodeKind::Table);
  std::vector<std::string> warnings;
  for (auto& [space, f] : r.footprint) {
    StatsNode& row = fp.child(space, NodeKind::Row);
    row.set("peak_bytes", f.peak_bytes).set("capacity", f.capacity);
    // A space a cache level serves (`spaces: {shared: L1D}`) has no capacity
    // of its own: the level's size is advisory.
    auto target = config.spaces.find(space);
    const CacheConfig* level = space == "global" || target == config.spaces.end() ? nullptr : config.cache(target->second);
    if (level && f.peak_bytes > level->size)
      warnings.push_back("space '" + space + "' holds up to " + std::to_string(f.peak_bytes) + " bytes, more than " +
                         level->name + " (" + std::to_string(level->size) + " bytes) that serves it");
  }
  if (!warnings.empty()) {
    StatsNode& w = p.child("warnings", NodeKind::Table);
    for (size_t i = 0; i < warnings.size(); ++i) w.child("w" + std::to_string(i + 1), NodeKind::Row).set("message", warnings[i]);
  }
  if (!r.leaks.empty()) {
    StatsNode& t = p.child("leaks", NodeKind::Table);
    for (auto& l : r.leaks)
      t.child(InputError::format(l.pos, "", "").substr(0, InputError::format(l.pos, "", "").size() - 2), NodeKind::Row)
          .set("tensor", l.tensor).set("space", l.space).set("bytes", l.bytes)
          .set("scope", l.scope.empty() ? std::string("the top level") : l.scope);
  }
  if (!r.reuse.empty()) {
    StatsNode& t = p.child("reuse", NodeKind::Table);
    for (auto& u : r.reuse) {
      StatsNode& row = t.child(u.tensor, NodeKind::Row);
      row.set("scope", u.scope).set("hits", u.hits).set("fallbacks", u.fallbacks).set("fallback_bytes", u.fallback_bytes);
      if (!u.why.empty()) row.set("why", u.why);
    }
  }
  if (!r.auto_reuse.empty()) {
    StatsNode& t = p.child("auto_reuse", NodeKind::Table);
    for (auto& a : r.auto_reuse)
      t.child(a.pos.file + ":" + std::to_string(a.pos.line), NodeKind::Row)
          .set("peak_bytes_with", a.peak_with).set("peak_bytes_without", a.peak_without)
          .set("distinct_bytes_with", a.distinct_with).set("distinct_bytes_without", a.distinct_without);
  }
}

int report_checks(const ProgramResult& r) {
  for (auto& c : r.checks)
    if (!c.passed) {
      std::cerr << InputError::format(c.pos, "", "check failed: " + c.message) << "\n";
      return 1;
    }
  return 0;
}

}  // namespace

void add_program_options(CLI::App& cmd, std::vector<std::string>& defines, uint64_t& max_events) {
  cmd.add_option("-D", defines, "Override a program parameter: -D NAME=VALUE")->allow_extra_args(false);
  cmd.add_option("--max-events", max_events, "Stop a program that emits more events than this")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 62));
  auto bytes_option = [&cmd](const char* name, uint64_t& into, const char* help) {
    cmd.add_option_function<std::string>(
        name,
        [name, &into](const std::string& s) {
          try {
            into = units::parse_bytes(s);
          } catch (const std::invalid_argument& e) {
            throw CLI::ValidationError(name, e.what());
          }
          if (into == 0) throw CLI::ValidationError(name, "must be positive");
        },
        help);
  };
  bytes_option("--max-memory", g_max_memory,
               "Stop a program whose lists, strings and tensors need more (e.g. '2 GiB'; default: a quarter of the "
               "machine's memory)");
  bytes_option("--max-value-memory", g_max_value_memory,
               "Stop a program whose lists, strings and dicts alone need more (default: 256 MiB; docs/LANGUAGE.md)");
}

std::vector<int64_t> parse_hot_tile(const std::string& s) {
  std::vector<int64_t> dims;
  size_t at = 0;
  for (;;) {
    const size_t x = s.find('x', at);
    const std::string part = s.substr(at, x == std::string::npos ? std::string::npos : x - at);
    char* end = nullptr;
    const long long v = part.empty() ? 0 : std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || v <= 0 || v > (1ll << 30) || dims.size() >= 8)
      throw InputError({"--hot-tile", 0, 0}, s, "expected sizes like 32x32 (positive integers joined by x)");
    dims.push_back(v);
    if (x == std::string::npos) return dims;
    at = x + 1;
  }
}

int run_program_on(System& system, const HwConfig& config, const std::string& program,
                   const std::vector<std::string>& defines, uint64_t max_events, const RunOptions& options,
                   StatsNode& root, std::ostream* print_stream, std::vector<ProgramParam>* params,
                   const HotSpotArgs& hot, std::vector<ProgramResult::Picture>* pictures, bool values) {
  // Shared with the interpreter's thread, which an interrupted run lets go
  // (it may still be running when this returns).
  struct Job {
    ProgramOptions options;
    ProgramResult result;
    std::string program;
  };
  auto job = std::make_shared<Job>();
  job->options = program_options(defines, max_events);
  job->options.print_stream = print_stream;
  job->options.op_marks = options.attribution.timeline;
  job->options.heatmap_bins = hot.bins;
  if (hot.count) {
    job->options.hot_spots = true;
    if (!hot.tile.empty()) job->options.hot_tile = parse_hot_tile(hot.tile);
  }
  job->options.values = values;
  job->options.check_data = options.data_in_stream;  // the program sends its bytes to a System that checks them
  job->program = program;
  job->options.cache_model = make_cache_side_model;
  System* sys = &system;
  root = system.run(
      [job, &config, sys](EventSink& sink) {
        // pto.MemoryProfiler: the sink hands over what it holds and returns
        // once the core has simulated it (the pipe's writer waits for the
        // other thread; one thread's batch delivers it); the model is then still.
        EventSink* s = &sink;
        job->options.figures = [s, sys, &config] {
          if (!s->settle()) throw InputError("pto.MemoryProfiler: this run's events reach no model");
          return figures_of(sys->snapshot(), config);
        };
        job->result = run_program(job->program, config, job->options, &sink);
      },
      options);
  if (root.find("interrupted")) return 0;  // the program did not finish: no checks, no outputs
  const ProgramResult& result = job->result;
  add_program_node(root, result, config);
  if (params) *params = result.params;
  if (pictures) *pictures = result.pictures;
  if (hot.count) add_hot_spots(root, result.tile_tensor, result.tile_shape, result.tensor_order, hot.count);
  if (hot.bins) add_heatmap_bins(root, result.tile_tensor, result.tile_bin, result.tensor_bytes, result.tensor_order,
                                 hot.bins);
  return report_checks(result);
}

int trace_program(const HwConfig& config, const std::string& program, const std::vector<std::string>& defines,
                  uint64_t max_events, EventSink& sink) {
  ProgramOptions o = program_options(defines, max_events);
  o.cache_model = make_cache_side_model;
  ProgramResult result = run_program(program, config, o, &sink);
  sink.finish();
  return report_checks(result);
}

void add_check(CLI::App& app, Action& action) {
  static std::string program, config;
  static std::vector<std::string> defines, sets;
  static uint64_t max_events = 0;
  CLI::App* check = app.add_subcommand("check", "Run a program functionally (no timing) and verify its pto.check calls");
  check->add_option("PROGRAM", program, "PTO kernel program (.pto)")->required();
  check->add_option("--config", config, "YAML hardware config (default: built in)");
  add_program_options(*check, defines, max_events);
  add_set_option(*check, sets);
  check->callback([&action] {
    action = [] {
      HwConfig cfg = load_config_or_default(config, parse_overrides(sets));
      ProgramOptions o = program_options(defines, max_events);
      o.cache_model = make_cache_side_model;
      ProgramResult r = run_program(program, cfg, o, nullptr);
      uint64_t passed = 0;
      for (auto& c : r.checks) passed += c.passed;
      const int status = report_checks(r);
      std::cout << passed << " of " << r.checks.size() << " checks passed\n";
      for (auto& o : r.outputs) std::cout << "output " << o.tensor << ": sum " << o.sum << "\n";
      return status;
    };
  });
}

}  // namespace ptosim::cli
