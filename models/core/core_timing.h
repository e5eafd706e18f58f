#pragma once
// What a core model is: how the cores turn the event stream into time. The
// core module (models/tlm/core_module.h) owns the clocks, the routes and
// the SystemC side; a model decides when each access issues and when its
// data is needed, and what compute costs. Each model lives in its own file
// and registers itself by name (PTOSIM_REGISTER(CoreModelConcept, ...)),
// like the DRAM timing models; `core.model` names
// one (docs/TIMING.md, "The core"; docs/ARCHITECTURE.md).
//
// A model registered with traits::kDataflow gets numbered events and their
// dependences (the interpreter emits them) and every event one at a time;
// one without lets a space's first cache level issue whole runs of accesses
// itself (CacheLevel::run), which times them as `simple` does.
#include <cstdint>
#include <memory>
#include <vector>

#include "models/core/core_clock.h"
#include "sim/common/registry.h"
#include "sim/config/hw_config.h"
#include "sim/report/stats.h"
#include "sim/trace/event.h"

namespace ptosim {

// The memory an access goes to, as a model sees it (the core module's
// route: a space's first cache level, or a TLM target).
class CorePort {
 public:
  virtual ~CorePort() = default;
  // Sends [addr, addr + bytes) issued at *t — one line of a cached space,
  // or a whole transfer — and returns when its data is there; a cached
  // space's full miss window may move *t later.
  virtual uint64_t send(uint64_t addr, uint64_t bytes, uint64_t* t) = 0;
  // The transfer for the target's counters only, at t: no time (a
  // register file's value is an operand, its time flows through the model).
  virtual void count_only(uint64_t t) = 0;
  // The same route, core and access, kept for a send after this access is
  // gone (with a copy of its bytes under --check-data): a store the model
  // writes when its store queue drains it.
  // (with_bytes false: no copy of the bytes, for a request that only
  // fetches the line again, store_request: rfo.)
  virtual std::unique_ptr<CorePort> retain(bool with_bytes = true) const = 0;
  // Whether the first cache level holds addr's line now (true when the
  // route has no cache: nothing can have left).
  virtual bool holds(uint64_t addr) const = 0;
  // The first cache level's ways (0: the route has no cache level), and
  // the fills of addr's set there by loads and prefetches so far
  // (CacheLevel::read_fills).
  virtual uint32_t ways() const = 0;
  virtual uint64_t load_fills(uint64_t addr) = 0;

  uint64_t line = 0;  // the first cache level's line; 0 = sent whole (a scratchpad takes bulk transfers)
  bool reg = false;   // a register file
};

// The pieces `port` takes an access in: one line of a cached space at a
// time (the access split where it crosses lines), else the whole.
template <class Piece>
void for_each_piece(const Access& a, const CorePort& port, Piece&& piece) {
  const uint64_t bytes = a.bytes ? a.bytes : 1;
  if (!port.line) return piece(a.addr, bytes);
  const uint64_t mask = port.line - 1;
  uint64_t addr = a.addr;
  const uint64_t end = a.addr + bytes;
  while (addr < end) {
    const uint64_t next = end < (addr & ~mask) + port.line ? end : (addr & ~mask) + port.line;
    piece(addr, next - addr);
    addr = next;
  }
}

class CoreTiming {
 public:
  virtual ~CoreTiming() = default;
  // An access (not a copyback or invalidate record) by core k.id; `seq` is
  // its event number (0 without dataflow).
  virtual void access(CoreClock& k, uint32_t seq, const Access& a, CorePort& port) = 0;
  virtual void compute(CoreClock& k, uint32_t seq, const Compute& c) = 0;
  // Finishes what core k.id still holds back (the cpu model's stores
  // waiting in the store queue): before a barrier, a cache control record,
  // a host write or check, and the end of the run.
  virtual void settle(CoreClock&) {}
  // The model's own counters, summed over the cores, into the core's node.
  virtual void report(StatsNode& node) const = 0;
};

// cores: how many clocks the module keeps (CoreClock::id < cores).
using CoreTimingFactory = std::unique_ptr<CoreTiming> (*)(const CoreConfig& config, double period_fs, uint32_t cores);

// The concept's tag for PTOSIM_REGISTER (sim/common/registry.h).
struct CoreModelConcept {
  using Factory = CoreTimingFactory;
  static constexpr const char* kKind = concepts::kCoreModel;
};

// The factory of a model built from its constructor (config, period_fs, cores).
template <class T>
std::unique_ptr<CoreTiming> make_core(const CoreConfig& config, double period_fs, uint32_t cores) {
  return std::make_unique<T>(config, period_fs, cores);
}

// The model the config's `core.model` names.
std::unique_ptr<CoreTiming> make_core_timing(const CoreConfig& config, double period_fs, uint32_t cores);

}  // namespace ptosim
