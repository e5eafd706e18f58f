#pragma once
// The core: consumes the event stream and keeps the clock. Accesses issue at
// `issue_width` per cycle; an access that misses its first level holds one of
// `max_outstanding` slots until its data returns, and a new access waits only
// when every slot is held and it would miss too. Compute takes
// flops / flops_per_cycle cycles of issue time while misses stay in flight.
//
// With `core.cores` > 1 each core has its own issue slots, miss window and
// clock (an event names its core); they share the hierarchy, and a barrier
// brings every core to the time the last one is done. Between the barriers
// of a parallel loop the stream holds one core's iteration after another's,
// so events are queued per core and issued in the order of the cores'
// clocks: the shared ports ("busy until") then see requests in time order,
// not in stream order. Queues hold at most kLookahead events in all; past
// that the earliest queued core issues even if another core's queue is empty.
//
// With `core.model: cpu` each core's time comes from a CpuPipeline instead
// (an out-of-order window with dependences, models/timing/cpu_pipeline.h):
// events are numbered as they arrive, which is how their dependences name
// each other, and every access goes through it one line at a time.
//
// Time is kept in integer femtoseconds (SystemC's resolution here) and turned
// into sc_time only at TLM calls; the first cache level of a space is called
// directly (as a DMI-style fast path) because the core talks to it on every
// access, while everything below it, and scratchpads, go through TLM sockets.
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "sim/report/level_report.h"
#include "models/timing/core_clock.h"
#include "models/timing/cpu_pipeline.h"
#include "models/tlm/access_tags.h"
#include "models/tlm/target_base.h"
#include "sim/config/hw_config.h"
#include "sim/trace/event.h"

namespace ptosim {

class CacheModule;
class CacheLevel;
class Attribution;

class CoreModule : public sc_core::sc_module, public EventSink, public LtInitiator {
 public:
  using Producer = std::function<void(EventSink&)>;
  SC_HAS_PROCESS(CoreModule);
  CoreModule(sc_core::sc_module_name name, const HwConfig& config, size_t ports);

  // Routes a space to port `port`; `first_level` (may be null) is the cache
  // the space enters through: accesses are split by its line, probed when the
  // window is full, and sent to it directly.
  void route(SpaceId space, const std::string& space_name, size_t port, CacheModule* first_level);
  tlm::tlm_initiator_socket<>& port(size_t i) { return *ports_[i]; }

  void set_producer(Producer p) { producer_ = std::move(p); }
  void set_finisher(std::function<void(const sc_core::sc_time& at)> f) { finisher_ = std::move(f); }

  void access(const Access& a) override;
  void accesses(const Access* a, size_t n) override;
  void compute(const Compute& c) override;
  void barrier(bool parallel) override;
  static constexpr size_t kLookahead = 1 << 18;
  void name_tensor(TagId id, const std::string& n) override { TagNames::put(names_.tensors, id, n); }
  void name_region(TagId id, const std::string& n) override { TagNames::put(names_.regions, id, n); }
  void name_site(SiteId id, uint32_t line) override;
  void name_op(uint16_t id, const std::string& name) override;
  void op_mark(uint16_t id, bool begin, CoreId core) override;
  void footprint(SpaceId space, uint64_t bytes) override;
  // Per-line / per-epoch / timeline attribution (null: off, and no cost).
  void set_attribution(Attribution* a) { attr_ = a; }
  TagNames& names_for_attribution() { return names_; }

  std::exception_ptr error() const { return error_; }
  const TagNames& names() const { return names_; }
  double cycles() const;
  void report(StatsNode& run) const;

 private:
  struct Route {
    tlm::tlm_initiator_socket<>* socket = nullptr;
    CacheLevel* cache = nullptr;  // the level inside the first CacheModule, called directly
    uint64_t split = 0;  // line size of `cache`; 0 = send whole (scratchpads take bulk transfers)
    bool reg = false;    // served by a register file (the cpu model treats its values as registers)
    std::string space;
  };
  void run();
  CoreClock& clock(CoreId core);
  struct Queued {
    enum Kind : uint8_t { AccessEvent, ComputeEvent, OpBegin, OpEnd } kind;
    Access access;
    Compute compute;   // a mark's op id and core too
    uint32_t seq = 0;  // the event's number (cpu model)
  };
  // Parallel section: queue, then issue what the cores' clocks order allows
  // (everything, with `drain`).
  void enqueue(const Queued& q);
  void schedule(bool drain);
  void issue_now(const Access& a, uint32_t seq);
  void compute_now(const Compute& c, uint32_t seq);
  const Route& route_of(const Access& a) const;
  // The cpu model's paths (cpu_ non-empty).
  void cpu_access(const Access& a, uint32_t seq);
  uint64_t cpu_memory(const Route& r, CoreClock& k, const Access& a, uint64_t addr, uint64_t bytes, bool write,
                      uint64_t t);
  void issue_runs(const Access* a, size_t n);
  // With attribution: runs of one site / region / core, cut at epoch ends
  // (the `cpu` core model issues a run's events one by one).
  void accesses_attributed(const Access* a, size_t n);
  size_t issue_some(const Access* a, size_t n);
  size_t issue_each(const Access* a, size_t n);
  void issue_attributed(const Access& a, uint32_t seq);
  void compute_attributed(const Compute& c, uint32_t seq);
  void issue_cached(const Route& r, CoreClock& clock, uint64_t addr, uint64_t bytes, bool write, TagId tensor,
                    TagId region);
  // Sends one access down a TLM route at time t (syncing first); the
  // payload answers, `delay_out` (if given) the delay it came back with.
  tlm::tlm_generic_payload& transport(const Route& r, const Access& a, bool write, uint64_t t,
                                      sc_core::sc_time* delay_out = nullptr);
  void issue_tlm(const Route& r, CoreClock& clock, const Access& a, bool write);
  void sync(uint64_t t);

  const HwConfig& config_;
  std::vector<std::unique_ptr<tlm::tlm_initiator_socket<>>> ports_;
  std::vector<Route> routes_;
  Producer producer_;
  std::function<void(const sc_core::sc_time&)> finisher_;
  std::exception_ptr error_;
  TagNames names_;
  TaggedPayload payload_;

  double period_fs_;
  uint64_t quantum_fs_;
  uint64_t now_fs_ = 0;       // sc_time_stamp() in fs, refreshed after each wait
  std::vector<CoreClock> clocks_;  // one per core
  std::vector<std::unique_ptr<CpuPipeline>> cpu_;  // one per core with `core.model: cpu`, else none
  uint32_t seq_ = 0;               // events received (cpu model), the last one's number
  uint64_t barriers_ = 0;
  bool parallel_ = false;                    // inside a parallel loop: events are queued
  std::vector<std::deque<Queued>> queues_;   // per core
  size_t queued_ = 0;
  Attribution* attr_ = nullptr;
};

}  // namespace ptosim
