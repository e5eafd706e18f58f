// `pto-sim curves`: miss counts (and 3C) of one cache level at every size x
// associativity of a range, LRU, from one pass over the stream that level
// sees, instead of one `run` per point (docs/CACHES.md, "Miss curves").
// The stream comes from the same readers `run` uses (the program's
// interpreter, or a din / native trace) without SystemC and without time:
// the levels above the measured one are the exact cache logic, and the
// measured one is a CurvePort feeding the one-pass model.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "models/cache/cache_level.h"
#include "models/cache/curves/curve_port.h"
#include "models/cache/curves/sampled_curves.h"
#include "models/cache/hierarchy.h"
#include "sim/cli/commands.h"
#include "sim/cli/curves_plan.h"
#include "sim/cli/program_runner.h"
#include "sim/analysis/run_identity.h"
#include "sim/common/error.h"
#include "sim/common/units.h"
#include "sim/common/version.h"
#include "sim/trace/trace_format.h"

namespace ptosim::cli {
namespace {

struct CurvesArgs {
  std::string program, trace, config, format = "text", output, level, sizes, ways = "1,2,4,8,16,full";
  std::vector<std::string> defines, sets;
  uint64_t max_events = 0;
  double sample = 0;
  bool flush = false;
};

// The exact counter: MissCurves over every point.
struct ExactCounter final : curves::LineCounter {
  explicit ExactCounter(const std::vector<curves::Geometry>& g) : curves(g) {}
  void line(uint64_t l, bool write) override { curves.access(l, write); }
  void invalidate_all() override { curves.invalidate_all(); }
  curves::MissCurves curves;
};

// The fixed levels above the measured one, wired as System wires them, the
// last sending to the measured level's port.
struct UpperLevels {
  std::vector<std::unique_ptr<CacheLevel>> levels;
  UpperLevels(const HwConfig& config, const CurvesPlan& plan, MemPort& port) {
    std::vector<CacheLevel*> raw;
    for (size_t j = 0; j < plan.level; ++j) {
      levels.push_back(make_cache_level(*config.cache(plan.chain[j])));
      raw.push_back(levels.back().get());
    }
    link_levels_above(raw);
    for (size_t j = 0; j < raw.size(); ++j)
      raw[j]->connect_below(j + 1 < raw.size() ? static_cast<MemPort*>(raw[j + 1]) : &port);
  }
};

// Routes the core's accesses as CoreModule does: a space's first module; a
// space served below the measured level, or by a memory, never reaches it.
class CurvesSink final : public EventSink {
 public:
  CurvesSink(const HwConfig& config, const CurvesPlan& plan, UpperLevels& upper, MemPort& port) {
    for (const std::string& space : config.space_names()) {
      const std::string& target = config.spaces.at(space);
      MemPort* to = nullptr;
      for (size_t j = 0; j <= plan.level; ++j)
        if (plan.chain[j] == target) to = j < plan.level ? static_cast<MemPort*>(upper.levels[j].get()) : &port;
      routes_.push_back(to);
    }
  }
  void access(const Access& a) override {
    MemPort* to = a.space < routes_.size() ? routes_[a.space] : nullptr;
    if (!to) return;
    if (is_control(a.kind)) return to->control(a.kind, a.addr, a.bytes, 0);
    to->access(MemRequest{a.addr, a.bytes, (uint8_t(a.kind) & 1) != 0, a.tensor, a.region}, 0);
  }
  void compute(const Compute&) override {}

