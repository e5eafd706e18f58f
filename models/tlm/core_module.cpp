// CoreModule's SystemC side (core_module.h): construction, the routes'
// wiring, the thread that drains the event stream, the kernel syncs, the
// entry of accesses and compute events, and TLM transport. The rest of the
// class lives beside it by responsibility: core_routes.cpp (issuing
// accesses to the levels), core_scheduler.cpp (parallel sections in clock
// order), core_check_data.cpp (--check-data), core_attribution.cpp
// (attribution hooks), core_report.cpp (the report).
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
  queues_.reserve(cores);
  for (uint32_t i = 0; i < cores; ++i) queues_.emplace_back(queue_blocks_);
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

void CoreModule::catch_up(uint64_t t) {
  // Temporal decoupling: the kernel's clock catches up once per quantum
  // (with several cores, to the one furthest ahead; the others run behind
  // the kernel's time, as loosely timed initiators may). sync() tested
  // that t is a quantum past it.
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

// Out of line and cold, so that clock(), once an event, saves no registers
// for the message it never builds.
[[noreturn, gnu::cold, gnu::noinline]] static void no_such_core(CoreId core, size_t cores) {
  std::ostringstream m;
  m << "access by core " << unsigned(core) << " but the config has " << cores << " core(s)";
  throw InputError(m.str());
}

CoreClock& CoreModule::clock(CoreId core) {
  if (core >= clocks_.size()) [[unlikely]]
    no_such_core(core, clocks_.size());
  return clocks_[core];
}

void CoreModule::access(const Access& a) {
  if (warm_prefix_) return warm_prefix(&a, 1);
  if (sampler_) return sampled(&a, 1);
  if (checker_ && !is_control(a.kind)) return checked(a, false, nullptr);
  // A copyback or invalidate record is no instruction: it takes no event number.
  const uint32_t seq = !dataflow_ || is_control(a.kind) ? 0 : ++seq_;
  if (parallel_) return enqueue(Queued{Queued::AccessEvent, a, Compute{}, seq});
  issue_now(a, seq);
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
  warm_prefix_ = false;
  // Between sampled units the clock does not run, but compute is counted:
  // its flops and its time (compute_fs) are exact, not sampled
  // (docs/SAMPLING.md, "Compute is counted, not sampled").
  if (sampler_ && sampler_->phase() == SampleSchedule::Phase::Skip) return compute_skipped(c);
  const uint32_t seq = dataflow_ ? ++seq_ : 0;
  if (parallel_) return enqueue(Queued{Queued::ComputeEvent, Access{}, c, seq});
  if (attr_) return compute_attributed(c, seq);
  compute_now(c, seq);
}

void CoreModule::compute_now(const Compute& c, uint32_t seq) {
  CoreClock& k = clock(c.core);
  model_->compute(k, seq, c);
}
}  // namespace ptosim
