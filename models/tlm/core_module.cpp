#include "models/tlm/core_module.h"

#include <cmath>
#include <sstream>

#include "models/attribution/attribution.h"
#include "models/cache/data_checker.h"
#include "models/tlm/cache_module.h"
#include "sim/common/error.h"
#include "sim/common/run_control.h"
#include "sim/common/time_limits.h"
#include "sim/common/units.h"
#include "sim/trace/batch_sink.h"
#include "sim/trace/event_pipe.h"

namespace ptosim {

using sc_core::sc_time;

CoreModule::CoreModule(sc_core::sc_module_name name, const HwConfig& config, size_t ports)
    : sc_module(name), config_(config) {
  for (size_t i = 0; i < ports; ++i) {
    ports_.push_back(std::make_unique<tlm::tlm_initiator_socket<>>(sc_core::sc_gen_unique_name("port")));
    ports_.back()->bind(*this);
  }
  period_fs_ = 1e15 / config.clock_hz;
  quantum_fs_ = 10'000'000'000ull;  // 10 us: sync with the kernel this rarely
  const uint32_t cores = std::max<uint32_t>(config.core.count, 1);
  clocks_.reserve(cores);
  queues_.resize(cores);
  empty_queues_ = cores;
  pending_.resize(cores);
  for (uint32_t i = 0; i < cores; ++i) {
    clocks_.emplace_back(config.core.max_outstanding, CoreId(i));
    clocks_.back().interval_fs = uint64_t(std::llround(period_fs_ / config.core.issue_width));
    clocks_.back().sync_at = quantum_fs_;
  }
  model_ = make_core_timing(config.core, period_fs_, cores);
  dataflow_ = config.core.dataflow();
  every_ = config.core.every_access();
  SC_THREAD(run);
  // Interpreters recurse: give the thread a deep stack (reserved, not committed).
  set_stack_size(256 * 1024 * 1024);
}

void CoreModule::route(SpaceId space, const std::string& space_name, size_t port, CacheModule* first_level) {
  if (space >= routes_.size()) routes_.resize(size_t(space) + 1);
  Route& r = routes_[space];
  r.socket = ports_.at(port).get();
  r.cache = first_level ? &first_level->logic() : nullptr;
  r.per_core.clear();
  if (first_level && first_level->instances() > 1)
    for (size_t c = 0; c < first_level->instances(); ++c) r.per_core.push_back(&first_level->instance(c));
  r.split = first_level ? first_level->logic().config().line : 0;
  r.space = space_name;
  auto target = config_.spaces.find(space_name);
  const MemoryConfig* m = target == config_.spaces.end() ? nullptr : config_.memory(target->second);
  r.reg = m && m->kind == MemoryKind::Register;
}

void CoreModule::run() {
  try {
    if (producer_ && producer_same_thread_) {
      // The producer runs here, its events delivered as it makes them. Its
      // error is kept as a value (as the pipe's is) until the events before
      // it have been delivered.
      BatchSink batch(*this, run_control::stop_requested);
      std::exception_ptr producer_error;
      try {
        try {
          producer_(batch);
        } catch (const pipe::Abandoned&) {
          throw;
        } catch (...) {
          producer_error = std::current_exception();
        }
        batch.flush();
      } catch (const pipe::Abandoned&) {
        interrupted_ = true;  // the events not delivered yet stay unsimulated
      }
      if (producer_error) {
        error_ = producer_error;
        return;
      }
    } else if (producer_) {
      // The producer runs on a thread of its own; this thread simulates.
      EventPipe pipe(producer_);
      // The producer's error comes back as a value, not thrown here on the
      // SystemC coroutine (google/sanitizers#189); System::run rethrows it.
      std::exception_ptr producer_error;
      interrupted_ = !pipe.drain(*this, run_control::stop_requested, &producer_error);
      if (producer_error) {
        error_ = producer_error;
        return;
      }
    }
    schedule(true);  // a stream that ended inside a parallel loop
    for (CoreClock& k : clocks_) model_->settle(k);
    uint64_t last = now_fs_;
    for (const CoreClock& k : clocks_) last = std::max(last, k.issue_at);
    if (attr_) {
      uint64_t idle = last;
      for (const CoreClock& k : clocks_) idle = std::max(idle, k.idle_at());
      attr_->finish(idle);
    }
    // An interrupted run reports what it simulated: no flush it never reached.
    if (finisher_ && !interrupted_) finisher_(sc_time::from_value(last - now_fs_));
  } catch (...) {
    error_ = std::current_exception();
  }
  // Returning ends the simulation: nothing else is scheduled.
}

void CoreModule::sync(uint64_t t) {
  // Temporal decoupling: the kernel's clock catches up once per quantum
  // (with several cores, to the one furthest ahead; the others run behind
  // the kernel's time, as loosely timed initiators may).
  if (t > now_fs_ && t - now_fs_ > quantum_fs_) {
    // Each step is at most 2^56 fs (the config loader sees to it), so time
    // passes this bound here, once a quantum, well before it could wrap.
    if (t > time_limits::kMaxRunFs)
      throw InputError("pto-sim: the simulated time passed 2^63 fs (about 2.56 hours at " +
                       units::format_frequency(config_.clock_hz) + "), the longest the model can count");
    wait(sc_time::from_value(t - now_fs_));
    now_fs_ = sc_core::sc_time_stamp().value();
    for (CoreClock& k : clocks_) k.sync_at = now_fs_ + quantum_fs_;
    run_control::counters().sim_fs.store(now_fs_, std::memory_order_relaxed);
  }
}

CoreClock& CoreModule::clock(CoreId core) {
  if (core >= clocks_.size()) {
    std::ostringstream m;
    m << "access by core " << unsigned(core) << " but the config has " << clocks_.size() << " core(s)";
    throw InputError(m.str());
  }
  return clocks_[core];
}

void CoreModule::access(const Access& a) {
  if (checker_ && !is_control(a.kind)) return checked(a, false, nullptr);
  // A copyback or invalidate record is no instruction: it takes no event number.
  const uint32_t seq = !dataflow_ || is_control(a.kind) ? 0 : ++seq_;
  if (parallel_) return enqueue(Queued{Queued::AccessEvent, a, Compute{}, seq});
  issue_now(a, seq);
}

// ---- --check-data ----

void CoreModule::checked(const Access& a, bool host, const uint8_t* host_data) {
  clock(a.core);  // a core the config does not have is an error before anything is queued
  Pending& p = parallel_ ? pending_[a.core].emplace_back() : scratch_;  // scratch_: no allocation per access
  p.position = checker_->current_position();
  if (host) p.bytes.assign(host_data, host_data + a.bytes);
  else if (a.kind == AccessKind::Write || a.kind == AccessKind::Fill) checker_->take_write(a, p.bytes);
  p.seq = host || !dataflow_ ? 0 : ++seq_;  // host writes are not events of the program
  if (!parallel_) return issue_checked(a, host, p);
  Queued q{Queued::AccessEvent, a, Compute{}, p.seq};
  q.host = host;
  enqueue(q);
}

const DataRoute& CoreModule::data_route(SpaceId space) const {
  if (space >= data_routes_.size() || space >= routes_.size() || !routes_[space].socket) {
    std::ostringstream m;
    m << "access to space id " << space << " which this config does not map";
    throw InputError(m.str());
  }
  return data_routes_[space];
}

void CoreModule::issue_checked(const Access& a, bool host, Pending& p) {
  checker_->set_position(p.position);
  const DataRoute& d = data_route(a.space);
  if (host) {
    model_->settle(clock(a.core));  // the program's stores before it land first
    checker_->wrote(d.store, a, p.bytes.data());
    const Route& r = routes_[a.space];
    if (!r.per_core.empty()) {  // a private first level: every core's copies take the bytes
      for (CacheLevel* l : r.per_core) l->poke(a.addr, a.bytes, p.bytes.data());
    } else if (r.cache) {
      r.cache->poke(a.addr, a.bytes, p.bytes.data());
    } else {
      tlm::tlm_generic_payload& t = payload_.set(a.addr, a.bytes, true, a.tensor, a.region);
      t.set_data_ptr(p.bytes.data());
      (*r.socket)->transport_dbg(t);
      t.set_data_ptr(nullptr);
    }
    return;
  }
  if (a.kind == AccessKind::Write || a.kind == AccessKind::Fill) {
    checker_->wrote(d.store, a, p.bytes.data());
    issue_now(a, p.seq, p.bytes.data());
  } else {
    // The first level that holds the first byte's line now serves it; the
    // ones before it miss and fill (a broken fill is in one of them).
    const std::vector<const CacheLevel*>& levels = d.levels_of(a.core);
    size_t server = 0;
    while (server < levels.size() && !levels[server]->contains(a.addr)) ++server;
    read_buf_.assign(a.bytes ? a.bytes : 1, 0);
    // The cpu model forwards a load (or a line of it) from its store queue
    // without a memory access: those bytes are the last store's.
    if (dataflow_) checker_->shadow_bytes(d.store, a, read_buf_.data());
    memory_used_ = false;
    issue_now(a, p.seq, read_buf_.data());
    const bool forwarded = dataflow_ && !memory_used_;
    if (!forwarded && !checker_->read_matches(d.store, a, read_buf_.data())) {
      std::string served = server < levels.size() ? levels[server]->config().name : d.last, missed;
      for (size_t i = 0; i < server; ++i) missed += (i ? ", " : "") + levels[i]->config().name;
      if (d.per_core.size() > 1) served += " of core " + std::to_string(a.core);
      if (!missed.empty()) served += " (missed in " + missed + ")";
      checker_->mismatch(a, read_buf_.data(), routes_[a.space].space, served);
    }
  }
  checker_->issued();
}

void CoreModule::discard_data(const Access& a) {
  const DataRoute& d = data_route(a.space);
  // Every level drops the line holding addr, each by its own line size
  // (powers of two, so the largest covers the others).
  uint64_t line = 1;
  const std::vector<const CacheLevel*>& levels = d.levels_of(a.core);
  for (const CacheLevel* l : levels) line = std::max<uint64_t>(line, l->config().line);
  const uint64_t at = a.bytes ? a.addr & ~(line - 1) : 0, bytes = a.bytes ? line : 0;
  const ByteStore* below = checker_->actual(d.store);
  checker_->discarded(d.store, at, bytes, [&](uint64_t addr) {
    uint8_t b = 0;
    for (const CacheLevel* l : levels)
      if (l->peek(addr, &b)) return b;
    if (below) below->read(addr, 1, &b);
    return b;
  });
}

void CoreModule::host_write(const Access& a, const uint8_t* data) {
  if (checker_) checked(a, true, data);
}

void CoreModule::expect(const Access& a, const uint8_t* data) {
  if (!checker_) return;
  for (CoreClock& k : clocks_) model_->settle(k);  // what it checks includes every store
  const DataRoute& d = data_route(a.space);
  checker_->expect(d.store, a, data, a.tensor < names_.tensors.size() ? names_.tensors[a.tensor] : "?",
                   routes_[a.space].space);
}

void CoreModule::position(const std::string& file, int line, int col) {
  if (checker_) checker_->position(file, line, col);
}

void CoreModule::write_data(const uint8_t* data, size_t n) {
  if (checker_) checker_->write_data(data, n);
}

const CoreModule::Route& CoreModule::route_of(const Access& a) const {
  if (a.space >= routes_.size() || !routes_[a.space].socket) {
    std::ostringstream m;
    m << "access to space id " << a.space << " which this config does not map";
    throw InputError(m.str());
  }
  return routes_[a.space];
}

// A route as a core model sees it: sends go to the first cache level
// directly (holding a slot of the core's miss window when they miss) or
// down the route's TLM socket, with the access's bytes (--check-data).
class CoreModule::RoutePort final : public CorePort {
 public:
  RoutePort(CoreModule& m, const Route& r, CoreClock& k, const Access& a, uint8_t* data)
      : m_(m), r_(r), k_(k), a_(a), data_(data), write_(a.kind == AccessKind::Write || a.kind == AccessKind::Fill) {
    line = r.split;
    reg = r.reg;
  }

