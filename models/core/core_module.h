#pragma once
// The core: consumes the event stream and keeps the clock. Accesses issue at
// `issue_width` per cycle; an access that misses its first level holds one of
// `max_outstanding` slots until its data returns, and a new access waits only
// when every slot is held and it would miss too. Compute takes
// flops / flops_per_cycle cycles of issue time while misses stay in flight.
#include <exception>
#include <functional>
#include <memory>
#include <queue>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/cache/cache_level.h"
#include "models/cache/level_report.h"
#include "models/system/access_tags.h"
#include "models/system/target_base.h"
#include "sim/trace/event.h"

namespace ptosim {

class CoreModule : public sc_core::sc_module, public EventSink, public LtInitiator {
 public:
  using Producer = std::function<void(EventSink&)>;
  SC_HAS_PROCESS(CoreModule);
  CoreModule(sc_core::sc_module_name name, const HwConfig& config, size_t ports);

  // Routes a space to port `port`. `first_level` (may be null) is the cache the
  // space enters through: accesses are split by its line and probed when the
  // window is full.
  void route(SpaceId space, const std::string& space_name, size_t port, const CacheLevel* first_level,
             sc_core::sc_time hit_latency);
  tlm::tlm_initiator_socket<>& port(size_t i) { return *ports_[i]; }

  void set_producer(Producer p) { producer_ = std::move(p); }
  void set_finisher(std::function<void(const sc_core::sc_time& at)> f) { finisher_ = std::move(f); }

  void access(const Access& a) override;
  void compute(const Compute& c) override;
  void name_tensor(TagId id, const std::string& n) override { TagNames::put(names_.tensors, id, n); }
  void name_region(TagId id, const std::string& n) override { TagNames::put(names_.regions, id, n); }

  // After the run: the producer's exception, if it threw.
  std::exception_ptr error() const { return error_; }
  const TagNames& names() const { return names_; }
  double cycles() const;
  void report(StatsNode& run) const;

 private:
  struct Route {
    tlm::tlm_initiator_socket<>* socket = nullptr;
    const CacheLevel* probe = nullptr;
    uint32_t split = 0;  // 0 = send whole (scratchpads take bulk transfers)
    sc_core::sc_time hit_latency;
    std::string space;
  };
  void run();
  void issue(const Route& r, uint64_t addr, uint64_t bytes, bool write, TagId tensor, TagId region);

  const HwConfig& config_;
  std::vector<std::unique_ptr<tlm::tlm_initiator_socket<>>> ports_;
  std::vector<Route> routes_;
  Producer producer_;
  std::function<void(const sc_core::sc_time&)> finisher_;
  std::exception_ptr error_;
  TagNames names_;
  TaggedPayload payload_;

  sc_core::sc_time period_, issue_interval_, quantum_;
  sc_core::sc_time issue_at_ = sc_core::SC_ZERO_TIME;  // absolute time of the next issue slot
  sc_core::sc_time end_ = sc_core::SC_ZERO_TIME;       // latest completion seen
  std::priority_queue<sc_core::sc_time, std::vector<sc_core::sc_time>, std::greater<sc_core::sc_time>> window_;
  uint32_t max_outstanding_;
  uint64_t accesses_ = 0, reads_ = 0, writes_ = 0, flops_ = 0, window_stalls_ = 0;
  sc_core::sc_time compute_time_ = sc_core::SC_ZERO_TIME, stall_time_ = sc_core::SC_ZERO_TIME;
};

}  // namespace ptosim
