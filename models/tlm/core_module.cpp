#include "models/tlm/core_module.h"

#include <atomic>
#include <cmath>
#include <sstream>

#include "models/tlm/cache_module.h"
#include "sim/common/error.h"
#include "sim/common/run_control.h"
#include "sim/common/time_limits.h"
#include "sim/common/units.h"
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
  for (uint32_t i = 0; i < cores; ++i) {
    clocks_.emplace_back(config.core.max_outstanding, CoreId(i));
    clocks_.back().interval_fs = uint64_t(std::llround(period_fs_ / config.core.issue_width));
    clocks_.back().sync_at = quantum_fs_;
  }
  SC_THREAD(run);
  // Interpreters recurse: give the thread a deep stack (reserved, not committed).
  set_stack_size(256 * 1024 * 1024);
}

void CoreModule::route(SpaceId space, const std::string& space_name, size_t port, CacheModule* first_level) {
  if (space >= routes_.size()) routes_.resize(size_t(space) + 1);
  Route& r = routes_[space];
  r.socket = ports_.at(port).get();
  r.cache = first_level ? &first_level->logic() : nullptr;
  r.split = first_level ? first_level->logic().config().line : 0;
  r.space = space_name;
}

namespace {
// Set by CoreModule::fail: the drain stops at the next chunk. One core module
// per process (one simulation), so a flag of the file is enough.
std::atomic<bool> g_failed{false};
bool stop_draining() { return run_control::stop_requested() || g_failed.load(std::memory_order_relaxed); }
}  // namespace

// This runs on a SystemC coroutine: nothing here throws on purpose. A bad
// event records its error (fail) and the stream stops at the next chunk; the
// producer's error comes back from drain. System::run rethrows either after
// sc_start returns (a throw on the coroutine stack misleads ASan,
// google/sanitizers#189).
void CoreModule::fail(const std::string& message) {
  if (!error_) error_ = std::make_exception_ptr(InputError(message));
  failed_ = true;
  g_failed.store(true);
}

void CoreModule::run() {
  try {
    if (producer_) {
      // The producer runs on a thread of its own; this thread simulates.
      EventPipe pipe(producer_);
      std::exception_ptr producer_error;
      const bool complete = pipe.drain(*this, stop_draining, &producer_error);
      if (failed_) return;
      if (producer_error) {
        error_ = producer_error;
        return;
      }
      interrupted_ = !complete;
    }
    schedule(true);  // a stream that ended inside a parallel loop
    uint64_t last = now_fs_;
    for (const CoreClock& k : clocks_) last = std::max(last, k.issue_at);
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
    if (t > time_limits::kMaxRunFs) {
      if (!failed_)
        fail("pto-sim: the simulated time passed 2^63 fs (about 2.56 hours at " +
             units::format_frequency(config_.clock_hz) + "), the longest the model can count");
      return;
    }
    wait(sc_time::from_value(t - now_fs_));
    now_fs_ = sc_core::sc_time_stamp().value();
    for (CoreClock& k : clocks_) k.sync_at = now_fs_ + quantum_fs_;
    run_control::counters().sim_fs.store(now_fs_, std::memory_order_relaxed);
  }
}

bool CoreModule::known_core(CoreId core) {
  if (core < clocks_.size()) return true;
  std::ostringstream m;
  m << "access by core " << unsigned(core) << " but the config has " << clocks_.size() << " core(s)";
  fail(m.str());
  return false;
}

void CoreModule::access(const Access& a) {
  if (failed_) return;
  if (parallel_) return enqueue(Queued{false, a, Compute{}});
  issue_now(a);
}

void CoreModule::issue_now(const Access& a) {
  if (a.space >= routes_.size() || !routes_[a.space].socket) {
    std::ostringstream m;
    m << "access to space id " << a.space << " which this config does not map";
    return fail(m.str());
  }
  if (!known_core(a.core)) return;
  const Route& r = routes_[a.space];
  CoreClock& k = clocks_[a.core];
  const bool write = a.kind == AccessKind::Write || a.kind == AccessKind::Fill;
  k.count(write);
  if (!r.cache) {
    issue_tlm(r, k, a, write);
    return;
  }
  const uint64_t bytes = a.bytes ? a.bytes : 1;
  const uint64_t mask = r.split - 1;
  if (((a.addr & mask) + bytes) <= r.split) {  // within one line: the common case
    issue_cached(r, k, a.addr, bytes, write, a.tensor, a.region);
    return;
  }
  uint64_t addr = a.addr;
  const uint64_t end = a.addr + bytes;
  while (addr < end) {
    const uint64_t next = std::min(end, (addr & ~mask) + r.split);
    issue_cached(r, k, addr, next - addr, write, a.tensor, a.region);
    addr = next;
  }
}

void CoreModule::accesses(const Access* a, size_t n) {
  if (failed_) return;
  if (parallel_) {
    for (size_t i = 0; i < n && !failed_; ++i) enqueue(Queued{false, a[i], Compute{}});
    return;
  }
  size_t i = 0;
  while (i < n && !failed_) {
    // The first level of the access's space issues as many as it can.
    const SpaceId space = a[i].space;
    if (space < routes_.size() && routes_[space].cache && a[i].core < clocks_.size()) {
      i += routes_[space].cache->run(a + i, n - i, space, clocks_[a[i].core]);
      if (i == n) break;
    }
    issue_now(a[i++]);  // anything else, and a sync with the kernel
  }
}

