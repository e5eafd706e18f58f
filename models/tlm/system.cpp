#include "models/tlm/system.h"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <map>
#include <thread>

#include "models/tlm/cache_module.h"
#include "models/cache/hierarchy.h"
#include "models/cache/data_checker.h"
#include "models/tlm/constant_module.h"
#include "models/tlm/core_module.h"
#include "models/tlm/dram_module.h"
#include "models/tlm/memory_factory.h"
#include "models/tlm/memory_module.h"
#include "sim/common/run_control.h"
#include "sim/report/run_report.h"

namespace ptosim {

using sc_core::sc_time;

System::System(const HwConfig& config, bool check_data) : config_(config), check_data_(check_data) {
  // Time in femtoseconds so that cycles of any clock add up without drift.
  static bool resolution_set = false;
  if (!resolution_set) {
    sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
    resolution_set = true;
  }
  for (auto& m : config_.memories) memories_.push_back(make_memory_module(m, config_, check_data_));
  // A cache that only a memory's `backing:` names is that memory's private
  // cache (ConstantModule copies its geometry): it is not a level of the
  // global L1 -> ... -> DRAM path.
  for (auto& c : config_.caches)
    if (!private_cache(c.name))
      caches_.push_back(std::make_unique<CacheModule>(c.name.c_str(), c, config_.clock_hz, check_data_));
  dram_ = std::make_unique<DramModule>(config_.dram.name.c_str(), config_.dram, config_.clock_hz);

  std::vector<CacheLevel*> levels;
  for (size_t i = 0; i < caches_.size(); ++i) {
    levels.push_back(&caches_[i]->logic());
    if (i + 1 < caches_.size()) {
      caches_[i]->down.bind(caches_[i + 1]->up);
      caches_[i]->set_direct_below(caches_[i + 1].get());
    }
    else {
      caches_[i]->down.bind(dram_->up);
      caches_[i]->set_direct_below(dram_->port());
    }
  }
  link_levels_above(levels);

  // Every module that can serve a space, by its config name: the core's
  // ports are bound through this one map.
  std::map<std::string, TargetSocket*> sockets;
  std::map<std::string, CacheModule*> first_level;
  for (auto& c : caches_) {
    sockets[c->logic().config().name] = &c->up;
    first_level[c->logic().config().name] = c.get();
  }
  for (auto& m : memories_) sockets[m->config().name] = &m->up;
  sockets[config_.dram.name] = &dram_->up;

  // One core port per module that serves a space.
  const std::vector<std::string> spaces = config_.space_names();
  std::vector<std::string> targets;
  for (auto& s : spaces) {
    const std::string& t = config_.spaces.at(s);
    if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
  }
  core_ = std::make_unique<CoreModule>("core", config_, targets.size());
  for (size_t p = 0; p < targets.size(); ++p) core_->port(p).bind(*sockets.at(targets[p]));
  for (size_t s = 0; s < spaces.size(); ++s) {
    const std::string& t = config_.spaces.at(spaces[s]);
    const size_t port = size_t(std::find(targets.begin(), targets.end(), t) - targets.begin());
    auto first = first_level.find(t);
    core_->route(SpaceId(s), spaces[s], port, first == first_level.end() ? nullptr : first->second);
  }
}

System::~System() = default;

bool System::private_cache(const std::string& cache) const { return config_.private_cache(cache); }

std::string System::timeline_json(const std::string& source, const std::vector<std::string>& lines) const {
  return attribution_ ? attribution_->timeline_json(source, lines) : std::string();
}

std::unique_ptr<DataChecker> System::make_checker(const RunOptions& options) {
  auto checker = std::make_unique<DataChecker>(options.data_in_stream, options.source);
  checker->add_store(config_.dram.name, &dram_->store());  // store 0: behind the caches
  for (auto& m : memories_) checker->add_store(m->config().name, &m->store());
  std::vector<DataRoute> routes;
  for (const std::string& space : config_.space_names()) {
    const std::string& t = config_.spaces.at(space);
    DataRoute r;
    r.last = config_.dram.name;
    bool below = false;
    for (auto& c : caches_) {
      below = below || c->logic().config().name == t;
      if (below) r.levels.push_back(&c->logic());
    }
    for (size_t i = 0; i < memories_.size(); ++i) {
      if (memories_[i]->config().name != t) continue;
      r.store = i + 1;
      r.last = t;
      if (auto* cm = dynamic_cast<ConstantModule*>(memories_[i].get()))
        if (cm->cache()) r.levels.push_back(cm->cache());
    }
    routes.push_back(r);
  }
  core_->check_data(checker.get(), std::move(routes));
  return checker;
}

// The kernel runs on a thread of its own, and the caller waits for it.
// SystemC switches its processes' coroutine stacks under the thread that
// calls sc_start without telling AddressSanitizer, which then misreads that
// thread's stack on every later throw (google/sanitizers#189: false
// reports). The caller's thread never switches, so the errors rethrown
// after the run and every throw after it unwind a stack ASan knows. The
// kernel is not used concurrently: this thread only waits. It also takes
// no SIGINT/SIGTERM meanwhile: a stop request must be seen by the threads
// that simulate before the stream they drain can end (run_control).
void System::run_kernel() {
  std::exception_ptr failed;
  sigset_t stops, before;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stops, &before);
  std::thread kernel([&failed, before] {
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    try {
      sc_core::sc_start();
    } catch (...) {
      failed = std::current_exception();
    }
  });
  kernel.join();
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  if (failed) std::rethrow_exception(failed);
}

