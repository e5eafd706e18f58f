// `pto-sim tune`: the best tile of a program without simulating every
// candidate to the end. Every point of the -D cross product gets a short
// probe (`run --stop-after-compute`): a tile that does not fit fails at its first
// allocation (pruned: capacity), the others are ranked by their objective
// per flop after the cold start; only the points within --margin of the best
// estimate (at most --keep) are simulated in full. Probes and finalists run
// as sweeps (sim/analysis/sweep_runner.cpp): parallel, single-threaded each.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "sim/cli/commands.h"
#include "sim/analysis/report_flatten.h"
#include "sim/analysis/sweep_plan.h"
#include "sim/analysis/sweep_rows.h"
#include "sim/analysis/sweep_runner.h"
#include "sim/cli/tune_bound.h"
#include "sim/cli/tune_cpu.h"
#include "sim/cli/tune_estimate.h"
#include "sim/cli/tune_length.h"
#include "sim/common/read_file.h"
#include "sim/config/config_override.h"

namespace ptosim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct TuneArgs {
  std::string program, config, objective = "seconds", output, search = "axes", bound_matmul;
  std::vector<std::string> defines, sets;
  unsigned jobs = 0;
  uint64_t probe_events = 16000;
  uint64_t whole_below = 0;  // 0: 12 probes of probe_events
  size_t keep = 1;
  double margin = 0.03;
  bool warm_prefix = true, finalist_values = false;
};

struct Candidate {
  const SweepPoint* point = nullptr;
  std::string status;       // the probe's row status ("ok", "infeasible", ...)
  std::string error;        // its error line
  ProbeEstimate estimate;
  bool simulated = false;   // full objective known (a finished probe, or a finalist)
  double objective = 0;     // the full run's, when simulated
  std::string pruned;       // why it was not simulated in full
  std::string reason;       // the kind of `pruned`, for the table of pruned points
  bool probed = false;
  double bound = 0;         // a lower bound on its objective (0: none known)
};

std::string params_of(const SweepPoint& p) {
  std::string s;
  for (auto& [n, v] : p.params) s += (s.empty() ? "" : " ") + n + "=" + v;
  return s.empty() ? "(defaults)" : s;
}

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

std::map<std::string, Row> rows_by_key(const std::string& csv) {
  std::map<std::string, Row> out;
  auto rows = read_csv(csv);
  for (size_t i = 1; i < rows.size(); ++i) {
    Row r;
    for (size_t c = 0; c < rows[0].size() && c < rows[i].size(); ++c) r[rows[0][c]] = rows[i][c];
    out[r["point"]] = r;
  }
  return out;
}

json load_report(const std::string& path) { return parse_json(read_input_file(path, "report"), path); }

// A point's hardware: the sweep's load of it (sweep_rows.h), once per tune.
const HwConfig& config_of(const SweepPoint& p) { return point_config(p); }

// --bound-matmul M,N,K[,BYTES]: each a number or a -D parameter, resolved
// at a point. Exit 2 when a name is no -D parameter (tune does not know a
// program's defaults) or a value no positive number.
MatmulShape matmul_of(const std::string& spec, const SweepPoint& p) {
  MatmulShape mm;
  if (spec.empty()) return mm;
  std::vector<double> v;
  std::stringstream in(spec);
  for (std::string item; std::getline(in, item, ',');) {
    std::string text = item;
    for (auto& [n, val] : p.params)
      if (n == item) text = val;
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    if (text.empty() || *end || !(x > 0))
      throw InputError({"--bound-matmul", 0, 0}, item, "not a positive number or a -D parameter of the tune");
    v.push_back(x);
  }
  if (v.size() != 3 && v.size() != 4)
    throw InputError({"--bound-matmul", 0, 0}, spec, "give M,N,K or M,N,K,ELEMENT_BYTES");
  mm.m = v[0], mm.n = v[1], mm.k = v[2];
  if (v.size() == 4) mm.element_bytes = v[3];
  return mm;
}

