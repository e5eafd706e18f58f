#include "models/core/core_module.h"

#include <cmath>
#include <sstream>

#include "models/cache/cache_module.h"
#include "sim/common/error.h"
#include "sim/trace/event_pipe.h"

namespace ptosim {

using sc_core::sc_time;

CoreModule::CoreModule(sc_core::sc_module_name name, const HwConfig& config, size_t ports)
    : sc_module(name), config_(config), clock_(config.core.max_outstanding) {
  for (size_t i = 0; i < ports; ++i) {
    ports_.push_back(std::make_unique<tlm::tlm_initiator_socket<>>(sc_core::sc_gen_unique_name("port")));
    ports_.back()->bind(*this);
  }
  period_fs_ = 1e15 / config.clock_hz;
  clock_.interval_fs = uint64_t(std::llround(period_fs_ / config.core.issue_width));
  quantum_fs_ = 10'000'000'000ull;  // 10 us: sync with the kernel this rarely
  clock_.sync_at = quantum_fs_;
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

void CoreModule::run() {
  try {
    if (producer_) {
      // The producer runs on a thread of its own; this thread simulates.
      EventPipe pipe(producer_);
      pipe.drain(*this);
    }
    if (finisher_) finisher_(sc_time::from_value(std::max(clock_.issue_at, now_fs_) - now_fs_));
  } catch (...) {
    error_ = std::current_exception();
  }
  // Returning ends the simulation: nothing else is scheduled.
}

void CoreModule::sync(uint64_t t) {
  // Temporal decoupling: the kernel's clock catches up once per quantum.
  if (t - now_fs_ > quantum_fs_) {
    wait(sc_time::from_value(t - now_fs_));
    now_fs_ = sc_core::sc_time_stamp().value();
    clock_.sync_at = now_fs_ + quantum_fs_;
  }
}

void CoreModule::access(const Access& a) {
  if (a.space >= routes_.size() || !routes_[a.space].socket) {
    std::ostringstream m;
    m << "access to space id " << a.space << " which this config does not map";
    throw InputError(m.str());
  }
  const Route& r = routes_[a.space];
  const bool write = a.kind == AccessKind::Write || a.kind == AccessKind::Fill;
  clock_.count(write);
  if (!r.cache) {
    issue_tlm(r, a);
    return;
  }
  const uint64_t bytes = a.bytes ? a.bytes : 1;
  const uint64_t mask = r.split - 1;
  if (((a.addr & mask) + bytes) <= r.split) {  // within one line: the common case
    issue_cached(r, a.addr, bytes, write, a.tensor, a.region);
    return;
  }
  uint64_t addr = a.addr;
  const uint64_t end = a.addr + bytes;
  while (addr < end) {
    const uint64_t next = std::min(end, (addr & ~mask) + r.split);
    issue_cached(r, addr, next - addr, write, a.tensor, a.region);
    addr = next;
  }
}

void CoreModule::accesses(const Access* a, size_t n) {
  size_t i = 0;
  while (i < n) {
    // The first level of the access's space issues as many as it can.
    const SpaceId space = a[i].space;
    if (space < routes_.size() && routes_[space].cache) {
      i += routes_[space].cache->run(a + i, n - i, space, clock_);
      if (i == n) break;
    }
    access(a[i++]);  // anything else, and a sync with the kernel
  }
}

void CoreModule::issue_cached(const Route& r, uint64_t addr, uint64_t bytes, bool write, TagId tensor, TagId region) {
  const MemRequest req{addr, bytes, write, tensor, region};
  uint64_t t = clock_.issue_at;
  clock_.window.retire(t);
  sync(t);
  const uint64_t done = r.cache->issue(req, &t, clock_.window, clock_.stalls);
  clock_.issued(t, done);
}

// Scratchpads and other TLM routes take bulk transfers and hold no miss slot.
void CoreModule::issue_tlm(const Route& r, const Access& a) {
  const uint64_t t = clock_.issue_at;
  sync(t);
  payload_.set_pattern(a.kind == AccessKind::Fill, a.elem_bytes, a.stride);
  const bool write = a.kind == AccessKind::Write || a.kind == AccessKind::Fill;
  tlm::tlm_generic_payload& trans = payload_.set(a.addr, a.bytes ? a.bytes : 1, write, a.tensor, a.region);
  sc_time delay = sc_time::from_value(t - now_fs_);
  (*r.socket)->b_transport(trans, delay);
  if (trans.get_response_status() != tlm::TLM_OK_RESPONSE) {
    std::ostringstream m;
    m << "write to read-only memory space '" << r.space << "' at address 0x" << std::hex << a.addr;
    throw InputError(m.str());
  }
  const uint64_t done = now_fs_ + delay.value();
  clock_.issued(t, done);
}

void CoreModule::compute(const Compute& c) {
  flops_ += c.flops;
  const uint64_t busy = uint64_t(std::llround(period_fs_ * (double(c.flops) / config_.core.flops_per_cycle)));
  compute_fs_ += busy;
  clock_.issue_at += busy;
}

double CoreModule::cycles() const { return double(std::max(clock_.end, clock_.issue_at)) / period_fs_; }

void CoreModule::report(StatsNode& run) const {
  StatsNode& n = run.child(name(), "core");
  n.set("accesses", clock_.accesses()).set("reads", clock_.reads()).set("writes", clock_.writes());
  n.set("line_requests", clock_.line_requests);
  n.set("flops", flops_);
  n.set("compute_cycles", double(compute_fs_) / period_fs_);
  n.set("window_stalls", clock_.stalls.count);
  n.set("stall_cycles", double(clock_.stalls.fs) / period_fs_);
}

}  // namespace ptosim
