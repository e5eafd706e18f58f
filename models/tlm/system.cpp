#include "models/tlm/system.h"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <thread>

#include "models/tlm/cache_module.h"
#include "models/cache/coherence.h"
#include "models/cache/hierarchy.h"
#include "models/cache/data_checker.h"
#include "models/tlm/constant_module.h"
#include "models/tlm/core_module.h"
#include "models/tlm/dram_module.h"
#include "models/tlm/memory_factory.h"
#include "models/tlm/memory_module.h"
#include "sim/common/error.h"
#include "sim/common/registry.h"
#include "sim/common/run_control.h"
#include "sim/common/time.h"
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
  if (config_.private_levels()) build_private_levels(config_.private_levels());
  else link_levels_above(levels);
  if (config_.core.count > 1) {  // the shared levels and the DRAM: resources the cores reach out of time order
    for (size_t i = config_.private_levels(); i < caches_.size(); ++i) caches_[i]->logic().keep_port_calendar();
    dram_->serve_in_time_order();
  }

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

// Several cores and `k` private levels: each core gets its own instance of
// L1..Lk, its last private level sends below through the directory
// (coherence.h), which sends on to the first shared level (or the DRAM).
void System::build_private_levels(size_t k) {
  const uint32_t cores = config_.core.count;
  for (size_t i = 0; i < k; ++i)
    for (uint32_t c = 1; c < cores; ++c) caches_[i]->add_core_instance();
  const Fs period = period_fs(config_.clock_hz);
  const CacheConfig& home = k < caches_.size() ? caches_[k]->logic().config() : caches_[k - 1]->logic().config();
  // The directory's line: the largest of the private levels' and the first shared level's.
  uint32_t unit = home.line;
  for (size_t i = 0; i < k; ++i) unit = std::max(unit, caches_[i]->logic().config().line);
  coherence_ = std::make_unique<Coherence>(cores, unit,
                                           cycles_to_fs(config_.coherence_latency(), period),
                                           uint64_t(std::llround(double(period) / home.bandwidth)),
                                           config_.coherence.message_bytes);
  if (check_data_) {
    // The directory moves a line's bytes between cores whole: each private
    // level must hold the directory's line in one piece.
    for (size_t i = 0; i < k; ++i)
      if (caches_[i]->logic().config().line != unit)
        throw InputError(config_.source + ": --check-data on several cores needs the private levels' lines equal to "
                         "the directory's (" + caches_[i]->logic().config().name + " has " +
                         std::to_string(caches_[i]->logic().config().line) + " B lines, the directory " +
                         std::to_string(unit) + " B): run it with core.cores = 1 or equal lines");
    coherence_->keep_data();
  }
  if (k < caches_.size()) coherence_->set_below(&caches_[k]->logic());
  else coherence_->set_below(&dram_->port());
  std::vector<CacheLevel*> all_private;  // every core's, for an inclusive shared level's back-invalidations
  for (uint32_t c = 0; c < cores; ++c) {
    std::vector<CacheLevel*> chain;
    for (size_t i = 0; i < k; ++i) {
      CacheLevel& l = caches_[i]->instance(c);
      coherence_->add_level(CoreId(c), &l);
      if (i + 1 < k) l.connect_below(&caches_[i + 1]->instance(c));
      else l.connect_below(&coherence_->port(CoreId(c)));
      chain.push_back(&l);
    }
    link_levels_above(chain);
    all_private.insert(all_private.end(), chain.rbegin(), chain.rend());
  }
  for (size_t i = k; i < caches_.size(); ++i) {
    std::vector<CacheLevel*> above = all_private;
    for (size_t j = k; j < i; ++j) above.insert(above.begin(), &caches_[j]->logic());
    caches_[i]->logic().set_levels_above(above);
  }
}

System::~System() = default;

