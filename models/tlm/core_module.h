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
// The timing of an access or a compute event is the core model's
// (`core.model`, models/core/core_timing.h: `simple`, the default, above;
// `cpu`, an out-of-order window with dependences). With a dataflow model
// events are numbered as they arrive, which is how their dependences name
// each other, and every event goes to the model one at a time.
//
// Time is kept in integer femtoseconds (SystemC's resolution here) and turned
// into sc_time only at TLM calls; the first cache level of a space is called
// directly (as a DMI-style fast path) because the core talks to it on every
// access, while everything below it, and scratchpads, go through TLM sockets.
//
// With a DataChecker (--check-data) every access goes the slow way, one at a
// time with its bytes: writes store theirs, reads bring back what the
// hierarchy holds and the checker compares it (data_checker.h); host writes
// reach every copy (MemPort::poke, TLM transport_dbg). Without one, none of
// that is on the path.
//
// One class, its definitions in files by responsibility: core_module.cpp
// (the SystemC module: threads, syncs, event entry, TLM transport),
// core_routes.cpp (issuing to the levels), core_scheduler.cpp (parallel
// sections in clock order, barriers), core_check_data.cpp (--check-data),
// core_attribution.cpp (attribution hooks), core_report.cpp (the report).
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <systemc>
#include <tlm>
#include <vector>

#include "sim/report/level_report.h"
#include "sim/report/sampling.h"
#include "models/core/core_clock.h"
#include "models/core/core_timing.h"
#include "models/tlm/access_tags.h"
#include "models/tlm/block_queue.h"
#include "models/tlm/target_base.h"
#include "sim/config/hw_config.h"
#include "sim/trace/event.h"

namespace ptosim {

class CacheModule;
class CacheLevel;
class Attribution;
class DataChecker;

// Where a space's bytes live, for --check-data: the checker's store, the
// cache levels a read may be served by (nearest first), and the module
// below them (the DRAM, or the memory itself).
struct DataRoute {
  size_t store = 0;
  std::vector<const CacheLevel*> levels;
  // Per core: its levels (a private level's instance of that core's).
  std::vector<std::vector<const CacheLevel*>> per_core;
  const std::vector<const CacheLevel*>& levels_of(CoreId c) const {
    return c < per_core.size() ? per_core[c] : levels;
  }
  std::string last;
};

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

  // `same_thread`: run the producer on the simulation's own thread (a
  // BatchSink) instead of the event pipe's second thread; only for a
  // producer that never blocks for long (it cannot be stopped meanwhile).
  void set_producer(Producer p, bool same_thread = false) {
    producer_ = std::move(p);
    producer_same_thread_ = same_thread;
  }
  void set_finisher(std::function<void(const sc_core::sc_time& at)> f) { finisher_ = std::move(f); }
  // --check-data: one route per space id.
  void check_data(DataChecker* checker, std::vector<DataRoute> routes) {
    checker_ = checker;
    data_routes_ = std::move(routes);
  }

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
  void host_write(const Access& a, const uint8_t* data) override;
  void expect(const Access& a, const uint8_t* data) override;
  void position(const std::string& file, int line, int col) override;
  void write_data(const uint8_t* data, size_t n) override;

  // run --sample (core_sampling.cpp): accesses follow `p`'s schedule;
  // `probe` writes the headline totals so far (System picks them), read at
  // each measured unit's start and end. One core, no dataflow model, no
  // --check-data, no attribution (System::run refuses them first).
  void set_sampling(const SampleParams& p, std::function<void(std::vector<double>&)> probe);
  // After the run: each complete measured unit's deltas of the probe's
  // totals and its accesses, and the accesses of the whole stream (line
  // requests of the first level: SampleSchedule).
  const std::vector<std::vector<double>>& sample_units() const { return sample_units_; }
  const std::vector<double>& sample_weights() const { return sample_weights_; }  // each unit's accesses
  uint64_t stream_accesses() const { return sampler_ ? sampler_->position() : 0; }

