#pragma once
// The `cpu` core model's timing, in plain C++ (no SystemC): an out-of-order
// core seen as a one-pass schedule over the event stream. Every event is an
// instruction (a load, a store, an arithmetic op; a loop iteration adds its
// counter and branch): instructions dispatch in order at `issue_width` per
// cycle into a reorder window of `rob_entries`, a load also into one of
// `lq_entries`, a store into one of `sq_entries`; an instruction starts when
// its operands are ready (the events it depends on, Access::dep and
// Compute::dep) and its unit is free, and retires in order. So a
// loop-carried chain (an accumulator) advances one latency per iteration
// while independent loads and arithmetic overlap within the window. See
// docs/TIMING.md for what it leaves out.
//
// Memory is the caller's: `Memory` sends one line-sized request at a time
// and returns when its data is there (the cache hierarchy, or a TLM target).
// A load goes to memory when it executes; a store's line is requested when
// it dispatches, or with `store_request: drain` only when the store queue
// drains it, in program order after it retires, one a cycle per store port
// (the store writer, set_store_writer): loads running ahead in the meantime
// may evict the line, as they do natively (docs/TIMING.md, "Stores"). With
// `store_request: rfo` the line is requested at dispatch and the store
// still commits in order from the queue: if the line has left the first
// level by then (the loads running ahead evicted it), the queue's head asks
// for it again and every younger store waits (the store refetcher).
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "sim/config/hw_config.h"
#include "models/core/core_clock.h"
#include "sim/trace/event.h"

namespace ptosim {

// Every counter of a pipeline, in one list: the fields and their sum over
// the cores (+=, the cpu model's report) come from it.
#define PTOSIM_CPU_STATS(X)                                                              \
  X(uops) X(loads) X(stores) X(forwarded) X(register_moves)                             \
  X(rob_stall_fs) X(lq_stall_fs) X(sq_stall_fs)                                          \
  X(store_refetches) /* rfo: stores whose line had left when the queue drained them */  \
  X(fill_stores)     /* store_fill_cycles: stores that drained at that cost */          \
  X(dep_wait_fs)     /* operands not ready at dispatch, summed over instructions */     \
  X(unit_busy_fs)    /* arithmetic unit occupancy */

struct CpuStats {
#define PTOSIM_CPU_STAT_FIELD(field) uint64_t field = 0;
  PTOSIM_CPU_STATS(PTOSIM_CPU_STAT_FIELD)
#undef PTOSIM_CPU_STAT_FIELD
  CpuStats& operator+=(const CpuStats& o) {
#define PTOSIM_CPU_STAT_ADD(field) field += o.field;
    PTOSIM_CPU_STATS(PTOSIM_CPU_STAT_ADD)
#undef PTOSIM_CPU_STAT_ADD
    return *this;
  }
};

class CpuPipeline {
 public:
  CpuPipeline(const CoreConfig& core, double period_fs);