StatsNode System::run(const std::function<void(EventSink&)>& producer, const RunOptions& options) {
  core_->set_producer(producer, options.producer_same_thread);
  source_ = options.source;
  if (options.attribution.any()) {
    // Every level the report lists, in its order.
    std::vector<ProbedLevel> probed;
    for (auto& m : memories_) probed.push_back({m->name(), kMemoryKinds.name(m->config().kind), &m->stats()});
    for (auto& c : caches_) probed.push_back({c->name(), "cache", &c->logic().stats()});
    probed.push_back({dram_->name(), "dram", &dram_->stats()});
    attribution_ = std::make_unique<Attribution>(options.attribution, 1e15 / config_.clock_hz, std::move(probed),
                                                 config_.space_names(), std::max<uint32_t>(config_.core.count, 1),
                                                 &core_->names_for_attribution());
    if (config_.dram.timing == "detailed") attribution_->set_row_counter([this] { return dram_->row_counts(); });
    core_->set_attribution(attribution_.get());
  }
  std::unique_ptr<DataChecker> checker;
  if (check_data_) checker = make_checker(options);
  if (options.flush || checker) {
    core_->set_finisher([this](const sc_time& at) {
      for (auto& c : caches_) c->flush(at);
    });
  }
  run_kernel();
  if (core_->error()) std::rethrow_exception(core_->error());
  // An interrupted run never reached the end of its stream nor the flush:
  // the memories hold what was simulated, not the final image to compare.
  if (checker && !core_->interrupted()) checker->final_check();

  StatsNode root = assemble(options.source, core_->interrupted());
  if (attribution_) attribution_->report(root);
  if (checker) {
    root.child("data_check", NodeKind::DataCheck)
        .set("reads_checked", checker->reads_checked())
        .set("tensors_compared", checker->tensors_compared());
  }
  return root;
}

StatsNode System::assemble(const std::string& source, bool interrupted) const {
  const double cycles = core_->cycles();
  const double seconds = cycles / config_.clock_hz;
  StatsNode core_parent;
  core_->report(core_parent);
  const TagNames& names = core_->names();
  StatsNode levels{"levels", NodeKind::List, {}, {}};
  for (auto& m : memories_) m->report(levels, names, seconds);
  for (auto& c : caches_) c->report(levels, names, seconds);
  dram_->report(levels, names, seconds);

  RunReportInputs in;
  in.config = config_.name;
  in.source = source;
  in.clock_hz = config_.clock_hz;
  in.cycles = cycles;
  // What the report covers after a stop request: the events simulated before it.
  in.interrupted = interrupted;
  in.events_done = run_control::counters().events.load();
  in.peak_flops_per_s = config_.core.flops_per_cycle * config_.clock_hz;
  in.peak_dram_bandwidth = dram_->peak_bandwidth();
  return make_run_report(in, std::move(core_parent.children.front()), std::move(levels));
}

StatsNode System::snapshot() const { return assemble(source_, false); }

}  // namespace ptosim