  // run --warm-before-compute (tune's probes): the accesses before the
  // first compute event only warm the caches' contents (MemPort::warm): no
  // time, no counts. One core, no --check-data (System::run refuses them).
  void warm_until_compute() { warm_prefix_ = true; }

  std::exception_ptr error() const { return error_; }
  // True when a stop request (SIGINT/SIGTERM) ended the event stream early.
  bool interrupted() const { return interrupted_; }
  const TagNames& names() const { return names_; }
  double cycles() const;
  // Issue time spent on compute, every core (core.compute_cycles).
  double compute_cycles() const;
  void report(StatsNode& run) const;

 private:
  struct Route {
    tlm::tlm_initiator_socket<>* socket = nullptr;
    CacheLevel* cache = nullptr;  // the level inside the first CacheModule, called directly
    // A private first level of several cores: each core's instance (empty: `cache` for every core).
    std::vector<CacheLevel*> per_core;
    CacheLevel* cache_of(CoreId c) const { return per_core.empty() ? cache : per_core[c]; }
    uint64_t split = 0;  // line size of `cache`; 0 = send whole (scratchpads take bulk transfers)
    bool reg = false;    // served by a register file (the cpu model treats its values as registers)
    std::string space;
  };
  void run();
  CoreClock& clock(CoreId core);
  // One queued event, as small as its larger half: a lookahead's worth of
  // them streams through the host's caches.
  struct Queued {
    enum Kind : uint8_t { AccessEvent, ComputeEvent, OpBegin, OpEnd } kind;
    bool host = false;  // --check-data: a host write (its bytes are queued beside)
    uint32_t seq = 0;   // the event's number (dataflow)
    union {
      Access access;     // AccessEvent
      Compute compute;   // the others (a mark's op id and core too)
    };
    Queued(Kind k, const Access& a, const Compute& c, uint32_t s) : kind(k), seq(s) {
      if (k == AccessEvent) new (&access) Access(a);
      else new (&compute) Compute(c);
    }
  };
  // --check-data: an access's or host write's bytes and position, in order.
  struct Pending {
    std::vector<uint8_t> bytes;
    uint32_t position = 0;
    uint32_t seq = 0;  // the event's number (dataflow)
  };
  void checked(const Access& a, bool host, const uint8_t* host_data);
  void issue_checked(const Access& a, bool host, Pending& p);
  // An invalidate record discarded cached bytes: the checker's shadow follows.
  void discard_data(const Access& a);
  const DataRoute& data_route(SpaceId space) const;
  // Parallel section: queue, then issue what the cores' clocks order allows
  // (everything, with `drain`).
  void enqueue(const Queued& q);
  void schedule(bool drain);
  void issue_queued(size_t core);  // the front of core's queue
  void issue_event(const Queued& q, size_t core);  // q of core's, off its queue
  void issue_now(const Access& a, uint32_t seq, uint8_t* data = nullptr);
  void compute_now(const Compute& c, uint32_t seq);
  const Route& route_of(const Access& a) const;
  class RoutePort;  // a route as the core model's CorePort
  void issue_runs(const Access* a, size_t n);
  void issue_every(const Access* a, size_t n);
  void sampled(const Access* a, size_t n);
  size_t warm(const Access* a, size_t n, uint64_t budget, uint64_t* counted);
  void warm_prefix(const Access* a, size_t n);
  void compute_skipped(const Compute& c);
  uint64_t sample_weight(const Access& a) const;
  static uint64_t sample_weight(const Route& r, const Access& a);  // a non-control access's
  // With attribution: runs of one site / region / core, cut at epoch ends
  // (the `cpu` core model issues a run's events one by one).
  void accesses_attributed(const Access* a, size_t n);
  size_t issue_some(const Access* a, size_t n);
  size_t issue_each(const Access* a, size_t n);
  template <class Issue>
  void one_attributed(SiteId site, TagId region, CoreId core, uint64_t events, uint64_t flops, Issue&& issue);
  void compute_attributed(const Compute& c, uint32_t seq);
  void issue_cached(const Route& r, CoreClock& clock, uint64_t addr, uint64_t bytes, bool write, TagId tensor,
                    TagId region, uint8_t* data);
  // Sends one access down a TLM route at time t (syncing first) with its
  // bytes (`data`, --check-data; else null); the payload answers,
  // `delay_out` (if given) the delay it came back with.
  tlm::tlm_generic_payload& transport(const Route& r, const Access& a, bool write, uint64_t t, uint8_t* data,
                                      sc_core::sc_time* delay_out = nullptr);
  // Lets the kernel catch up when t is a quantum past it (inline: every
  // access the core model sends asks, and almost none has to wait).
  void sync(uint64_t t) {
    if (t > now_fs_ && t - now_fs_ > quantum_fs_) [[unlikely]]
      catch_up(t);
  }
  void catch_up(uint64_t t);