  uint64_t send(uint64_t addr, uint64_t bytes, uint64_t* t) override {
    m_.memory_used_ = true;
    uint8_t* data = data_ ? data_ + (addr - a_.addr) : nullptr;
    if (r_.cache) {
      k_.window.retire(*t);
      m_.sync(*t);
      return r_.cache_of(k_.id)->issue(MemRequest{addr, bytes, write_, a_.tensor, a_.region, data, false, false, a_.site},
                                       t, k_.window, k_.stalls);
    }
    Access piece = a_;
    piece.addr = addr;
    piece.bytes = bytes;
    sc_time delay;
    tlm::tlm_generic_payload& trans = m_.transport(r_, piece, write_, *t, data, &delay);
    if (trans.get_response_status() != tlm::TLM_OK_RESPONSE) {
      std::ostringstream msg;
      msg << "write to read-only memory space '" << r_.space << "' at address 0x" << std::hex << a_.addr;
      throw InputError(msg.str());
    }
    return std::max<uint64_t>(*t, m_.now_fs_ + delay.value());
  }

  void count_only(uint64_t t) override {
    m_.memory_used_ = true;
    m_.transport(r_, a_, write_, t, data_);
  }

  std::unique_ptr<CorePort> retain(bool with_bytes) const override;
  bool holds(uint64_t addr) const override { return !r_.cache || r_.cache_of(k_.id)->contains(addr); }
  uint32_t ways() const override {
    if (!r_.cache) return 0;
    const CacheConfig& c = r_.cache->config();
    return uint32_t(c.ways ? c.ways : c.size / c.line);  // 0 ways: fully associative
  }
  uint64_t load_fills(uint64_t addr) override { return r_.cache ? r_.cache_of(k_.id)->read_fills(addr) : 0; }

