#pragma once
// Builds the SystemC model of a config (core, scratchpads, caches, DRAM),
// runs one event stream through it and returns the stats tree. One System
// per process: SystemC elaborates a single simulation.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/attribution/attribution.h"
#include "sim/config/hw_config.h"
#include "sim/report/sampling.h"
#include "sim/report/stats.h"
#include "sim/trace/event.h"

namespace ptosim {

class Coherence;
struct TagNames;
class CoreModule;
class DataChecker;
class CacheModule;
class DramModule;
class MemoryModule;

struct RunOptions {
  bool flush = false;       // write back every dirty line at the end
  std::string source;       // what produced the events (trace file, program)
  AttributionOptions attribution;  // per line, epochs, timeline (all off by default)
  // With a System built for --check-data: whether the writes' bytes come
  // with the events (a program) or are made up (a trace).
  bool data_in_stream = false;
  // Run the producer on the simulation's thread rather than on a second one
  // (CoreModule::set_producer): for a reader of a regular file, which never
  // waits for its input, and for `run --single-thread` (sweeps running
  // several points at once, where a second thread per run only adds the
  // cost of handing events over).
  bool producer_same_thread = false;
  // run --sample (docs/SAMPLING.md): measure units of the stream, warm
  // between them; null: every access in detail.
  const SampleParams* sample = nullptr;
  // run --warm-before-compute: the accesses before the first compute event
  // only warm the caches (tune's probes: a prefix the same for every tile).
  bool warm_before_compute = false;
};

class System {
 public:
  // `check_data`: memories carry bytes and run() checks every load and, after
  // a flush it then always does, the memories (docs/CACHES.md); a mismatch
  // is a DataCheckError.
  explicit System(const HwConfig& config, bool check_data = false);
  ~System();
  // Runs `producer` on the core's thread (it pushes events into the sink).
  // Rethrows whatever the producer threw. Returns the stats tree.
  StatsNode run(const std::function<void(EventSink&)>& producer, const RunOptions& options);
  // During run(), from the producer's thread while the core waits for
  // events (pipe::PipeWriter::settle): the report of what was simulated so
  // far (header, core, levels; no attribution), for pto.MemoryProfiler.
  StatsNode snapshot() const;
  // After run() with options.attribution.timeline: the trace-event JSON.
  std::string timeline_json(const std::string& source, const std::vector<std::string>& lines = {}) const;

 private:
  void run_kernel();  // sc_start() on a thread of its own (see system.cpp)
  // The header, core and levels of the report, as far as the run has come.
  // `cycles_estimate` (> 0): a sampled run's estimate in place of the core's.
  StatsNode assemble(const std::string& source, bool interrupted, double cycles_estimate = 0) const;
  // Bytes of the caches' dirty lines, each address once (the report's dirty_bytes_at_end).
  uint64_t dirty_bytes() const;
  // --check-data: the checker of one run, its stores and routes given to the core.
  std::unique_ptr<DataChecker> make_checker(const RunOptions& options);
  // True for a cache named by a memory's `backing:` and by no space.
  bool private_cache(const std::string& cache) const;
  // Several cores: per-core instances of the first k levels and their directory.
  void build_private_levels(size_t k);
  // run --sample: refuses what sampling does not model (InputError), gives
  // the core its schedule and the probe of the headline totals.
  void start_sampling(const SampleParams& p, const RunOptions& options);
  // The probe's metric names and its totals now (cycles, each cache level's
  // demand misses, DRAM bytes).
  std::vector<std::string> sample_metrics() const;
  // run --warm-before-compute: refuses several cores and --check-data.
  void start_warm_prefix();
  void sample_totals(std::vector<double>& out) const;
  // After a sampled run: the estimated cycles (for assemble), then the
  // estimates and intervals into the report.
  std::vector<SampleEstimate> sample_estimates(const SampleParams& p) const;
  void report_sample(StatsNode& root, const SampleParams& p, const std::vector<SampleEstimate>& e) const;
  void report_coherence(StatsNode& root, const TagNames& names, const std::string& source, double seconds) const;

  HwConfig config_;
  bool check_data_;
  std::unique_ptr<CoreModule> core_;
  std::vector<std::unique_ptr<MemoryModule>> memories_;
  std::vector<std::unique_ptr<CacheModule>> caches_;
  std::unique_ptr<DramModule> dram_;
  std::unique_ptr<Coherence> coherence_;  // null unless several cores have private levels
  std::unique_ptr<Attribution> attribution_;
  std::string source_;  // RunOptions::source of the run under way
};

}  // namespace ptosim