// Whether every point's config lets a probe warm the prefix before the first
// compute instead of simulating it (run --warm-before-compute: one core, no
// sub-blocked level). A config that does not load is the sweep's to report.
bool prefix_can_warm(const std::vector<SweepPoint>& points) {
  std::set<std::vector<std::pair<std::string, std::string>>> seen;  // config and --set values, checked once each
  for (const SweepPoint& p : points) {
    auto combo = p.sets;
    combo.emplace_back("", p.config);
    if (!seen.insert(combo).second) continue;
    try {
      const HwConfig& c = config_of(p);
      if (c.core.count > 1) return false;
      for (const CacheConfig& l : c.caches)
        if (l.has_subblocks()) return false;
    } catch (const InputError&) {
    }
  }
  return true;
}

int run(const TuneArgs& a) {
  const TuneObjective objective = a.objective == "seconds" ? TuneObjective::Seconds : TuneObjective::DramBytes;
  if (a.defines.empty())
    throw InputError({"pto-sim tune", 0, 0}, "", "give the choices to tune: -D TM=16..256:x2 -D TN=... (program parameters)");
  refuse_overwriting_inputs(a.output, {a.program, a.config});
  SweepSpec spec;
  spec.program = a.program;
  std::vector<std::pair<std::string, std::string>> given;
  for (const std::string& d : a.defines) {
    spec.params.push_back(parse_axis(d, "-D"));
    given.emplace_back(spec.params.back().name, d);
  }
  refuse_given_twice("-D", given);
  for (const std::string& s : a.sets) spec.sets.push_back(parse_axis(s, "--set"));
  spec.configs.push_back(a.config);
  spec.jobs = a.jobs;

  std::string templ = (fs::temp_directory_path() / "pto-sim-tune-XXXXXX").string();
  if (!mkdtemp(templ.data()))
    throw InputError(std::string("pto-sim tune: cannot create a temporary directory: ") + std::strerror(errno));
  struct RemoveDir {
    std::string d;
    ~RemoveDir() {
      std::error_code e;
      fs::remove_all(d, e);
    }
  } remove_dir{templ};

  TuneCpu cpu;  // where tune's CPU goes, said on stderr at the end
  std::vector<SweepPoint> points = expand_points(spec);
  const SweepTable table = plan_table(spec, points);  // bad -D names, a config that does not load: exit 2 here
  name_points(table, points);
  for (const SweepPoint& p : points) matmul_of(a.bound_matmul, p);  // exit 2 before any probe

  // Every point's probe: its first --probe-events events of compute, in 4
  // epochs (and whole periods of a phased program).
  std::vector<Candidate> cands;
  std::map<std::string, size_t> index;  // key -> cands
  for (const SweepPoint& p : points)
    if (index.emplace(p.key, cands.size()).second) {
      cands.emplace_back();
      cands.back().point = &p;
    }
  // The phase before the first compute (conv2d's im2col) is the same for
  // every tile: its accesses only warm the probe's caches (no timing), which
  // costs a fraction of simulating them (docs/PERFORMANCE.md, "Tuning").
  const bool warm = a.warm_prefix && prefix_can_warm(points);
  // A short program is run whole instead of probed: its probe would be a
  // large part of the run, and a short run's prefix does not rank its tiles
  // (matmul 256³ and 512³ on the default config picked tiles 12 % and 10 %
  // slower than the best; 512³'s probes of twice the length no better). Its
  // length is the search's first point's (the middle of every axis),
  // counted without simulating it. Twelve probes (192k events): 512³'s
  // 124k run whole, the benchmark's conv2d (595k, ranked right by its
  // probes) and matmul 1024³ (975k) are probed; a whole search costs
  // about a fifth of a sweep.
  // The first probes decide it: a probe that got past the limit (conv2d's
  // im2col alone is 450k events) says the program is long, and its count
  // would cost tune's process ~0.1 s; otherwise the first point is counted,
  // and a short program's first points are run again, whole.
  const uint64_t whole_below = a.whole_below ? a.whole_below : 12 * a.probe_events;
  uint64_t start_events = 0;  // counted: the first point's events (0: not counted)
  bool whole = false, decided = false;
  auto decide = [&](uint64_t most_done) {
    decided = true;
    if (most_done > whole_below) return;
    SweepPoint start = points.front();
    for (auto& [n, v] : start.params)
      for (const SweepAxis& ax : spec.params)
        if (ax.name == n) v = ax.values[ax.values.size() / 2];
    start_events = cpu.charge("the count", false, 1, [&] {
      return compute_events_upto(a.program, config_of(start), start.params, whole_below);
    });
    whole = start_events <= whole_below;
  };
  int probe_runs = 0;
  // Points run to their end (finalists, probes that finished): their flops,
  // and one report for the config's peaks (the lower bound's figures).
  std::map<std::string, double> finished;
  json finished_report;
  std::vector<std::string> search_log;  // the coordinate search's choices, in turn
  auto probe_points = [&](std::set<std::string> unprobed) -> int {
    uint64_t events = a.probe_events;
    for (int round = 0; !unprobed.empty() && round < 5; ++round, events *= 4) {
      SweepSpec probe = spec;
      const std::string name = "probe" + std::to_string(probe_runs++);
      probe.output = templ + "/" + name + ".csv";
      probe.json_dir = templ + "/" + name;
      // --no-values: a probe only ranks, and pto.matmul under pto.tile would
      // otherwise compute the whole product before its first event (most of a
      // short probe's CPU: docs/PERFORMANCE.md "Tuning").
      probe.run_args = {"--stop-after-compute", std::to_string(events), "--epoch-accesses",
                        std::to_string(std::max<uint64_t>(1, events / 4)), "--no-values",
                        // Attention's block has phases (q.K^T, softmax, .V): a probe covers
                        // whole periods of them, several when they are short.
                        "--probe-period", std::to_string(5 * events / 2)};
      if (warm) probe.run_args.push_back("--warm-before-compute");
      if (whole) probe.run_args = {"--no-values"};
      probe.rows_status_only = true;  // tune reads each report below
      probe.select = [&unprobed](const SweepPoint& p) { return unprobed.count(p.key) > 0; };
      if (whole)
        std::cerr << "pto-sim tune: running " << unprobed.size() << " points whole (a short program)\n";
      else
        std::cerr << "pto-sim tune: probing " << unprobed.size() << " points (" << events << " events each)\n";
      if (cpu.charge(whole ? "whole runs" : "probes", true, unprobed.size(), [&] { return run_sweep(probe); }) == 130)
        return 130;
      const auto probe_rows = rows_by_key(probe.output);
      std::set<std::string> again;
      uint64_t most_done = 0;  // the most events a probe took (its prefix too)
      for (const std::string& key : unprobed) {
        Candidate& c = cands[index.at(key)];
        c.probed = true;
        auto row = probe_rows.find(key);
        c.status = row == probe_rows.end() ? "error" : row->second.at("status");
        c.error = row == probe_rows.end() ? "no probe result" : row->second.count("error") ? row->second.at("error") : "";
        if (c.status != "ok") {
          c.pruned = (c.status == "infeasible" ? "capacity: " : c.status + ": ") + c.error;
          c.reason = c.status == "infeasible" ? "capacity: does not fit its memory (failed at its first allocation)"
                                              : "its probe failed";
          continue;
        }
        const json r = load_report(probe.json_dir + "/" + c.point->id() + ".json");
        most_done = std::max(most_done, r.value("events_done", uint64_t(0)));
        c.estimate = estimate_from_probe(r, objective);
        if (c.estimate.exact) {
          c.simulated = true, c.objective = c.estimate.total;
          finished.emplace(key, r.value("flops", 0.0));
          if (finished_report.is_null()) finished_report = r;
        }
        else if (!c.estimate.ranked) again.insert(key);
      }
      if (!decided) {
        decide(most_done);
        if (whole) {  // the same points again, whole
          --round, events /= 4;
          continue;
        }
      }
      // A probe whose window did no flops is probed again, 4 times as long.
      unprobed = again;
    }
    return 0;
  };

  // 1. Probes. With tuned parameters (and no --set axes), one pass of
  // coordinate search: each parameter in turn, the others at the best found
  // so far (at first the middle of their values), by a line search from its
  // current value: fewer than the sum, not the product, of the axes'
  // lengths. It assumes an estimate that falls and rises once along a
  // parameter (true of the three programs measured); --search all probes
  // every point.
  std::vector<const SweepAxis*> axes;  // the tuned parameters: more than one value
  for (const SweepAxis& ax : spec.params)
    if (ax.values.size() > 1) axes.push_back(&ax);
  const bool by_axis = a.search == "axes" && !axes.empty() && spec.sets.empty();
  if (!by_axis) {
    std::set<std::string> all;
    for (const Candidate& c : cands) all.insert(c.point->key);
    if (probe_points(all) == 130) return 130;
  } else {
    std::map<std::string, std::string> at;  // parameter -> its value so far
    for (const SweepAxis* ax : axes) at[ax->name] = ax->values[ax->values.size() / 2];
    auto on_line = [&](const SweepPoint& p, const std::string& free) {
      for (auto& [n, v] : p.params)
        if (n != free && at.count(n) && at.at(n) != v) return false;
      return true;
    };
    for (const SweepAxis* axis : axes) {
      const SweepAxis& ax = *axis;
      // The line's points by the index of their value; a line search from
      // the current value (below), on while the estimates improve (a point
      // that does not fit or does not rank ends the walk).
      std::vector<Candidate*> line(ax.values.size(), nullptr);
      for (Candidate& c : cands)
        if (on_line(*c.point, ax.name))
          for (auto& [n, v] : c.point->params)
            if (n == ax.name)
              for (size_t i = 0; i < ax.values.size(); ++i)
                if (ax.values[i] == v) line[i] = &c;
      auto score = [&](size_t i) {
        const Candidate* c = line[i];
        return c && c->status == "ok" && c->estimate.ranked ? c->estimate.per_flop
                                                            : std::numeric_limits<double>::infinity();
      };
      auto probe_at = [&](std::vector<size_t> idx) {
        std::set<std::string> keys;
        for (size_t i : idx)
          if (i < line.size() && line[i] && !line[i]->probed) keys.insert(line[i]->point->key);
        return probe_points(keys);
      };
      size_t m = 0;
      while (m + 1 < ax.values.size() && ax.values[m] != at[ax.name]) ++m;
      // The value and the next larger one first: a larger tile moves less
      // data (the traffic bound 2·M·N·K/√S falls as a tile's working set S
      // grows) until it no longer fits, so the walk goes up while that
      // improves, and down from the value only when the larger one is no
      // better (matmul 1024³ 5 probes instead of 6, conv2d 4 of 6,
      // attention 4 of 5, the same tiles chosen).
      if (probe_at({m, m + 1}) == 130) return 130;
      size_t best = m;
      int step = -1;
      if (m + 1 < line.size() && score(m + 1) < score(m)) best = m + 1, step = 1;
      for (size_t i = best + step; i < line.size(); i += step) {  // size_t wraps below 0: ends the loop
        if (probe_at({i}) == 130) return 130;
        if (!(score(i) < score(best))) break;
        best = i;
      }
      if (!std::isfinite(score(best))) continue;  // nothing on this line ranked: keep the value
      at[ax.name] = ax.values[best];
      search_log.push_back(ax.name + "=" + at[ax.name]);
    }
    for (Candidate& c : cands)
      if (!c.probed) {
        std::string fixed;
        for (const std::string& s : search_log) fixed += (fixed.empty() ? "" : ", ") + s;
        c.pruned = "not probed: off the coordinate search's path (best along each parameter, in turn: " + fixed + ")";
        c.reason = "not probed: off the coordinate search's path";
      }
  }

  // A first period pays the program's cold start; where some probes
  // measured it (two periods or more), it comes off the others' one.
  std::vector<ProbeEstimate*> estimates;
  for (Candidate& c : cands)
    if (c.status == "ok" && !c.simulated) estimates.push_back(&c.estimate);
  const double cold = correct_cold(estimates);

  // 2. The promising points: within --margin of the best estimate, at most --keep.
  std::vector<Candidate*> ranked;
  for (Candidate& c : cands)
    if (c.status == "ok" && c.estimate.ranked) ranked.push_back(&c);
  std::sort(ranked.begin(), ranked.end(),
            [](const Candidate* x, const Candidate* y) { return x->estimate.per_flop < y->estimate.per_flop; });
  for (Candidate& c : cands)
    if (c.status == "ok" && !c.estimate.ranked) c.pruned = c.reason = "no flops in its probes: not ranked";
  if (ranked.empty()) {
    std::cerr << "pto-sim tune: no point could be ranked (every probe failed or did no flops)\n";
    for (const Candidate& c : cands) std::cerr << "  " << params_of(*c.point) << ": " << c.pruned << "\n";
    return 1;
  }
  const double best_est = ranked.front()->estimate.per_flop;
  std::set<std::string> finalists;
  size_t kept = 0;
  for (Candidate* c : ranked) {
    const double over = best_est > 0 ? c->estimate.per_flop / best_est - 1 : 0;
    if (kept < a.keep && over <= a.margin) {
      ++kept;
      if (!c->simulated) finalists.insert(c->point->key);
      continue;
    }
    std::ostringstream why;
    why << "estimate " << fmt(100 * over) << " % above the best estimate"
        << (over <= a.margin ? " (within --margin, past --keep)" : "");
    c->pruned = why.str();
    c->reason = "probed: its estimate above the best estimate";
  }

  // 3. The finalists in full.
  if (!finalists.empty()) {
    SweepSpec full = spec;
    full.output = templ + "/full.csv";
    full.json_dir = templ + "/full";
    full.rows_status_only = true;
    full.select = [&finalists](const SweepPoint& p) { return finalists.count(p.key) > 0; };
    // The counts do not depend on values (cli_tune checks it, as for the
    // probes), and pto.matmul's products are a fifth of a point's CPU.
    if (!a.finalist_values) full.run_args = {"--no-values"};
    std::cerr << "pto-sim tune: simulating " << finalists.size() << " of " << cands.size() << " points in full\n";
    if (cpu.charge("full runs", true, finalists.size(), [&] { return run_sweep(full); }) == 130) return 130;
    const auto full_rows = rows_by_key(full.output);
    for (Candidate& c : cands) {
      if (!finalists.count(c.point->key)) continue;
      auto row = full_rows.find(c.point->key);
      if (row == full_rows.end() || row->second.at("status") != "ok") {
        c.pruned = "full run failed: " + (row == full_rows.end() ? std::string("no result") : row->second.at("error"));
        c.reason = "its full run failed";
        continue;
      }
      c.simulated = true;
      const json r = load_report(full.json_dir + "/" + c.point->id() + ".json");
      c.objective = report_objective(r, objective);
      finished.emplace(c.point->key, r.value("flops", 0.0));
      if (finished_report.is_null()) finished_report = r;
    }
  }

  const Candidate* best = nullptr;
  for (const Candidate& c : cands)
    if (c.simulated && (!best || c.objective < best->objective)) best = &c;

  // 4. What no point can beat (tune_bound.h), where every point runs on one
  // config and every point run to its end did the same flops. A point whose
  // bound is not below the best simulated figure cannot win; for the others
  // the bound says how much better they could at most be. A bound above a
  // simulated figure would be wrong: it is dropped, and said.
  LowerBound bound;
  std::string no_bound;
  if (!best) no_bound = "no point ran to its end";
  else if (!spec.sets.empty()) no_bound = "the points' hardware differs (--set axes)";
  for (auto& [key, flops] : finished)
    if (no_bound.empty() && flops != finished.begin()->second)
      no_bound = "the points run to their end did different flops (" + fmt(flops) + ", " + fmt(finished.begin()->second) + ")";
  if (no_bound.empty()) {
    const HwConfig& hw = config_of(*best->point);
    bound = lower_bound(hw, finished_report, matmul_of(a.bound_matmul, *best->point), objective);
    for (Candidate& c : cands)
      c.bound = std::max(lower_bound(hw, finished_report, matmul_of(a.bound_matmul, *c.point), objective).value,
                         c.estimate.prefix);
    for (const Candidate& c : cands)
      if (no_bound.empty() && c.simulated && c.bound > c.objective * (1 + 1e-9))
        no_bound = "the bound " + fmt(c.bound) + " exceeded " + params_of(*c.point) + "'s simulated " + fmt(c.objective) +
                   ": not used (" + bound.why + ")";
    if (!no_bound.empty())
      for (Candidate& c : cands) c.bound = 0;
    else
      for (Candidate& c : cands)
        if (!c.simulated && c.bound > 0 && c.bound >= best->objective) {
          c.pruned += "; its lower bound " + fmt(c.bound) + " is not below the best's " + fmt(best->objective) + ": it cannot win";
          c.reason = "lower bound not below the best found: cannot win";
        }
  }
  std::ostringstream out;
  const char* unit = objective == TuneObjective::Seconds ? "s" : "B";
  size_t simulated = 0;
  for (const Candidate& c : cands) simulated += c.simulated && (whole || !c.estimate.exact);
  out << "# pto-sim tune " << a.program << " --objective " << a.objective << ": " << cands.size() << " points, "
      << simulated << " simulated in full, the others " << (whole ? "not run" : "probed (" + std::to_string(a.probe_events) + " events)") << "\n";
  if (whole)
    out << "# a short program (" << start_events << " events at the search's first point, at most "
        << whole_below << "): every point reached run whole, not probed\n";
  if (!search_log.empty()) {
    size_t probed = 0;
    for (const Candidate& c : cands) probed += c.probed;
    out << "# coordinate search: " << probed << " of " << cands.size() << " points probed, a line search along each parameter in turn (";
    for (size_t i = 0; i < search_log.size(); ++i) out << (i ? ", then " : "") << search_log[i];
    out << "); --search all probes every point\n";
  }
  size_t periodic = 0;
  for (const Candidate& c : cands) periodic += c.estimate.periods > 0;
  if (periodic) {
    out << "# probes over whole periods of the program (one iteration of every phase) on " << periodic << " points; ";
    if (cold > 0)
      out << "a first period's cold start " << fmt(cold) << " " << (objective == TuneObjective::Seconds ? "s" : "B")
          << " (median over the probes that covered two) taken off the probes that covered one\n";
    else
      out << "no cold start taken off single-period probes (none covered two periods, or their first cost no more)\n";
  }
  for (const Candidate& c : cands) {
    out << (&c == best ? "* " : "  ") << params_of(*c.point) << ": ";
    if (c.simulated)
      out << a.objective << " " << fmt(c.objective) << " " << unit
          << (whole ? " (run whole)" : c.estimate.exact ? " (the probe ran to the end)" : " (simulated)");
    else
      out << "pruned: " << c.pruned;
    if (c.status == "ok" && c.estimate.ranked) out << "  [" << fmt(c.estimate.per_flop) << " " << unit << "/flop]";
    out << "\n";
  }
  // Which points were never simulated, and why, by reason.
  std::map<std::string, std::vector<const Candidate*>> by_reason;
  for (const Candidate& c : cands)
    if (!c.simulated) by_reason[c.reason.empty() ? std::string("not simulated") : c.reason].push_back(&c);
  size_t unsimulated = 0;
  for (auto& [r, v] : by_reason) unsimulated += v.size();
  if (unsimulated) {
    out << "# never simulated in full: " << unsimulated << " of " << cands.size() << " points, by reason\n";
    for (auto& [r, v] : by_reason) {
      out << "#   " << r << " (" << v.size() << "):";
      for (size_t i = 0; i < v.size(); ++i) out << (i ? ", " : " ") << params_of(*v[i]->point);
      out << "\n";
    }
  }
  if (best) {
    if (!no_bound.empty()) out << "# lower bound: none (" << no_bound << ")\n";
    else if (bound.value <= 0) out << "# lower bound: none known (" << bound.why << ")\n";
    else {
      double loosest = bound.value;  // the smallest bound of a point not simulated
      for (const Candidate& c : cands)
        if (!c.simulated && c.status != "infeasible") loosest = std::min(loosest, c.bound);
      out << "# lower bound on every point: " << fmt(bound.value) << " " << unit << " (" << bound.why << "); the best is "
          << fmt(100 * (best->objective / bound.value - 1)) << " % above it: no point left unsimulated can be more than "
          << fmt(100 * (1 - loosest / best->objective)) << " % better\n";
    }
  }
  // On stderr: the table stays the same from run to run.
  std::cerr << "pto-sim tune: CPU (user + sys): " << cpu.summary() << "\n";
  if (!best) {
    write_output(a.output, out.str());
    std::cerr << "pto-sim tune: no finalist finished\n";
    return 1;
  }
  out << "best: " << params_of(*best->point) << " " << a.objective << " " << fmt(best->objective) << " " << unit << "\n";
  write_output(a.output, out.str());
  return 0;
}

}  // namespace