 private:
  std::vector<MemPort*> routes_;
};

struct Row {
  CurvePointSpec spec;
  curves::Counts c;
  double error = -1;  // --sample: the estimated standard error of the miss ratio
  bool is_config = false;
};

double miss_ratio(const curves::Counts& c) { return c.accesses() ? double(c.misses()) / double(c.accesses()) : 0; }
std::string ways_name(const Row& r) { return r.spec.full ? "full" : std::to_string(r.spec.geometry.ways); }

// A cache level of the config on the measured path (plot.py marks each
// one's size on the curve: where the config's own levels sit on it).
struct LevelMark {
  std::string name;
  uint64_t size = 0;
  uint32_t ways = 0;
};

struct Result {
  std::string source, config_name, level;
  std::vector<LevelMark> config_levels;  // L1 first
  uint32_t line = 0;
  uint64_t config_size = 0;
  uint32_t config_ways = 0;
  bool exact = true;
  double sample = 0;
  uint64_t sampled = 0;
  std::vector<std::string> notes;
  std::vector<Row> rows;
};

std::string render_text(const Result& r) {
  std::ostringstream o;
  o << "miss curves of " << r.level << " (" << r.line << " B lines, LRU, write-allocate) for " << r.source
    << " on config " << r.config_name << ": " << r.rows.size() << " points in one pass\n";
  if (r.sample > 0)
    o << "sampled (SHARDS): rate " << r.sample << ", " << r.sampled
      << " references sampled; counts are estimates, `error` is the estimated standard error of the miss ratio\n";
  else if (r.exact)
    o << "exact: each row equals the counts of `pto-sim run` with that size and associativity\n";
  for (const std::string& n : r.notes) o << "note: " << n << "\n";
  char buf[256];
  std::snprintf(buf, sizeof buf, "%12s %6s %7s %12s %12s %9s %12s %12s %12s%s\n", "size", "ways", "sets", "accesses",
                "misses", "miss %", "compulsory", "capacity", "conflict", r.sample > 0 ? "    error %" : "");
  o << buf;
  for (const Row& w : r.rows) {
    std::snprintf(buf, sizeof buf, "%12s %6s %7llu %12llu %12llu %9.4f %12llu %12llu %12llu", units::format_bytes(w.spec.size).c_str(),
                  ways_name(w).c_str(), (unsigned long long)w.spec.geometry.sets, (unsigned long long)w.c.accesses(),
                  (unsigned long long)w.c.misses(), 100 * miss_ratio(w.c), (unsigned long long)w.c.compulsory,
                  (unsigned long long)w.c.capacity, (unsigned long long)w.c.conflict);
    o << buf;
    if (w.error >= 0) {
      std::snprintf(buf, sizeof buf, " %11.4f", 100 * w.error);
      o << buf;
    }
    o << (w.is_config ? "  <- config" : "") << "\n";
  }
  return o.str();
}

std::string render_csv(const Result& r) {
  std::ostringstream o;
  o << "level,line,size,ways,sets,accesses,reads,writes,misses,read_misses,write_misses,compulsory,capacity,conflict,"
       "miss_ratio,config_point,exact,sample_rate,miss_ratio_error,config_levels\n";
  // Every row repeats it, so that each row of the file stands on its own.
  std::string levels;
  for (const LevelMark& l : r.config_levels)
    levels += (levels.empty() ? "" : ";") + l.name + '=' + std::to_string(l.size) + '/' + std::to_string(l.ways);
  for (const Row& w : r.rows) {
    char ratio[32], err[32];
    std::snprintf(ratio, sizeof ratio, "%.9g", miss_ratio(w.c));
    std::snprintf(err, sizeof err, "%.9g", w.error);
    o << r.level << ',' << r.line << ',' << w.spec.size << ',' << ways_name(w) << ',' << w.spec.geometry.sets << ','
      << w.c.accesses() << ',' << w.c.reads << ',' << w.c.writes << ',' << w.c.misses() << ',' << w.c.read_misses
      << ',' << w.c.write_misses << ',' << w.c.compulsory << ',' << w.c.capacity << ',' << w.c.conflict << ','
      << ratio << ',' << (w.is_config ? 1 : 0) << ',' << (r.exact && r.sample <= 0 ? 1 : 0) << ','
      << (r.sample > 0 ? r.sample : 1) << ',' << (w.error >= 0 ? err : "") << ',' << levels << '\n';
  }
  return o.str();
}

std::string render_json(const Result& r) {
  nlohmann::ordered_json j;
  j["pto_sim_version"] = kPtoSimVersion;
  j["command"] = command_line();
  j["source"] = r.source;
  j["config"] = r.config_name;
  j["level"] = r.level;
  j["line"] = r.line;
  // The algorithm, not a config's choice: the one pass keeps LRU stacks
  // (models/cache/curves/fa_stack.h, set_stacks.h), so the curves are LRU's
  // whatever policies are registered; readers of the JSON key it so.
  j["replacement"] = "lru";
  j["config_size"] = r.config_size;
  j["config_ways"] = r.config_ways;
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (const LevelMark& l : r.config_levels) levels.push_back({{"name", l.name}, {"size", l.size}, {"ways", l.ways}});
  j["config_levels"] = levels;
  j["exact"] = r.exact && r.sample <= 0;
  j["sample_rate"] = r.sample > 0 ? r.sample : 1.0;
  if (r.sample > 0) j["sampled_references"] = r.sampled;
  j["notes"] = r.notes;
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const Row& w : r.rows) {
    nlohmann::ordered_json p;
    p["size"] = w.spec.size;
    p["ways"] = w.spec.full ? nlohmann::ordered_json("full") : nlohmann::ordered_json(w.spec.geometry.ways);
    p["sets"] = w.spec.geometry.sets;
    p["accesses"] = w.c.accesses();
    p["reads"] = w.c.reads;
    p["writes"] = w.c.writes;
    p["misses"] = w.c.misses();
    p["read_misses"] = w.c.read_misses;
    p["write_misses"] = w.c.write_misses;
    p["compulsory"] = w.c.compulsory;
    p["capacity"] = w.c.capacity;
    p["conflict"] = w.c.conflict;
    p["miss_ratio"] = miss_ratio(w.c);
    if (w.error >= 0) p["miss_ratio_error"] = w.error;
    p["config_point"] = w.is_config;
    points.push_back(p);
  }
  j["points"] = points;
  return j.dump(2) + "\n";
}

// Feeds the stream into `counter`; returns the program's status (1: a check failed).
int feed(const CurvesArgs& a, const HwConfig& config, const CurvesPlan& plan, curves::LineCounter& counter) {
  curves::CurvePort port(plan.cache->line, counter);
  UpperLevels upper(config, plan, port);
  CurvesSink sink(config, plan, upper, port);
  int status = 0;
  try {
    if (!a.trace.empty()) replay_trace(a.trace, sink, trace_rules(config));
    else status = trace_program(config, a.program, a.defines, a.max_events, sink);
  } catch (const curves::Unsupported& e) {
    throw InputError({a.trace.empty() ? a.program : a.trace, 0, 0}, "", e.what());
  }
  if (a.flush)
    for (auto& l : upper.levels) l->flush();
  return status;
}

std::vector<curves::Geometry> geometries(const CurvesPlan& plan) {
  std::vector<curves::Geometry> g;
  for (const CurvePointSpec& p : plan.points) g.push_back(p.geometry);
  return g;
}

Result run_curves(const CurvesArgs& a, const HwConfig& config, const CurvesPlan& plan, int* status) {
  Result r;
  r.rows.resize(plan.points.size());
  for (size_t i = 0; i < plan.points.size(); ++i) {
    r.rows[i].spec = plan.points[i];
    r.rows[i].is_config = plan.points[i].size == plan.cache->size &&
                          plan.points[i].geometry.sets == plan.cache->sets();
  }
  if (a.sample > 0 && a.sample < 1) {
    curves::SampledCurves counter(geometries(plan), a.sample);
    *status = feed(a, config, plan, counter);
    const std::vector<curves::SampledCounts> c = counter.counts();
    for (size_t i = 0; i < c.size(); ++i) r.rows[i].c = c[i].counts, r.rows[i].error = c[i].error;
    r.sample = a.sample;
    r.sampled = counter.sampled_references();
  } else {
    ExactCounter counter(geometries(plan));
    *status = feed(a, config, plan, counter);
    const std::vector<curves::Counts> c = counter.curves.counts();
    for (size_t i = 0; i < c.size(); ++i) r.rows[i].c = c[i];
  }
  return r;
}

int curves_action(const CurvesArgs& a) {
  if (a.program.empty() == a.trace.empty()) {
    std::cerr << "pto-sim curves: give either a PROGRAM or --trace FILE\n";
    return 2;
  }
  if (!a.trace.empty() && (!a.defines.empty() || a.max_events))
    throw InputError({a.defines.empty() ? "--max-events" : "-D", 0, 0}, "", "applies to a PROGRAM, not to a --trace");
  refuse_overwriting_inputs(a.output, {a.program, a.trace, a.config});
  const std::vector<ConfigOverride> overrides = parse_overrides(a.sets);
  const HwConfig config = load_config_or_default(a.config, overrides);
  const CurvesPlan plan = plan_curves(config, a.level, a.sizes, a.ways);
  int status = 0;
  Result r = run_curves(a, config, plan, &status);
  r.source = a.trace.empty() ? a.program : a.trace;
  r.config_name = config.name;
  r.level = plan.cache->name;
  r.line = plan.cache->line;
  r.config_size = plan.cache->size;
  r.config_ways = plan.cache->ways;
  for (const std::string& name : plan.chain) {
    const CacheConfig& c = *config.cache(name);
    r.config_levels.push_back({c.name, c.size, c.ways});
  }
  r.exact = plan.exact;
  r.notes = plan.notes;
  write_output(a.output, a.format == "json" ? render_json(r) : a.format == "csv" ? render_csv(r) : render_text(r));
  return status;
}

}  // namespace