  // One load / store of `bytes` at addr (within one cache line, or a
  // scratchpad transfer), event number `seq` (a multi-line access calls
  // again with the same seq: its result is ready when every line is).
  // `mem(t)` performs it at time t and returns when its data is there.
  template <class Memory>
  void load(CoreClock& k, uint32_t seq, uint32_t dep, uint64_t addr, uint64_t bytes, Memory&& mem);
  // A store: `id` is the caller's name for it, which the store writer gets
  // back when the store queue drains it.
  void store(CoreClock& k, uint32_t seq, uint32_t dep, uint64_t addr, uint64_t bytes, uint64_t id);
  // Writes a drained store's line: (id, t) sends it at t and returns when
  // its line is there (a write miss fetches it).
  using StoreWriter = std::function<uint64_t(uint64_t id, uint64_t t)>;
  void set_store_writer(StoreWriter w) { writer_ = std::move(w); }
  // store_request: rfo. The writer sends the store at dispatch (it leaves
  // the queue later); at the drain (id, t) returns kLineThere when the
  // store's line is still in the first level, else requests it again at t
  // and returns when it is there. Called once per store, in order.
  static constexpr uint64_t kLineThere = ~0ull;
  using StoreRefetcher = std::function<uint64_t(uint64_t id, uint64_t t)>;
  void set_store_refetcher(StoreRefetcher r) { refetcher_ = std::move(r); }
  // store_fill_cycles: when addr's line last arrived in the first level by
  // a miss (0: not known to have), asked as a store enters the queue.
  using FillClock = std::function<uint64_t(uint64_t addr)>;
  void set_fill_clock(FillClock c) { fill_clock_ = std::move(c); }
  // Drains every store still in the queue (before a barrier, a cache
  // control record, the end of the run).
  void settle() { drain_through(pending_.size()); }
  size_t stores_waiting() const { return pending_.size(); }
  // An access to the register file: no instruction of its own (registers
  // are operands), the value flows from the last write of that address.
  void register_read(uint32_t seq, uint32_t dep, uint64_t addr);
  void register_write(uint32_t seq, uint32_t dep, uint64_t addr);
  void compute(CoreClock& k, uint32_t seq, const Compute& c);

  // When every instruction so far has retired and every store committed
  // (after settle()).
  uint64_t drained() const { return drained_; }
  const CpuStats& stats() const { return stats_; }

 private:
  enum class Queue { None, Load, Store };
  uint64_t dispatch(CoreClock& k, Queue q);
  uint64_t retire(CoreClock& k, uint64_t done);
  uint64_t ready(uint32_t seq, uint32_t dep) const;
  void set_done(uint32_t seq, uint64_t t);
  uint64_t result(uint32_t seq, uint32_t dep) const;
  // Drains the oldest n stores of the queue, in order.
  void drain_through(size_t n);
  // Before a load at t: the stores the queue drains by then.
  void drain_due(uint64_t t);
  // Before a load of [addr, addr + bytes) that is not forwarded reads
  // memory: the stores up to the last that wrote any of its bytes (so the
  // load sees them; --check-data compares).
  void drain_overlapping(uint64_t addr, uint64_t bytes);

  // Issue slots of one unit (or port), cycle by cycle: an instruction that
  // is ready earlier than one before it in program order still takes the
  // earlier cycle (out of order), unlike a "busy until" that only moves on.
  class Slots {
   public:
    Slots(double throughput, uint64_t period_fs);
    // The first time >= t with a free slot, which it takes. (Inline: a
    // load's port takes one on every load.)
    uint64_t take(uint64_t t) {
      if (span_ != 1) return take_span(t);
      // The common case of a register block's loads, inline: a start
      // within the cycles the last take found full, whose cycle has a slot.
      const uint64_t c = t / period_;
      if (c >= full_from_ && c < full_to_ && forgot_ < c) {
        const uint32_t i = uint32_t(full_to_ % kCycles);
        if (tag_[i] == full_to_ && used_[i] < per_cycle_) {
          ++used_[i];
          return full_to_ * period_;  // > t: c is earlier
        }
      }
      return take_one(t);
    }

   private:
    // take() of a unit that holds more than one cycle an instruction.
    uint64_t take_span(uint64_t t);
    // take() of a unit that holds one cycle an instruction: many loads
    // ready in the same cycle (a register block's broadcasts) walk the same
    // full cycles, so a full cycle keeps where the walk went on (`skip_`).
    uint64_t take_one(uint64_t t);

