// CoreModule's routes (core_module.h): how an access reaches the first
// level of its space (directly, a run of them at a time) or a TLM target,
// as the core model's CorePort.
#include <sstream>

#include "models/attribution/attribution.h"
#include "models/tlm/cache_module.h"
#include "models/tlm/core_module.h"
#include "sim/common/error.h"

namespace ptosim {

using sc_core::sc_time;

// Out of line and cold, so that route_of(), once an access, saves no
// registers for the message it never builds.
[[noreturn, gnu::cold, gnu::noinline]] static void unmapped_space(SpaceId space) {
  std::ostringstream m;
  m << "access to space id " << space << " which this config does not map";
  throw InputError(m.str());
}

const CoreModule::Route& CoreModule::route_of(const Access& a) const {
  if (a.space >= routes_.size() || !routes_[a.space].socket) [[unlikely]]
    unmapped_space(a.space);
  return routes_[a.space];
}

// A route as a core model sees it: sends go to the first cache level
// directly (holding a slot of the core's miss window when they miss) or
// down the route's TLM socket, with the access's bytes (--check-data).
class CoreModule::RoutePort final : public CorePort {
 public:
  RoutePort(CoreModule& m, const Route& r, CoreClock& k, const Access& a, uint8_t* data)
      : m_(m), r_(r), k_(k), cache_(r.cache ? r.cache_of(k.id) : nullptr) {
    line = r.split;
    reg = r.reg;
    next(a, data);
  }
  // The next access of a run on the same route and core (issue_every): the
  // port is made once for the run.
  void next(const Access& a, uint8_t* data = nullptr) {
    a_ = &a;
    data_ = data;
    write_ = a.kind == AccessKind::Write || a.kind == AccessKind::Fill;
  }

  uint64_t send(uint64_t addr, uint64_t bytes, uint64_t* t) override {
    m_.memory_used_ = true;
    uint8_t* data = data_ ? data_ + (addr - a_->addr) : nullptr;
    if (!cache_) return send_down(addr, bytes, t, data);
    k_.window.retire(*t);
    m_.sync(*t);
    uint64_t done;  // a repeat of the line just hit (a broadcast) needs no lookup
    if (!write_ && cache_->issue_again(addr, bytes, a_->tensor, a_->region, *t, &done)) return done;
    return cache_->issue(MemRequest{addr, bytes, write_, a_->tensor, a_->region, data, false, false, a_->site}, t,
                         k_.window, k_.stalls);
  }

  // send() down the route's TLM socket (a scratchpad), out of line: its
  // payload and message would give every send a frame of 500 bytes.
  [[gnu::noinline]] uint64_t send_down(uint64_t addr, uint64_t bytes, uint64_t* t, uint8_t* data) {
    Access piece = *a_;
    piece.addr = addr;
    piece.bytes = bytes;
    sc_time delay;
    tlm::tlm_generic_payload& trans = m_.transport(r_, piece, write_, *t, data, &delay);
    if (trans.get_response_status() != tlm::TLM_OK_RESPONSE) {
      std::ostringstream msg;
      msg << "write to read-only memory space '" << r_.space << "' at address 0x" << std::hex << a_->addr;
      throw InputError(msg.str());
    }
    return std::max<uint64_t>(*t, m_.now_fs_ + delay.value());
  }

  void count_only(uint64_t t) override {
    m_.memory_used_ = true;
    m_.transport(r_, *a_, write_, t, data_);
  }

  std::unique_ptr<CorePort> retain(bool with_bytes) const override;
  bool holds(uint64_t addr) const override { return !cache_ || cache_->contains(addr); }
  uint32_t ways() const override {
    if (!r_.cache) return 0;
    const CacheConfig& c = r_.cache->config();
    return uint32_t(c.ways ? c.ways : c.size / c.line);  // 0 ways: fully associative
  }
  uint64_t load_fills(uint64_t addr) override { return cache_ ? cache_->read_fills(addr) : 0; }

 private:
  class Retained;
  CoreModule& m_;
  const Route& r_;
  CoreClock& k_;
  CacheLevel* cache_;  // the route's first level, this core's instance (null: none)
  const Access* a_;    // the caller's: a port serves one access at a time (retain() copies)
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
  return std::make_unique<Retained>(m_, r_, k_, *a_, with_bytes ? data_ : nullptr);
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
  if (warm_prefix_) return warm_prefix(a, n);
  if (sampler_) return sampled(a, n);
  if (attr_ && !parallel_) return accesses_attributed(a, n);
  if (checker_ || parallel_) {
    for (size_t i = 0; i < n; ++i) access(a[i]);
    return;
  }
  if (every_) return issue_every(a, n);
  issue_runs(a, n);
}

// access() on each, for a model that takes every access itself, without
// --check-data or a parallel section: a run of accesses to one route by
// one core shares its route, clock and port (a lowered matmul's 1.4 M
// loads and stores come in runs of thousands).
void CoreModule::issue_every(const Access* a, size_t n) {
  size_t i = 0;
  while (i < n) {
    if (is_control(a[i].kind)) {
      issue_now(a[i++], 0);
      continue;
    }
    const SpaceId space = a[i].space;
    const CoreId core = a[i].core;
    const Route& r = route_of(a[i]);  // its error before clock()'s, as issue_now() raises them
    CoreClock& k = clock(core);
    RoutePort port(*this, r, k, a[i], nullptr);
    do {
      port.next(a[i]);
      model_->access(k, dataflow_ ? ++seq_ : 0, a[i], port);
    } while (++i < n && a[i].space == space && a[i].core == core && !is_control(a[i].kind));
  }
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
}  // namespace ptosim