void add_curves(CLI::App& app, Action& action) {
  static CurvesArgs a;
  CLI::App* cmd = app.add_subcommand(
      "curves", "Misses and 3C of one cache level at every size x associativity (LRU), in one pass");
  cmd->add_option("PROGRAM", a.program, "PTO kernel program (.pto)");
  cmd->add_option("--trace", a.trace, "A din or native trace instead ('-' = stdin)");
  cmd->add_option("--config", a.config, "YAML hardware config (default: built in)");
  cmd->add_option("--level", a.level, "The cache level to measure (default: the first)");
  cmd->add_option("--sizes", a.sizes, "Sizes: 4KiB..1MiB:x2, 16KiB,48KiB, 1KiB..8KiB:+1KiB (default: the level's /8 .. x8)");
  cmd->add_option("--ways", a.ways, "Associativities: 1,2,4,8,16,full (default), 1..16:x2");
  cmd->add_option("--sample", a.sample, "SHARDS spatial sampling at this rate (0 < RATE <= 1): estimates with an error")
      ->check(CLI::Range(1e-6, 1.0));
  cmd->add_flag("--flush", a.flush, "Write back the levels above at the end, as run --flush");
  cmd->add_option("--format", a.format, "Output format")->check(CLI::IsMember({"text", "json", "csv"}));
  add_output_option(*cmd, a.output, "Write the curves here instead of stdout");
  add_program_options(*cmd, a.defines, a.max_events);
  add_set_option(*cmd, a.sets);
  cmd->callback([&action] { action = [] { return curves_action(a); }; });
}

}  // namespace ptosim::cli