    static constexpr uint32_t kCycles = 1u << 14;  // a ring of cycles; older entries are forgotten
    std::vector<uint64_t> tag_;   // which cycle each entry counts
    std::vector<uint16_t> used_;
    // Per full cycle c: a later cycle such that every cycle from c to it
    // was full when it was noted (0: none). It still holds while no cycle
    // after c has been forgotten (a ring entry taken by another cycle):
    // `forgot_` is the latest cycle forgotten.
    std::vector<uint64_t> skip_;
    uint64_t forgot_ = 0;
    // Every cycle in [full_from_, full_to_) was full at the last take
    // (full_to_: the cycle it took), unless forgotten since.
    uint64_t full_from_ = 0, full_to_ = 0;
    uint64_t period_;
    uint16_t per_cycle_;          // slots a cycle (throughput >= 1)
    uint32_t span_;               // cycles one instruction holds (throughput < 1)
  };
  struct Forward {
    uint64_t addr = ~0ull, bytes = 0, data = 0, commit = 0, store = 0;  // store: its number
  };
  // A store retired (or due to) and waiting in the queue for its line.
  struct Waiting {
    uint64_t addr, bytes, id, at, number;  // at: when the queue drains it; number: stores_ then
    uint64_t line = 0;                     // rfo: when the line requested at dispatch arrives
  };
  struct RegValue {
    uint64_t addr = ~0ull, ready = 0;
  };
  static constexpr uint32_t kDoneRing = 1u << 16;  // results kept: dependences reach this far back
  static constexpr uint32_t kForwardSlots = 1024, kRegSlots = 4096;
  // Vector stores, by each 64-byte block they write: a narrower load
  // inside one is forwarded from it, as x86 forwards a load contained in a
  // queued store (a broadcast of a packed panel's element right after the
  // packing store; without this it waited for the store's line).
  static constexpr uint32_t kWideSlots = 256;
  static constexpr uint64_t kScalarBytes = 8;
  const Forward* wide_store(uint64_t addr, uint64_t bytes, uint64_t t) const {
    const Forward& w = wide_[(addr >> 6) % kWideSlots];
    return w.addr <= addr && addr + bytes <= w.addr + w.bytes && w.commit > t ? &w : nullptr;
  }
  void note_wide(const Forward& f) {
    for (uint64_t b = f.addr >> 6; b <= (f.addr + f.bytes - 1) >> 6; ++b) wide_[b % kWideSlots] = f;
  }

