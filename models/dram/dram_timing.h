#pragma once
// How long DRAM takes to serve a request, as plain C++ (times in Fs, from
// the simulation's origin, like every model's clock). Implementations are picked by the
// config's `dram.timing` name through make_dram_timing().
#include <cstdint>
#include <memory>
#include <string>

#include "sim/common/registry.h"
#include "sim/common/time.h"
#include "sim/config/hw_config.h"
#include "sim/report/stats.h"

namespace ptosim {

class DramTiming {
 public:
  virtual ~DramTiming() = default;
  // A request arriving at `arrive`; returns when its data has been moved.
  virtual Fs access(Fs arrive, uint64_t addr, uint64_t bytes, bool write) = 0;
  virtual double peak_bandwidth() const = 0;  // bytes / s
  virtual Fs busy() const = 0;                // time the data bus(es) were moving data
  // What one line costs an idle DRAM: the flat cost a memory that only
  // knows "miss or hit" charges for a miss (a constant memory's own cache).
  virtual Fs idle_miss() const = 0;
  virtual void report(StatsNode& node, double seconds) const = 0;  // model-specific counters
  // Row-buffer outcomes so far (zero for models without rows): for figures over time.
  struct RowCounts { uint64_t hits = 0, misses = 0, conflicts = 0; };
  virtual RowCounts row_counts() const { return {}; }
  // Several cores (docs/TIMING.md, "Several cores"): requests then arrive
  // out of time order (a core whose clock lags reaches the DRAM after a
  // core far ahead), and each resource that keeps a "busy until" should
  // serve a late request in a free gap of its own time (busy_calendar.h)
  // instead of after the leading core's future. Called once, before the
  // first request; a model with no such resource needs nothing.
  virtual void serve_in_time_order() {}
};

using DramTimingFactory = std::unique_ptr<DramTiming> (*)(const DramConfig&);

// The concept's tag for PTOSIM_REGISTER (sim/common/registry.h).
struct DramModelConcept {
  using Factory = DramTimingFactory;
  static constexpr const char* kKind = concepts::kDramTiming;
};

// The factory of a model built from its config alone.
template <class T>
std::unique_ptr<DramTiming> make_dram(const DramConfig& config) {
  return std::make_unique<T>(config);
}

// The model the config's `dram.timing` names; each model registers itself
// in its own file (PTOSIM_REGISTER(DramModelConcept, ...)).
std::unique_ptr<DramTiming> make_dram_timing(const DramConfig& config);

}  // namespace ptosim
