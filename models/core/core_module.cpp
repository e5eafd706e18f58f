#include "models/core/core_module.h"

#include <sstream>

#include "sim/common/error.h"

namespace ptosim {

using sc_core::sc_time;

CoreModule::CoreModule(sc_core::sc_module_name name, const HwConfig& config, size_t ports)
    : sc_module(name), config_(config), max_outstanding_(config.core.max_outstanding) {
  for (size_t i = 0; i < ports; ++i) {
    ports_.push_back(std::make_unique<tlm::tlm_initiator_socket<>>(sc_core::sc_gen_unique_name("port")));
    ports_.back()->bind(*this);
  }
  period_ = sc_time(1.0 / config.clock_hz, sc_core::SC_SEC);
  issue_interval_ = period_ / double(config.core.issue_width);
  quantum_ = sc_time(10, sc_core::SC_US);
  SC_THREAD(run);
  // Interpreters recurse: give the thread a deep stack (reserved, not committed).
  set_stack_size(256 * 1024 * 1024);
}

void CoreModule::route(SpaceId space, const std::string& space_name, size_t port, const CacheLevel* first_level,
                       sc_time hit_latency) {
  if (space >= routes_.size()) routes_.resize(size_t(space) + 1);
  Route& r = routes_[space];
  r.socket = ports_.at(port).get();
  r.probe = first_level;
  r.split = first_level ? first_level->config().line : 0;
  r.hit_latency = hit_latency;
  r.space = space_name;
}

void CoreModule::run() {
  try {
    if (producer_) producer_(*this);
    if (finisher_) finisher_(issue_at_ - sc_core::sc_time_stamp());
  } catch (...) {
    error_ = std::current_exception();
  }
  // Returning ends the simulation: nothing else is scheduled.
}

void CoreModule::access(const Access& a) {
  if (a.space >= routes_.size() || !routes_[a.space].socket) {
    std::ostringstream m;
    m << "access to space id " << a.space << " which this config does not map";
    throw InputError(m.str());
  }
  const Route& r = routes_[a.space];
  const bool write = a.kind == AccessKind::Write;
  if (a.kind == AccessKind::Write) ++writes_; else ++reads_;
  if (r.split == 0) {
    issue(r, a.addr, a.bytes, write, a.tensor, a.region);
    return;
  }
  const uint64_t bytes = a.bytes ? a.bytes : 1;
  const uint64_t mask = uint64_t(r.split) - 1;
  if (((a.addr & mask) + bytes) <= r.split) {  // within one line: the common case
    issue(r, a.addr, bytes, write, a.tensor, a.region);
    return;
  }
  uint64_t addr = a.addr;
  const uint64_t end = a.addr + bytes;
  while (addr < end) {
    const uint64_t next = std::min(end, (addr & ~mask) + r.split);
    issue(r, addr, next - addr, write, a.tensor, a.region);
    addr = next;
  }
}

void CoreModule::issue(const Route& r, uint64_t addr, uint64_t bytes, bool write, TagId tensor, TagId region) {
  sc_time t = issue_at_;
  while (!window_.empty() && window_.top() <= t) window_.pop();
  if (r.probe && window_.size() >= max_outstanding_ && !r.probe->contains(addr)) {
    stall_time_ += window_.top() - t;
    t = window_.top();
    window_.pop();
    ++window_stalls_;
  }
  const sc_time now = sc_core::sc_time_stamp();
  if (t - now > quantum_) {  // temporal decoupling: sync once per quantum
    wait(t - now);
  }
  const sc_time stamp = sc_core::sc_time_stamp();
  sc_time delay = t - stamp;
  tlm::tlm_generic_payload& trans = payload_.set(addr, bytes, write, tensor, region);
  (*r.socket)->b_transport(trans, delay);
  if (trans.get_response_status() != tlm::TLM_OK_RESPONSE) {
    std::ostringstream m;
    m << "write to read-only memory space '" << r.space << "' at address 0x" << std::hex << addr;
    throw InputError(m.str());
  }
  const sc_time done = stamp + delay;
  if (r.probe && done - t > r.hit_latency) window_.push(done);
  if (done > end_) end_ = done;
  issue_at_ = t + issue_interval_;
  ++accesses_;
}

void CoreModule::compute(const Compute& c) {
  flops_ += c.flops;
  const sc_time busy = period_ * (double(c.flops) / config_.core.flops_per_cycle);
  compute_time_ += busy;
  issue_at_ += busy;
}

double CoreModule::cycles() const {
  const sc_time last = end_ > issue_at_ ? end_ : issue_at_;
  return last.to_seconds() * config_.clock_hz;
}

void CoreModule::report(StatsNode& run) const {
  StatsNode& n = run.child(name(), "core");
  n.set("accesses", reads_ + writes_).set("reads", reads_).set("writes", writes_);
  n.set("line_requests", accesses_);
  n.set("flops", flops_);
  n.set("compute_cycles", compute_time_.to_seconds() * config_.clock_hz);
  n.set("window_stalls", window_stalls_);
  n.set("stall_cycles", stall_time_.to_seconds() * config_.clock_hz);
}

}  // namespace ptosim