  const HwConfig& config_;
  std::vector<std::unique_ptr<tlm::tlm_initiator_socket<>>> ports_;
  std::vector<Route> routes_;
  Producer producer_;
  bool producer_same_thread_ = false;
  std::function<void(const sc_core::sc_time&)> finisher_;
  std::exception_ptr error_;
  bool interrupted_ = false;
  TagNames names_;
  TaggedPayload payload_;

  double period_fs_;
  uint64_t quantum_fs_;
  uint64_t now_fs_ = 0;       // sc_time_stamp() in fs, refreshed after each wait
  std::vector<CoreClock> clocks_;  // one per core
  std::unique_ptr<CoreTiming> model_;  // core.model, for every core
  bool dataflow_ = false;              // the model takes numbered events one by one
  bool every_ = false;                 // the model takes every access itself (no CacheLevel::run)
  uint32_t seq_ = 0;               // events received (cpu model), the last one's number
  uint64_t barriers_ = 0;
  bool parallel_ = false;                    // inside a parallel loop: events are queued
  BlockQueue<Queued>::Pool queue_blocks_;         // the queues' blocks
  std::vector<BlockQueue<Queued>> queues_;   // per core
  size_t queued_ = 0;
  size_t empty_queues_ = 0;  // of queues_ (set with them)
  // schedule()'s choice, kept while no queue empties or fills: the earliest
  // core (kNoCore: none chosen) issues while its clock is below `lower_`
  // (the earliest of the lower-numbered cores with events queued) and not
  // above `higher_` (of the higher-numbered ones).
  static constexpr size_t kNoCore = ~size_t(0);
  size_t next_ = kNoCore;
  uint64_t lower_ = 0, higher_ = 0;
  // The chosen core whose queue ran empty while its clock was still within
  // the bounds (kNoCore: none): lower_ and higher_ still bound the other
  // cores, so when its next event comes it is chosen again without a scan
  // (a core whose events arrive one by one past the lookahead; see schedule()).
  size_t emptied_ = kNoCore;
  Attribution* attr_ = nullptr;
  DataChecker* checker_ = nullptr;
  std::vector<DataRoute> data_routes_;
  std::vector<std::deque<Pending>> pending_;  // per core, beside queues_ (data of its accesses)
  std::vector<uint8_t> read_buf_;
  Pending scratch_;
  bool memory_used_ = false;
  bool warm_prefix_ = false;  // until the first compute event (warm_until_compute)
  std::unique_ptr<SampleSchedule> sampler_;  // run --sample; null: every access in detail
  SampleParams sample_params_;
  std::function<void(std::vector<double>&)> sample_probe_;
  std::vector<double> sample_at_start_, sample_now_;
  std::vector<std::vector<double>> sample_units_;
  std::vector<double> sample_weights_;
  bool in_unit_ = false;   // inside a measured unit (its start read)
  uint64_t unit_from_ = 0;  // where it started  // --check-data: whether the access reached the memory (not forwarded)
};

}  // namespace ptosim