void add_tune(CLI::App& app, Action& action) {
  static TuneArgs a;
  CLI::App* t = app.add_subcommand("tune", "Find the best tile of a program: probe every choice, simulate the promising ones");
  t->add_option("PROGRAM", a.program, "PTO program (.pto)")->required();
  t->add_option("-D", a.defines, "NAME=a,b,c or NAME=LO..HI[:+STEP|:xFACTOR]: the choices (repeatable)")
      ->allow_extra_args(false);
  t->add_option("--set", a.sets, "dotted.config.path=VALUE (repeatable)")->allow_extra_args(false);
  t->add_option("--config", a.config, "YAML hardware config (default: built in)");
  t->add_option("--objective", a.objective, "What to minimise (default seconds)")
      ->check(CLI::IsMember({"seconds", "dram_bytes"}));
  t->add_option("-j,--jobs", a.jobs, "Points run at once (default: the core count)")->check(CLI::Range(1u, 4096u));
  t->add_option("--probe-events", a.probe_events, "Events each probe simulates at first (default 16000; 4 times as many again for a probe that did no flops; a phased program's probe runs on to the end of a period after 2.5 times as many)")
      ->check(CLI::Range(uint64_t(16), uint64_t(1) << 40));
  t->add_option("--whole-below", a.whole_below,
                 "Run every point whole instead of probing it when the program, at the search's first point, has at "
                 "most this many events (accesses and computes; default 12 times --probe-events): a short run's "
                 "prefix does not rank its tiles")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 62));
  t->add_option("--keep", a.keep, "At most this many points simulated in full (default 1)")
      ->check(CLI::Range(size_t(1), size_t(1) << 20));
  t->add_option("--margin", a.margin, "Simulate points whose estimate is within this fraction of the best (default 0.03)")
      ->check(CLI::Range(0.0, 100.0));
  t->add_flag("--simulate-prefix{false}", a.warm_prefix,
              "Probes simulate the phase before the first compute in detail (default: its accesses only warm the "
              "caches, run --warm-before-compute, where the config allows: one core, no sub-blocks)");
  t->add_option("--search", a.search,
                 "axes (default): with two or more -D parameters, probe each in turn over its values, the others at "
                 "the best so far (the middle at first); all: probe every point of the cross product")
      ->check(CLI::IsMember({"axes", "all"}));
  t->add_option("--bound-matmul", a.bound_matmul,
                 "M,N,K[,ELEMENT_BYTES]: the program's work is (at least) this matmul (numbers or -D parameters; "
                 "default 4-byte elements): its traffic bound 2MNK/sqrt(S) - 3S joins the lower bound")
      ->type_name("M,N,K");
  t->add_flag("--finalist-values", a.finalist_values,
              "Finalists compute tensor values (default: events only, run --no-values, as the probes; the counts "
              "are the same unless the program's loops or addresses depend on values)");
  add_output_option(*t, a.output, "Write the table here instead of stdout");
  t->callback([&action] { action = [] { return run(a); }; });
}

}  // namespace ptosim::cli