 private:
  class Retained;
  CoreModule& m_;
  const Route& r_;
  CoreClock& k_;
  const Access& a_;  // the caller's: a port lives for one access (retain() copies)
  uint8_t* data_;
  bool write_;
};

// A store the core model sends later (the store queue's drain): it owns its
// access and bytes, so the per-access port above copies nothing.
class CoreModule::RoutePort::Retained final : public CorePort {
 public:
  Retained(CoreModule& m, const Route& r, CoreClock& k, const Access& a, const uint8_t* data)
      : a_(a),
        bytes_(data ? std::vector<uint8_t>(data, data + (a.bytes ? a.bytes : 1)) : std::vector<uint8_t>()),
        port_(m, r, k, a_, data ? bytes_.data() : nullptr) {
    line = port_.line;
    reg = port_.reg;
  }
  uint64_t send(uint64_t addr, uint64_t bytes, uint64_t* t) override { return port_.send(addr, bytes, t); }
  void count_only(uint64_t t) override { port_.count_only(t); }
  std::unique_ptr<CorePort> retain(bool with_bytes) const override { return port_.retain(with_bytes); }
  bool holds(uint64_t addr) const override { return port_.holds(addr); }
  uint32_t ways() const override { return port_.ways(); }
  uint64_t load_fills(uint64_t addr) override { return port_.load_fills(addr); }