void CoreModule::issue_cached(const Route& r, CoreClock& k, uint64_t addr, uint64_t bytes, bool write, TagId tensor,
                              TagId region) {
  const MemRequest req{addr, bytes, write, tensor, region};
  uint64_t t = k.issue_at;
  k.window.retire(t);
  sync(t);
  const uint64_t done = r.cache->issue(req, &t, k.window, k.stalls);
  k.issued(t, done);
}

// Scratchpads and other TLM routes take bulk transfers and hold no miss slot.
void CoreModule::issue_tlm(const Route& r, CoreClock& k, const Access& a, bool write) {
  const uint64_t t = k.issue_at;
  sync(t);
  payload_.set_pattern(a.kind == AccessKind::Fill, a.elem_bytes, a.stride);
  tlm::tlm_generic_payload& trans = payload_.set(a.addr, a.bytes ? a.bytes : 1, write, a.tensor, a.region);
  // A core behind the kernel's time (see sync) sends a zero delay: the
  // target's own busy-until keeps it in order.
  sc_time delay = sc_time::from_value(t > now_fs_ ? t - now_fs_ : 0);
  (*r.socket)->b_transport(trans, delay);
  if (trans.get_response_status() != tlm::TLM_OK_RESPONSE) {
    std::ostringstream m;
    m << "write to read-only memory space '" << r.space << "' at address 0x" << std::hex << a.addr;
    return fail(m.str());
  }
  const uint64_t done = std::max<uint64_t>(t, now_fs_ + delay.value());
  k.issued(t, done);
}

void CoreModule::compute(const Compute& c) {
  if (failed_) return;
  if (parallel_) return enqueue(Queued{true, Access{}, c});
  compute_now(c);
}

void CoreModule::compute_now(const Compute& c) {
  if (!known_core(c.core)) return;
  CoreClock& k = clocks_[c.core];
  k.flops += c.flops;
  const double busy_fs = period_fs_ * (double(c.flops) / config_.core.flops_per_cycle);
  if (!(busy_fs <= time_limits::kMaxStepFs)) {
    std::ostringstream m;
    m << "a compute event of " << c.flops << " flops takes longer than the model's limit of 2^56 fs (72 s) for one step";
    return fail(m.str());
  }
  const uint64_t busy = uint64_t(std::llround(busy_fs));
  k.compute_fs += busy;
  k.issue_at += busy;
}

void CoreModule::enqueue(const Queued& q) {
  const CoreId core = q.is_compute ? q.compute.core : q.access.core;
  if (!known_core(core)) return;  // a core the config does not have is an error now, not later
  queues_[core].push_back(q);
  ++queued_;
  schedule(false);
}

void CoreModule::schedule(bool drain) {
  while (!failed_) {
    // The core whose clock is earliest goes next; a core with nothing queued
    // may still receive earlier events, so it holds everyone up (within the
    // lookahead) until the barrier says it is done.
    size_t best = queues_.size();
    for (size_t c = 0; c < queues_.size(); ++c) {
      if (queues_[c].empty()) {
        if (!drain && queued_ < kLookahead) return;
        continue;
      }
      if (best == queues_.size() || clocks_[c].issue_at < clocks_[best].issue_at) best = c;
    }
    if (best == queues_.size()) return;
    const Queued q = queues_[best].front();
    queues_[best].pop_front();
    --queued_;
    if (q.is_compute) compute_now(q.compute);
    else issue_now(q.access);
  }
}

void CoreModule::barrier(bool parallel) {
  if (failed_) return;
  ++barriers_;
  schedule(true);
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
  uint64_t acc = 0, rd = 0, wr = 0, lines = 0, flops = 0, compute = 0, stalls = 0, stall_fs = 0, wait = 0;
  for (const CoreClock* k : ks) {
    acc += k->accesses(); rd += k->reads(); wr += k->writes(); lines += k->line_requests;
    flops += k->flops; compute += k->compute_fs; stalls += k->stalls.count; stall_fs += k->stalls.fs;
    wait += k->barrier_wait_fs;
  }
  n.set("accesses", acc).set("reads", rd).set("writes", wr);
  n.set("line_requests", lines);
  n.set("flops", flops);
  n.set("compute_cycles", double(compute) / period_fs);
  n.set("window_stalls", stalls);
  n.set("stall_cycles", double(stall_fs) / period_fs);
  n.set("barrier_wait_cycles", double(wait) / period_fs);
}
}  // namespace

void CoreModule::report(StatsNode& run) const {
  StatsNode& n = run.child(name(), "core");
  std::vector<const CoreClock*> all;
  for (const CoreClock& k : clocks_) all.push_back(&k);
  core_counters(n, all, period_fs_);
  n.set("cores", uint64_t(clocks_.size()));
  n.set("barriers", barriers_);
  if (clocks_.size() == 1) return;
  StatsNode& list = n.child("per_core", "list");
  for (const CoreClock& k : clocks_) {
    StatsNode& c = list.child("core" + std::to_string(k.id), "row");
    core_counters(c, {&k}, period_fs_);
  }
}

}  // namespace ptosim
