#include "models/system/system.h"

#include <algorithm>

#include "models/cache/cache_module.h"
#include "models/cache/hierarchy.h"
#include "models/core/core_module.h"
#include "models/dram/dram_module.h"
#include "models/memory/memory_factory.h"
#include "models/memory/scratchpad_module.h"
#include "sim/common/run_control.h"
#include "sim/report/roofline.h"

namespace ptosim {

using sc_core::sc_time;

System::System(const HwConfig& config) : config_(config) {
  // Time in femtoseconds so that cycles of any clock add up without drift.
  static bool resolution_set = false;
  if (!resolution_set) {
    sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
    resolution_set = true;
  }
  for (auto& m : config_.memories) memories_.push_back(make_memory_module(m, config_));
  // A cache that only a memory's `backing:` names is that memory's private
  // cache (ConstantModule copies its geometry): it is not a level of the
  // global L1 -> ... -> DRAM path.
  for (auto& c : config_.caches)
    if (!private_cache(c.name)) caches_.push_back(std::make_unique<CacheModule>(c.name.c_str(), c, config_.clock_hz));
  dram_ = std::make_unique<DramModule>(config_.dram.name.c_str(), config_.dram, config_.clock_hz);

  std::vector<CacheLevel*> levels;
  for (size_t i = 0; i < caches_.size(); ++i) {
    levels.push_back(&caches_[i]->logic());
    if (i + 1 < caches_.size()) {
      caches_[i]->down.bind(caches_[i + 1]->up);
      caches_[i]->set_direct_below(caches_[i + 1].get());
    }
    else caches_[i]->down.bind(dram_->up);
  }
  link_levels_above(levels);

  // One core port per module that serves a space.
  const std::vector<std::string> spaces = config_.space_names();
  std::vector<std::string> targets;
  for (auto& s : spaces) {
    const std::string& t = config_.spaces.at(s);
    if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
  }
  core_ = std::make_unique<CoreModule>("core", config_, targets.size());
  for (size_t p = 0; p < targets.size(); ++p) {
    const std::string& t = targets[p];
    for (auto& c : caches_)
      if (c->logic().config().name == t) core_->port(p).bind(c->up);
    for (auto& m : memories_)
      if (m->config().name == t) core_->port(p).bind(m->up);
    if (t == config_.dram.name) core_->port(p).bind(dram_->up);
  }
  for (size_t s = 0; s < spaces.size(); ++s) {
    const std::string& t = config_.spaces.at(spaces[s]);
    const size_t port = size_t(std::find(targets.begin(), targets.end(), t) - targets.begin());
    CacheModule* first = nullptr;
    for (auto& c : caches_)
      if (c->logic().config().name == t) first = c.get();
    core_->route(SpaceId(s), spaces[s], port, first);
  }
}

System::~System() = default;

bool System::private_cache(const std::string& cache) const {
  bool backs = false;
  for (auto& m : config_.memories) backs = backs || m.backing == cache;
  for (auto& [space, target] : config_.spaces)
    if (target == cache) return false;
  return backs;
}

StatsNode System::run(const std::function<void(EventSink&)>& producer, const RunOptions& options) {
  core_->set_producer(producer);
  if (options.flush) {
    core_->set_finisher([this](const sc_time& at) {
      for (auto& c : caches_) c->flush(at);
    });
  }
  sc_core::sc_start();
  if (core_->error()) std::rethrow_exception(core_->error());

  const double cycles = core_->cycles();
  const double seconds = cycles / config_.clock_hz;
  StatsNode root{"pto-sim", "run", {}, {}};
  root.set("config", config_.name).set("source", options.source);
  root.set("clock_hz", config_.clock_hz);
  root.set("cycles", cycles).set("seconds", seconds);
  if (core_->interrupted()) {
    // What the report covers: the events simulated before the stop request.
    root.set("interrupted", std::string("true"));
    root.set("events_done", run_control::counters().events.load());
  }
  core_->report(root);
  const TagNames& names = core_->names();
  StatsNode& levels = root.child("levels", "list");
  for (auto& m : memories_) m->report(levels, names, seconds);
  for (auto& c : caches_) c->report(levels, names, seconds);
  dram_->report(levels, names, seconds);
  // The row-buffer counters exist only in the detailed DRAM model; zeros
  // keep the report schema the same for `timing: simple`.
  StatsNode& dram = levels.children.back();
  for (const char* k : {"row_hits", "row_misses", "row_conflicts"})
    if (!dram.find(k)) dram.set(k, uint64_t(0));

  RooflineInputs in;
  in.flops = root.find_child("core")->u64("flops");
  in.seconds = seconds;
  in.dram_bytes = dram.u64("bytes_read") + dram.u64("bytes_written");
  in.peak_flops_per_s = config_.core.flops_per_cycle * config_.clock_hz;
  in.peak_dram_bandwidth = dram_->peak_bandwidth();
  StatsNode roof = add_roofline(root, in);
  // Before `levels`, so that the short run summary reads first in JSON.
  auto at = std::find_if(root.children.begin(), root.children.end(),
                         [](const StatsNode& c) { return c.name == "levels"; });
  root.children.insert(at, std::move(roof));
  return root;
}

}  // namespace ptosim