  uint64_t disp_fs_, period_fs_, forward_fs_;
  uint32_t loop_uops_;
  const CoreConfig& core_;
  std::vector<uint64_t> done_;       // by seq: when its result is ready
  std::vector<uint32_t> done_seq_;   // which seq each slot holds
  std::vector<uint64_t> rob_, lq_, sq_;  // rings: retire / commit times of the last entries
  // Where the next instruction's and the next load's entries are in rob_
  // and lq_ (the counts modulo the sizes, kept as they go: a 64-bit
  // division costs 10-40 cycles, and a load made four).
  size_t rob_at_ = 0, lq_at_ = 0;
  uint64_t stores_ = 0;
  uint64_t last_retire_ = 0, last_commit_ = 0, drained_ = 0;
  Slots load_ports_, store_ports_;
  // Scalar instructions' issue slots per op class and dtype (the dtype's
  // throughput), made when first used.
  std::vector<std::unique_ptr<Slots>> units_;
  Slots& unit(OpClass cls, size_t dtype);
  uint64_t unit_free_[size_t(OpClass::Count)] = {};  // bulk work: busy until
  double peak_[kTimedDtypes] = {};  // core.peak_for(each dtype's name): a map lookup by name a compute else
  std::vector<Forward> forward_;
  std::vector<Forward> wide_;
  std::vector<RegValue> regs_;
  std::deque<Waiting> pending_;      // the store queue's stores not yet written, oldest first
  uint64_t drain_fs_;                // one store a cycle per store port
  uint64_t last_drain_ = 0;          // when the queue drained its latest store
  uint64_t line_fs_;                 // store_lines_per_cycle: a cycle / that (0: no bound)
  uint64_t drain_line_ = ~0ull, drain_line_at_ = 0;  // the 64-byte block draining now, since when
  uint16_t pending_blocks_[256] = {};  // a filter: waiting stores per 64-byte block hash
  CoreClock* clock_ = nullptr;       // this pipeline's core
  StoreWriter writer_;
  StoreRefetcher refetcher_;
  FillClock fill_clock_;
  uint64_t fill_fs_ = 0, fill_window_fs_ = 0;  // store_fill_cycles / _window
  uint64_t fill_prev_line_ = ~0ull;             // the line of the store before
  CpuStats stats_;
};

// ---- inline: the per-access path ----

inline uint64_t CpuPipeline::dispatch(CoreClock& k, Queue q) {
  uint64_t t = k.issue_at;
  const uint64_t rob_free = rob_[rob_at_];
  if (rob_free > t) {
    stats_.rob_stall_fs += rob_free - t;
    t = rob_free;
  }
  if (q == Queue::Load) {
    const uint64_t f = lq_[lq_at_];
    if (f > t) {
      stats_.lq_stall_fs += f - t;
      t = f;
    }
  } else if (q == Queue::Store) {
    const uint64_t f = sq_[stores_ % sq_.size()];
    if (f > t) {
      stats_.sq_stall_fs += f - t;
      t = f;
    }
  }
  k.issue_at = t + disp_fs_;
  ++stats_.uops;
  return t;
}

inline uint64_t CpuPipeline::retire(CoreClock& k, uint64_t done) {
  uint64_t r = last_retire_ + disp_fs_;  // in order, issue_width per cycle
  if (done > r) r = done;
  last_retire_ = r;
  rob_[rob_at_] = r;
  if (++rob_at_ == rob_.size()) rob_at_ = 0;
  if (r > k.end) k.end = r;
  if (r > drained_) drained_ = r;
  return r;
}

inline uint64_t CpuPipeline::result(uint32_t seq, uint32_t dep) const {
  if (!dep) return 0;
  const uint32_t back = seq - dep;
  if (back == 0 || back >= kDoneRing) return 0;  // itself, or long ago: ready
  const uint32_t slot = dep & (kDoneRing - 1);
  return done_seq_[slot] == dep ? done_[slot] : 0;
}

inline uint64_t CpuPipeline::ready(uint32_t seq, uint32_t dep) const { return result(seq, dep); }

inline void CpuPipeline::set_done(uint32_t seq, uint64_t t) {
  const uint32_t slot = seq & (kDoneRing - 1);
  if (done_seq_[slot] == seq) {  // another line of the same access
    if (t > done_[slot]) done_[slot] = t;
    return;
  }
  done_seq_[slot] = seq;
  done_[slot] = t;
}

template <class Memory>
#if defined(__GNUC__)
__attribute__((always_inline))  // into the core model's access: one frame a load, not two
#endif
inline void CpuPipeline::load(CoreClock& k, uint32_t seq, uint32_t dep, uint64_t addr, uint64_t bytes, Memory&& mem) {
  const uint64_t t0 = dispatch(k, Queue::Load);
  uint64_t t = t0;
  const uint64_t a = ready(seq, dep);  // its address
  if (a > t) {
    stats_.dep_wait_fs += a - t;
    t = a;
  }
  ++stats_.loads;
  if (!pending_.empty()) drain_due(t);
  const Forward* f = &forward_[(addr >> 2) % kForwardSlots];
  if (!(f->addr == addr && f->bytes >= bytes && f->commit > t)) f = wide_store(addr, bytes, t);
  uint64_t data;
  if (f) {
    // The value is still in the store queue: forwarded, no cache access.
    data = (f->data > t ? f->data : t) + forward_fs_;
    ++stats_.forwarded;
  } else {
    if (!pending_.empty()) drain_overlapping(addr, bytes);
    t = load_ports_.take(t);
    data = mem(t);
  }
  set_done(seq, data);
  lq_[lq_at_] = retire(k, data);
  if (++lq_at_ == lq_.size()) lq_at_ = 0;
}

inline void CpuPipeline::store(CoreClock& k, uint32_t seq, uint32_t dep, uint64_t addr, uint64_t bytes, uint64_t id) {
  clock_ = &k;
  // A full queue: the entry this store takes is the oldest's, written first.
  if (pending_.size() >= sq_.size()) drain_through(pending_.size() - sq_.size() + 1);
  const uint64_t t0 = dispatch(k, Queue::Store);
  // rfo: the stores due by now leave the queue before this one's line is
  // requested (their lines are checked in the order the cache sees them).
  if (core_.store_request == StoreRequest::Rfo && !pending_.empty()) drain_due(t0);
  uint64_t data = ready(seq, dep);
  if (data > t0) stats_.dep_wait_fs += data - t0;
  if (data < t0) data = t0;
  ++stats_.stores;
  const uint64_t port = store_ports_.take(t0);  // its address and data: a store port's cycle
  const uint64_t r = retire(k, data + period_fs_);
  if (core_.store_request == StoreRequest::Dispatch) {
    // The line is requested at dispatch (a write miss fetches it, holding a
    // miss slot), the data is written at commit.
    const uint64_t written = writer_(id, port);
    uint64_t commit = r > written ? r : written;
    if (last_commit_ > commit) commit = last_commit_;  // stores commit in order
    last_commit_ = commit;
    sq_[stores_++ % sq_.size()] = commit;
    if (commit > drained_) drained_ = commit;
    if (commit > k.end) k.end = commit;
    forward_[(addr >> 2) % kForwardSlots] = Forward{addr, bytes, data, commit, 0};
    if (bytes > kScalarBytes) note_wide(Forward{addr, bytes, data, commit, ~0ull});
    set_done(seq, data);
    return;
  }
  // rfo: the line is requested now (a write miss fetches it), the store
  // still leaves the queue in order (drain_through checks the line is there).
  const uint64_t line = core_.store_request == StoreRequest::Rfo ? writer_(id, port) : 0;
  // Retired, the store waits in the queue; it drains in order, one a cycle
  // per store port, and only then requests its line (drain_through). With
  // store_lines_per_cycle, a store to another line than the store before
  // waits a cycle after that line began to drain (Zen 4 writes one line a
  // cycle: eight stores to eight lines take 8 cycles, in pairs 6).
  uint64_t at = last_drain_ + drain_fs_;
  if (fill_fs_ && fill_clock_ && (addr >> 6) != fill_prev_line_) {
    // A store that turns to another line, one that came by a miss a short
    // while ago, drains slower than one to a line long resident
    // (bench/fidelity/probes.py tst: 1.7-3.2 cycles a store round-robin
    // over 8 such lines on the Emerald Rapids VM, spair's hits 1.1-1.3;
    // stores along a line, as a row's, pay once a line).
    const uint64_t filled = fill_clock_(addr);
    const uint64_t slow = last_drain_ + fill_fs_;
    if (filled && (r > slow ? r : slow) < filled + fill_window_fs_) {
      at = slow;
      ++stats_.fill_stores;
    }
  }
  fill_prev_line_ = addr >> 6;
  if (line_fs_ && (addr >> 6) != drain_line_) {
    if (drain_line_ != ~0ull && drain_line_at_ + line_fs_ > at) at = drain_line_at_ + line_fs_;
    if (r > at) at = r;
    drain_line_ = addr >> 6;
    drain_line_at_ = at;
  }
  if (r > at) at = r;
  last_drain_ = at;
  const uint64_t number = stores_++;
  sq_[number % sq_.size()] = ~0ull;  // not free until written (drain_through)
  forward_[(addr >> 2) % kForwardSlots] = Forward{addr, bytes, data, ~0ull, number};
  if (bytes > kScalarBytes) note_wide(Forward{addr, bytes, data, ~0ull, number});
  for (uint64_t b = addr >> 6; b <= (addr + bytes - 1) >> 6; ++b) ++pending_blocks_[b & 255];
  pending_.push_back(Waiting{addr, bytes, id, at, number, line});
  set_done(seq, data);
}

}  // namespace ptosim
