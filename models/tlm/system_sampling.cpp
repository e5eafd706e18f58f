// System's side of run --sample and --warm-before-compute (docs/SAMPLING.md): what they
// refuses, the headline totals the core reads at each measured unit's ends,
// and the estimates with their intervals in the report. The schedule and
// the arithmetic are sim/report/sampling.*, the stream's phases
// models/tlm/core_sampling.cpp.
#include <cmath>
#include <limits>

#include "models/cache/cache_level.h"
#include "models/tlm/cache_module.h"
#include "models/tlm/core_module.h"
#include "models/tlm/dram_module.h"
#include "models/tlm/system.h"
#include "sim/common/error.h"

namespace ptosim {

namespace {
[[noreturn]] void refuse(const std::string& why) { throw InputError({"--sample", 0, 0}, "", why); }
}  // namespace

void System::start_sampling(const SampleParams& p, const RunOptions& options) {
  if (config_.core.count > 1)
    refuse("samples one core's stream; the config has " + std::to_string(config_.core.count) +
           " cores (--set core.cores=1)");
  if (config_.core.dataflow())
    refuse("core.model '" + config_.core.model + "' numbers every event for its dependences, which a sample drops");
  if (config_.core.every_access())
    refuse("core.model '" + config_.core.model + "' times its engines access by access, which a sample drops");
  if (check_data_) refuse("cannot be combined with --check-data (it checks every access)");
  if (options.attribution.any())
    refuse("cannot be combined with --by-line, --epoch, --heatmap-bins, --hot-spots or --timeline (they attribute "
           "every access)");
  if (options.flush) refuse("cannot be combined with --flush (the flush is no unit of the stream)");
  if (p.warming == SampleWarming::Functional)
    for (auto& c : caches_)
      if (c->logic().config().has_subblocks())
        refuse("level " + c->logic().config().name +
               " has sub-blocks, which functional warming does not model (--sample-warming none)");
  core_->set_sampling(p, [this](std::vector<double>& out) { sample_totals(out); });
}

void System::start_warm_prefix() {
  auto no = [](const std::string& why) { throw InputError({"--warm-before-compute", 0, 0}, "", why); };
  if (config_.core.count > 1) no("warms one core's caches; the config has " + std::to_string(config_.core.count) + " cores");
  if (check_data_) no("cannot be combined with --check-data (it checks every access)");
  for (auto& c : caches_)
    if (c->logic().config().has_subblocks())
      no("level " + c->logic().config().name + " has sub-blocks, which functional warming does not model");
  core_->warm_until_compute();
}

std::vector<std::string> System::sample_metrics() const {
  std::vector<std::string> names{"cycles"};
  for (auto& c : caches_) names.push_back(c->logic().config().name + ".demand_misses");
  names.push_back("dram_bytes");
  return names;
}

void System::sample_totals(std::vector<double>& out) const {
  out.clear();
  // The memory part of the cycles: compute time is counted in full (see
  // CoreModule::compute_skipped) and added to the estimate.
  out.push_back(core_->cycles() - core_->compute_cycles());
  for (auto& c : caches_) {
    const LevelStats& s = c->logic().stats();
    out.push_back(double(s.misses() - s.writeback_misses));
  }
  out.push_back(double(dram_->stats().bytes_read + dram_->stats().bytes_written));
  // Then each level's first touches: the controls of sample_estimates.
  for (auto& c : caches_) out.push_back(double(c->logic().demand_compulsory()));
}

std::vector<SampleEstimate> System::sample_estimates(const SampleParams& p) const {
  const auto& units = core_->sample_units();
  if (units.size() < 2) {
    if (core_->interrupted()) return {};
    refuse("the stream held " + std::to_string(core_->stream_accesses()) + " accesses: " +
           std::to_string(units.size()) + " complete unit(s) of " + std::to_string(p.unit) + " accesses, one every " +
           std::to_string(p.period) + "; an interval needs at least 2 (a smaller --sample-unit or --sample-every)");
  }
  // The least a unit that carries a metric adds to it: a cycle, a miss, a
  // line from DRAM (the last level's).
  std::vector<double> granules(sample_metrics().size(), 1.0);
  granules.back() = caches_.empty() ? 1.0 : double(caches_.back()->logic().config().line);
  // Under functional warming every access reached the caches, so each
  // level's first touches are known over the whole stream (sample_totals
  // puts them after the metrics): a level's misses and the DRAM bytes are
  // estimated less them (b = 1 and a line of the last level), the memory
  // cycles less the last level's with a fitted slope (docs/SAMPLING.md).
  std::vector<SampleControl> controls;
  if (p.warming == SampleWarming::Functional && !caches_.empty()) {
    const size_t metrics = granules.size(), last = caches_.size() - 1;
    auto of = [&](size_t level, double slope) {
      return SampleControl{int(metrics + level), double(caches_[level]->logic().demand_compulsory()), slope};
    };
    controls.push_back(of(last, std::numeric_limits<double>::quiet_NaN()));
    for (size_t l = 0; l < caches_.size(); ++l) controls.push_back(of(l, 1.0));
    controls.push_back(of(last, granules.back()));
  }
  std::vector<SampleEstimate> e = estimate_totals(sample_metrics(), units, core_->sample_weights(),
                                                  double(core_->stream_accesses()), p.confidence, granules, controls);
  const double compute = core_->compute_cycles();
  e.front().estimate += compute, e.front().low += compute, e.front().high += compute;
  return e;
}

void System::report_sample(StatsNode& root, const SampleParams& p, const std::vector<SampleEstimate>& e) const {
  StatsNode& n = root.child("sample", NodeKind::Object);
  n.set("method", std::string(p.warming == SampleWarming::Functional
                                   ? "SMARTS, one unit at a random place in each period; first touches counted"
                                   : "SMARTS, one unit at a random place in each period"));
  n.set("warming", std::string(p.warming == SampleWarming::Functional ? "functional" : "none"));
  n.set("unit_accesses", p.unit).set("period_accesses", p.period).set("warmup_accesses", p.warmup);
  n.set("seed", p.seed).set("confidence", p.confidence);
  n.set("units", uint64_t(core_->sample_units().size()));
  n.set("stream_accesses", core_->stream_accesses());
  if (e.empty()) return;  // an interrupted run with fewer than two units: no estimate
  // The headline keys become the estimates of the whole run; their intervals follow.
  std::vector<SampleEstimate> all = e;
  SampleEstimate sec = e.front();
  sec.metric = "seconds";
  sec.estimate /= config_.clock_hz, sec.low /= config_.clock_hz, sec.high /= config_.clock_hz;
  sec.half_width /= config_.clock_hz;
  all.insert(all.begin() + 1, sec);
  StatsNode& list = n.child("intervals", NodeKind::List);
  for (const SampleEstimate& x : all) {
    list.child(x.metric, NodeKind::Row)
        .set("estimate", x.estimate)
        .set("low", x.low)
        .set("high", x.high)
        .set("half_width", x.half_width)
        .set("relative_half_width", x.estimate != 0 ? x.half_width / std::fabs(x.estimate) : 0.0);
  }
  auto whole = [](double v) { return uint64_t(std::llround(std::max(0.0, v))); };
  const uint64_t dram = whole(e.back().estimate);
  root.set("sampled", true);
  root.set("dram_bytes", dram);
  const uint64_t flops = root.u64("flops");
  root.set("arithmetic_intensity", dram ? double(flops) / double(dram) : 0.0);
  if (StatsNode* levels = const_cast<StatsNode*>(root.find_child("levels"))) {
    size_t m = 1;
    for (auto& c : caches_) {
      for (StatsNode& l : levels->children)
        if (l.name == c->logic().config().name) l.set("demand_misses", whole(e[m].estimate));
      ++m;
    }
  }
}

}  // namespace ptosim
