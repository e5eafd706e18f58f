#include "models/system/system.h"

#include <algorithm>

#include "models/cache/cache_module.h"
#include "models/cache/hierarchy.h"
#include "models/core/core_module.h"
#include "models/dram/dram_module.h"
#include "models/memory/scratchpad_module.h"

namespace ptosim {

using sc_core::sc_time;

System::System(const HwConfig& config) : config_(config) {
  // Time in femtoseconds so that cycles of any clock add up without drift.
  static bool resolution_set = false;
  if (!resolution_set) {
    sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
    resolution_set = true;
  }
  for (auto& m : config_.memories) memories_.push_back(std::make_unique<ScratchpadModule>(m.name.c_str(), m, config_.clock_hz));
  for (auto& c : config_.caches) caches_.push_back(std::make_unique<CacheModule>(c.name.c_str(), c, config_.clock_hz));
  dram_ = std::make_unique<DramModule>(config_.dram.name.c_str(), config_.dram, config_.clock_hz);

  std::vector<CacheLevel*> levels;
  for (size_t i = 0; i < caches_.size(); ++i) {
    levels.push_back(&caches_[i]->logic());
    if (i + 1 < caches_.size()) caches_[i]->down.bind(caches_[i + 1]->up);
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
    for (size_t i = 0; i < caches_.size(); ++i)
      if (config_.caches[i].name == t) core_->port(p).bind(caches_[i]->up);
    for (size_t i = 0; i < memories_.size(); ++i)
      if (config_.memories[i].name == t) core_->port(p).bind(memories_[i]->up);
    if (t == config_.dram.name) core_->port(p).bind(dram_->up);
  }
  for (size_t s = 0; s < spaces.size(); ++s) {
    const std::string& t = config_.spaces.at(spaces[s]);
    const size_t port = size_t(std::find(targets.begin(), targets.end(), t) - targets.begin());
    const CacheLevel* first = nullptr;
    sc_time hit = sc_core::SC_ZERO_TIME;
    for (auto& c : caches_)
      if (c->logic().config().name == t) { first = &c->logic(); hit = c->hit_latency(); }
    core_->route(SpaceId(s), spaces[s], port, first, hit);
  }
}

System::~System() = default;

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
  core_->report(root);
  const TagNames& names = core_->names();
  StatsNode& levels = root.child("levels", "list");
  for (auto& m : memories_) m->report(levels, names, seconds);
  for (auto& c : caches_) c->report(levels, names, seconds);
  dram_->report(levels, names, seconds);
  return root;
}

}  // namespace ptosim