// The directory's counters, per core and summed, the shared traffic each
// core caused, and the lines with the most false-sharing invalidations.
void System::report_coherence(StatsNode& root, const TagNames& names, const std::string& source,
                              double seconds) const {
  const double period = 1e15 / config_.clock_hz;
  auto counters = [&](StatsNode& n, const CoherenceCounters& k) {
#define PTOSIM_COHERENCE_SET(field, key) n.set(key, k.field);
    PTOSIM_COHERENCE_COUNTS(PTOSIM_COHERENCE_SET)
#undef PTOSIM_COHERENCE_SET
    n.set("bandwidth_bytes_per_s", seconds > 0 ? double(k.bytes_below) / seconds : 0.0)
        .set("stall_cycles", uint64_t(std::llround(double(k.stall_fs) / period)));
  };
  StatsNode& n = root.child("coherence", NodeKind::Object);
  n.set("protocol", std::string("mesi"));
  n.set("private_levels", uint64_t(config_.private_levels()));
  n.set("latency_cycles", uint64_t(config_.coherence_latency()));
  counters(n, coherence_->total());
  n.set("directory_utilization", seconds > 0 ? fs_to_seconds(coherence_->busy_fs()) / seconds : 0.0);
  StatsNode& list = n.child("per_core", NodeKind::List);
  for (uint32_t c = 0; c < coherence_->cores(); ++c)
    counters(list.child("core" + std::to_string(c), NodeKind::Row), coherence_->counters(CoreId(c)));
  StatsNode& fs = n.child("false_sharing", NodeKind::List);
  const uint64_t line_bytes = coherence_->line_bytes();
  for (const SharedLine& s : coherence_->false_sharing(10)) {
    std::ostringstream addr;
    addr << "0x" << std::hex << s.line * line_bytes;
    std::string tensors, sites;
    for (TagId t : s.tensors)
      tensors += (tensors.empty() ? "" : ", ") + (t < names.tensors.size() ? names.tensors[t] : "#" + std::to_string(t));
    for (SiteId id : s.sites) {
      const uint32_t line = id < names.site_lines.size() ? names.site_lines[id] : 0;
      if (line) sites += (sites.empty() ? "" : ", ") + source + ":" + std::to_string(line);
    }
    fs.child(addr.str(), NodeKind::Row)
        .set("false_sharing_invalidations", s.false_invalidations)
        .set("true_sharing_invalidations", s.true_invalidations)
        .set("tensors", tensors)
        .set("program_lines", sites);
  }
}

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
    r.per_core.resize(std::max<uint32_t>(config_.core.count, 1));
    for (auto& c : caches_) {
      below = below || c->logic().config().name == t;
      if (!below) continue;
      r.levels.push_back(&c->logic());
      // A private level: each core reads its own instance.
      for (size_t k = 0; k < r.per_core.size(); ++k)
        r.per_core[k].push_back(c->instances() > 1 ? &c->instance(k) : &c->logic());
    }
    for (size_t i = 0; i < memories_.size(); ++i) {
      if (memories_[i]->config().name != t) continue;
      r.store = i + 1;
      r.last = t;
      if (auto* cm = dynamic_cast<ConstantModule*>(memories_[i].get()))
        if (cm->cache()) {
          r.levels.push_back(cm->cache());
          for (auto& levels : r.per_core) levels.push_back(cm->cache());
        }
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
    for (auto& m : memories_) probed.push_back({m->name(), kMemoryKinds.name(m->config().kind), {&m->stats()}});
    for (auto& c : caches_) {
      probed.push_back({c->name(), "cache", {}});
      for (size_t k = 0; k < c->instances(); ++k) probed.back().stats.push_back(&c->instance(k).stats());
    }
    probed.push_back({dram_->name(), "dram", {&dram_->stats()}});
    attribution_ = std::make_unique<Attribution>(options.attribution, 1e15 / config_.clock_hz, std::move(probed),
                                                 config_.space_names(), std::max<uint32_t>(config_.core.count, 1),
                                                 &core_->names_for_attribution());
    if (ChoiceLists::has_trait(concepts::kDramTiming, config_.dram.timing, traits::kBanked)) attribution_->set_row_counter([this] { return dram_->row_counts(); });
    core_->set_attribution(attribution_.get());
  }
  if (options.sample) start_sampling(*options.sample, options);
  if (options.warm_before_compute) start_warm_prefix();
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

  std::vector<SampleEstimate> estimates;
  if (options.sample) estimates = sample_estimates(*options.sample);
  StatsNode root = assemble(options.source, core_->interrupted(), estimates.empty() ? 0 : estimates.front().estimate);
  if (options.sample) report_sample(root, *options.sample, estimates);
  if (attribution_) attribution_->report(root);
  if (checker) {
    root.child("data_check", NodeKind::DataCheck)
        .set("reads_checked", checker->reads_checked())
        .set("tensors_compared", checker->tensors_compared());
  }
  return root;
}

StatsNode System::assemble(const std::string& source, bool interrupted, double cycles_estimate) const {
  const double cycles = cycles_estimate > 0 ? cycles_estimate : core_->cycles();
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
  // Every core computes: the machine's peak (pto.parallel spreads the flops over them).
  in.peak_flops_per_s = config_.core.flops_per_cycle * config_.clock_hz * std::max<uint32_t>(config_.core.count, 1);
  in.peak_dram_bandwidth = dram_->peak_bandwidth();
  in.dirty_bytes_at_end = dirty_bytes();
  StatsNode root = make_run_report(in, std::move(core_parent.children.front()), std::move(levels));
  if (coherence_) report_coherence(root, names, source, seconds);
  return root;
}

uint64_t System::dirty_bytes() const {
  // Every cache's dirty lines as byte ranges, merged: a line dirty in L1 and
  // L2 (or in two cores' L1s) is one write back to memory, not two.
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (auto& c : caches_)
    for (size_t k = 0; k < c->instances(); ++k) {
      const uint64_t line = c->instance(k).config().line;
      for (uint64_t l : c->instance(k).dirty_lines_unordered()) ranges.emplace_back(l * line, l * line + line);
    }
  std::sort(ranges.begin(), ranges.end());
  uint64_t bytes = 0, end = 0;
  for (auto [b, e] : ranges) {
    if (b < end) b = end;
    if (e > b) bytes += e - b;
    end = std::max(end, e);
  }
  return bytes;
}

StatsNode System::snapshot() const { return assemble(source_, false); }

}  // namespace ptosim