 private:
  const Access a_;
  std::vector<uint8_t> bytes_;
  RoutePort port_;
};

std::unique_ptr<CorePort> CoreModule::RoutePort::retain(bool with_bytes) const {
  return std::make_unique<Retained>(m_, r_, k_, a_, with_bytes ? data_ : nullptr);
}

void CoreModule::issue_now(const Access& a, uint32_t seq, uint8_t* data) {
  if (is_control(a.kind)) {  // a copyback or invalidate record: the caches' business, not an access
    const Route& r = route_of(a);
    CoreClock& k = clock(a.core);
    model_->settle(k);  // the stores before it reach the caches first
    if (r.cache) {
      sync(k.issue_at);
      r.cache_of(k.id)->control(a.kind, a.addr, a.bytes, k.issue_at);
      if (checker_ && a.kind == AccessKind::Invalidate) discard_data(a);
    }
    return;
  }
  const Route& r = route_of(a);
  CoreClock& k = clock(a.core);
  RoutePort port(*this, r, k, a, data);
  model_->access(k, seq, a, port);
}

void CoreModule::accesses(const Access* a, size_t n) {
  if (attr_ && !parallel_) return accesses_attributed(a, n);
  if (checker_ || every_ || parallel_) {
    for (size_t i = 0; i < n; ++i) access(a[i]);
    return;
  }
  issue_runs(a, n);
}

void CoreModule::issue_runs(const Access* a, size_t n) {
  size_t i = 0;
  while (i < n) {
    // The first level of the access's space issues as many as it can.
    const SpaceId space = a[i].space;
    if (space < routes_.size() && routes_[space].cache && a[i].core < clocks_.size()) {
      i += routes_[space].cache_of(a[i].core)->run(a + i, n - i, space, clocks_[a[i].core]);
      if (i == n) break;
    }
    issue_now(a[i++], 0);  // anything else, and a sync with the kernel
  }
}

// One run() of the first level and, where it stopped, the next access by
// hand — unless it stopped at the end of a time epoch, which the caller
// closes first. Returns how many were issued.
size_t CoreModule::issue_some(const Access* a, size_t n) {
  const SpaceId space = a[0].space;
  size_t m = 0;
  if (space < routes_.size() && routes_[space].cache && a[0].core < clocks_.size()) {
    CoreClock& k = clocks_[a[0].core];
    const uint64_t boundary = attr_->next_boundary_fs();
    const uint64_t kernel = now_fs_ + quantum_fs_;
    k.sync_at = boundary - 1 < kernel ? boundary - 1 : kernel;
    m = routes_[space].cache_of(a[0].core)->run(a, n, space, k);
    k.sync_at = kernel;
    if (m == n) return m;
  }
  if (attr_->epoch_due(clock(a[m].core).issue_at)) return m;
  issue_now(a[m], 0);
  return m + 1;
}

// The cpu model's (and --check-data's) run: one event at a time, up to the
// end of a time epoch.
size_t CoreModule::issue_each(const Access* a, size_t n) {
  size_t m = 0;
  do access(a[m++]);
  while (m < n && !attr_->epoch_due(clock(a[m].core).issue_at));
  return m;
}

void CoreModule::accesses_attributed(const Access* a, size_t n) {
  size_t i = 0;
  while (i < n) {
    const Access& h = a[i];
    CoreClock& k = clock(h.core);
    attr_->close_epochs(k.issue_at);
    const size_t limit = size_t(std::min<uint64_t>(n - i, std::max<uint64_t>(attr_->events_left(), 1)));
    // Parallel sections take the queue; elsewhere the stream stays on one
    // core (a trace that switches cores without barriers has its other
    // cores' events counted, but their cycles not), so region and site cut.
    const uint32_t key = site_and_region(h);
    size_t j = 1;
    // Four at a time first: this scan is most of what attribution costs per access.
    const Access* b = a + i;
    while (j + 4 <= limit && ((site_and_region(b[j]) ^ key) | (site_and_region(b[j + 1]) ^ key) |
                              (site_and_region(b[j + 2]) ^ key) | (site_and_region(b[j + 3]) ^ key)) == 0)
      j += 4;
    while (j < limit && site_and_region(b[j]) == key) ++j;
    attr_->begin(h.site, h.region, h.core, k.issue_at, k.line_requests);
    const size_t m = !every_ && !checker_ ? issue_some(a + i, j) : issue_each(a + i, j);
    attr_->end(k.issue_at, k.line_requests, m, 0);
    i += m;
  }
}

// One event at a time (a parallel section's schedule).
// One event (a parallel section's schedule, a compute): `issue` issues it.
template <class Issue>
void CoreModule::one_attributed(SiteId site, TagId region, CoreId core, uint64_t events, uint64_t flops,
                                Issue&& issue) {
  CoreClock& k = clock(core);
  attr_->close_epochs(k.issue_at);
  attr_->begin(site, region, core, k.issue_at, k.line_requests);
  issue();
  attr_->end(k.issue_at, k.line_requests, events, flops);
}

void CoreModule::compute_attributed(const Compute& c, uint32_t seq) {
  one_attributed(c.site, c.region, c.core, 0, c.flops, [&] { compute_now(c, seq); });
}

void CoreModule::name_site(SiteId id, uint32_t line) {
  if (id >= names_.site_lines.size()) names_.site_lines.resize(size_t(id) + 1, 0);
  names_.site_lines[id] = line;
  if (attr_) attr_->name_site(id, line);
}

void CoreModule::name_op(uint16_t id, const std::string& name) {
  if (attr_) attr_->name_op(id, name);
}

void CoreModule::op_mark(uint16_t id, bool begin, CoreId core) {
  if (!attr_) return;
  Compute c;
  c.op = id;
  c.core = core;
  if (parallel_) return enqueue(Queued{begin ? Queued::OpBegin : Queued::OpEnd, Access{}, c, 0});
  attr_->op_mark(id, begin, core, clock(core).issue_at);
}

void CoreModule::footprint(SpaceId space, uint64_t bytes) {
  if (!attr_) return;
  uint64_t t = 0;
  for (const CoreClock& k : clocks_) t = std::max(t, k.issue_at);
  attr_->footprint(space, bytes, t);
}

// Scratchpads and other TLM routes take bulk transfers and hold no miss slot.
tlm::tlm_generic_payload& CoreModule::transport(const Route& r, const Access& a, bool write, uint64_t t,
                                                 uint8_t* data, sc_time* delay_out) {
  sync(t);
  payload_.set_pattern(a.kind == AccessKind::Fill, a.elem_bytes, a.stride);
  tlm::tlm_generic_payload& trans = payload_.set(a.addr, a.bytes ? a.bytes : 1, write, a.tensor, a.region);
  trans.set_data_ptr(data);
  // A core behind the kernel's time (see sync) sends a zero delay: the
  // target's own busy-until keeps it in order.
  sc_time delay = sc_time::from_value(t > now_fs_ ? t - now_fs_ : 0);
  (*r.socket)->b_transport(trans, delay);
  if (delay_out) *delay_out = delay;
  return trans;
}

void CoreModule::compute(const Compute& c) {
  const uint32_t seq = dataflow_ ? ++seq_ : 0;
  if (parallel_) return enqueue(Queued{Queued::ComputeEvent, Access{}, c, seq});
  if (attr_) return compute_attributed(c, seq);
  compute_now(c, seq);
}

void CoreModule::compute_now(const Compute& c, uint32_t seq) {
  CoreClock& k = clock(c.core);
  model_->compute(k, seq, c);
}

void CoreModule::enqueue(const Queued& q) {
  const CoreId core = q.kind == Queued::AccessEvent ? q.access.core : q.compute.core;
  clock(core);  // a core the config does not have is an error now, not later
  empty_queues_ -= queues_[core].empty();
  queues_[core].push_back(q);
  ++queued_;
  schedule(false);
}

void CoreModule::schedule(bool drain) {
  for (;;) {
    // The core whose clock is earliest goes next; a core with nothing queued
    // may still receive earlier events, so it holds everyone up (within the
    // lookahead) until the barrier says it is done. Most calls end here (a
    // core's whole iteration arrives before the next core's): no scan.
    if (!drain && empty_queues_ && queued_ < kLookahead) return;
    size_t best = queues_.size();
    for (size_t c = 0; c < queues_.size(); ++c) {
      if (queues_[c].empty()) {
        if (!drain && queued_ < kLookahead) return;
        continue;
      }
      if (best == queues_.size() || clocks_[c].issue_at < clocks_[best].issue_at) best = c;
    }
    if (best == queues_.size()) return;
    // It stays the earliest until its clock passes another core's (a lower
    // core wins a tie): only its own events move its clock, so it issues
    // until then without a scan per event, in the order a scan would give.
    uint64_t lower = ~0ull, higher = ~0ull;
    for (size_t c = 0; c < queues_.size(); ++c)
      if (c != best && !queues_[c].empty()) (c < best ? lower : higher) = std::min(c < best ? lower : higher, clocks_[c].issue_at);
    do issue_queued(best);
    while (!queues_[best].empty() && (drain || !empty_queues_ || queued_ >= kLookahead) &&
           clocks_[best].issue_at < lower && clocks_[best].issue_at <= higher);
  }
}

void CoreModule::issue_queued(size_t best) {
  const Queued q = queues_[best].front();
  queues_[best].pop_front();
  empty_queues_ += queues_[best].empty();
  --queued_;
  switch (q.kind) {
    case Queued::AccessEvent: {
      auto issue = [&] {
        if (checker_ && !is_control(q.access.kind)) {
          Pending p = std::move(pending_[best].front());
          pending_[best].pop_front();
          issue_checked(q.access, q.host, p);
        } else {
          issue_now(q.access, q.seq);
        }
      };
      // A host write (--check-data) is no event of the program: not attributed.
      if (attr_ && !q.host) one_attributed(q.access.site, q.access.region, q.access.core, 1, 0, issue);
      else issue();
      break;
    }
    case Queued::ComputeEvent: attr_ ? compute_attributed(q.compute, q.seq) : compute_now(q.compute, q.seq); break;
    case Queued::OpBegin:
    case Queued::OpEnd:
      attr_->op_mark(q.compute.op, q.kind == Queued::OpBegin, CoreId(best), clocks_[best].issue_at);
      break;
  }
}

void CoreModule::barrier(bool parallel) {
  ++barriers_;
  schedule(true);
  for (CoreClock& k : clocks_) model_->settle(k);
  parallel_ = parallel && clocks_.size() > 1;
  if (clocks_.size() == 1) return;  // one core: nothing to wait for
  uint64_t all = 0;
  for (const CoreClock& k : clocks_) all = std::max(all, k.idle_at());
  for (CoreClock& k : clocks_) {
    if (all <= k.issue_at) continue;
    k.barrier_wait_fs += all - k.issue_at;
    k.issue_at = all;
  }
}

double CoreModule::cycles() const {
  uint64_t last = 0;
  for (const CoreClock& k : clocks_) last = std::max(last, k.idle_at());
  return double(last) / period_fs_;
}

namespace {
// The counters of the cores in `ks`, summed.
void core_counters(StatsNode& n, const std::vector<const CoreClock*>& ks, double period_fs) {
  uint64_t acc = 0, rd = 0, wr = 0, lines = 0, bytes = 0, flops = 0, compute = 0, stalls = 0, stall_fs = 0, wait = 0;
  for (const CoreClock* k : ks) {
    acc += k->accesses(); rd += k->reads(); wr += k->writes(); lines += k->line_requests; bytes += k->access_bytes;
    flops += k->flops; compute += k->compute_fs; stalls += k->stalls.count; stall_fs += k->stalls.fs;
    wait += k->barrier_wait_fs;
  }
  n.set("accesses", acc).set("reads", rd).set("writes", wr);
  n.set("line_requests", lines);
  n.set("access_bytes", bytes);
  n.set("flops", flops);
  n.set("compute_cycles", uint64_t(std::llround(double(compute) / period_fs)));  // whole cycles, as `cycles`
  n.set("window_stalls", stalls);
  n.set("stall_cycles", uint64_t(std::llround(double(stall_fs) / period_fs)));
  n.set("barrier_wait_cycles", uint64_t(std::llround(double(wait) / period_fs)));
}
}  // namespace

void CoreModule::report(StatsNode& run) const {
  StatsNode& n = run.child(name(), NodeKind::Core);
  std::vector<const CoreClock*> all;
  for (const CoreClock& k : clocks_) all.push_back(&k);
  core_counters(n, all, period_fs_);
  n.set("cores", uint64_t(clocks_.size()));
  n.set("barriers", barriers_);
  model_->report(n);
  if (clocks_.size() == 1) return;
  StatsNode& list = n.child("per_core", NodeKind::List);
  for (const CoreClock& k : clocks_) {
    StatsNode& c = list.child("core" + std::to_string(k.id), NodeKind::Row);
    core_counters(c, {&k}, period_fs_);
  }
}

}  // namespace ptosim
