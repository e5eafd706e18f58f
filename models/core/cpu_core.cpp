// `core.model: cpu`: each core's time comes from a CpuPipeline (an
// out-of-order window with dependences, cpu_pipeline.h). Events arrive
// numbered, which is how their dependences name each other; every access
// goes through the pipeline one line at a time, and an access to a register
// file is an operand, not an instruction.
#include "models/core/core_timing.h"
#include "models/core/cpu_pipeline.h"

#include <deque>
#include <stdexcept>

#include "sim/config/params.h"

namespace ptosim {
namespace {

class CpuCore final : public CoreTiming {
 public:
  CpuCore(const CoreConfig& config, double period_fs, uint32_t cores)
      : config_(config), period_fs_(period_fs), track_fills_(config.store_fill_cycles > 0) {
    waiting_.resize(cores);
    if (track_fills_) fills_.assign(cores, std::vector<Fill>(kFills));
    for (uint32_t i = 0; i < cores; ++i) {
      pipes_.push_back(std::make_unique<CpuPipeline>(config, period_fs));
      // A store drained from the queue: its piece goes to its route now.
      pipes_.back()->set_store_writer([this, i](uint64_t id, uint64_t t) {
        if (config_.store_request == StoreRequest::Dispatch) {
          // Within p.store(), for the store access() just gave it.
          if (!now_.port || now_.id != id) throw std::logic_error("cpu core: a store sent out of order");
          ++now_.clock->line_requests;
          return now_.port->send(now_.addr, now_.bytes, &t);
        }
        std::deque<Waiting>& q = waiting_[i];
        if (config_.store_request == StoreRequest::Rfo) {
          // Sent at dispatch, through the access's own port; the store stays
          // queued for the refetcher.
          if (q.empty() || q.back().id != id) throw std::logic_error("cpu core: a store sent out of order");
          Waiting& w = q.back();
          ++w.clock->line_requests;
          return send_noting_fill(i, *w.port, w.addr, w.bytes, t);
        }
        if (q.empty() || q.front().id != id) throw std::logic_error("cpu core: stores drained out of order");
        Waiting w = std::move(q.front());
        q.pop_front();
        ++w.clock->line_requests;
        return (w.kept ? w.kept.get() : w.port)->send(w.addr, w.bytes, &t);
      });
      pipes_.back()->set_fill_clock([this, i](uint64_t addr) {
        const Fill& f = fills_[i][(addr >> 6) % kFills];
        return f.line == addr >> 6 ? f.at : 0;
      });
      // rfo: the store leaves the queue; its line again if it has gone (a
      // write without bytes: they were written at dispatch).
      pipes_.back()->set_store_refetcher([this, i](uint64_t id, uint64_t t) {
        std::deque<Waiting>& q = waiting_[i];
        if (q.empty() || q.front().id != id) throw std::logic_error("cpu core: stores drained out of order");
        Waiting w = std::move(q.front());
        q.pop_front();
        // Gone from the exact cache, and the loads (and their prefetches)
        // alone filled its set at least a set's worth of times since it was
        // requested: a set's
        // fills land in the order sent and the store at the head commits
        // when its line lands, so the other stores' lines, sent after it,
        // land after it; the loads running ahead are what evicts it
        // natively (bench/fidelity/probes.py, lsk: load hits in the set
        // cost little, load fills much, store-only columns nothing).
        if (!w.ways || w.kept->holds(w.addr) || w.kept->load_fills(w.addr) - w.fills < w.ways)
          return CpuPipeline::kLineThere;
        ++w.clock->line_requests;
        return w.kept->send(w.addr, w.bytes, &t);
      });
    }
  }

  void access(CoreClock& k, uint32_t seq, const Access& a, CorePort& port) override {
    CpuPipeline& p = *pipes_[k.id];
    const bool write = a.kind == AccessKind::Write || a.kind == AccessKind::Fill;
    k.count(write, a.bytes);
    if (port.reg) {
      // Still a transfer for the register file's counters, but no time: the
      // value is an operand, its readiness flows through the pipeline.
      port.count_only(k.issue_at);
      if (write)
        p.register_write(seq, a.dep, a.addr);
      else
        p.register_read(seq, a.dep, a.addr);
      return;
    }
    if (!write) {
      // Most loads are within one line (a vector, a broadcast): that piece
      // without for_each_piece's closure (a dozen captures to set up).
      const uint64_t bytes = a.bytes ? a.bytes : 1;
      if (!port.line || (a.addr & (port.line - 1)) + bytes <= port.line)
        return load_piece(k, p, seq, a.dep, port, a.addr, bytes);
      for_each_piece(a, port, [&](uint64_t addr, uint64_t n) { load_piece(k, p, seq, a.dep, port, addr, n); });
      return;
    }
    if (config_.store_request == StoreRequest::Dispatch) {
      // The pipeline writes the line at once (its writer, inside store()):
      // no queue entry to keep the route for later.
      for_each_piece(a, port, [&](uint64_t addr, uint64_t bytes) {
        now_ = Now{next_id_++, addr, bytes, &k, &port};
        p.store(k, seq, a.dep, addr, bytes, now_.id);
        now_.port = nullptr;
      });
      return;
    }
    const bool rfo = config_.store_request == StoreRequest::Rfo;
    for_each_piece(a, port, [&](uint64_t addr, uint64_t bytes) {
      // The line goes out when the store queue drains the store (the
      // pipeline calls the writer): keep the route for then.
      const uint64_t id = next_id_++;
      // (rfo: both; the later send, a refetch, carries no bytes.)
      std::unique_ptr<CorePort> kept;
      if (config_.store_request == StoreRequest::Drain)
        kept = port.retain();
      else if (config_.store_request == StoreRequest::Rfo)
        kept = port.retain(false);
      Waiting w{id, addr, bytes, &k, &port, std::move(kept)};
      if (rfo) {
        w.ways = port.ways();
        if (w.ways) w.fills = port.load_fills(addr);
      }
      waiting_[k.id].push_back(std::move(w));
      p.store(k, seq, a.dep, addr, bytes, id);
    });
  }

  void compute(CoreClock& k, uint32_t seq, const Compute& c) override { pipes_[k.id]->compute(k, seq, c); }

  void settle(CoreClock& k) override { pipes_[k.id]->settle(); }

  void report(StatsNode& n) const override {
    n.set("model", config_.model);
    CpuStats t;
    for (auto& p : pipes_) t += p->stats();
    n.set("instructions", t.uops).set("forwarded_loads", t.forwarded);
    n.set("rob_stall_cycles", double(t.rob_stall_fs) / period_fs_);
    n.set("lq_stall_cycles", double(t.lq_stall_fs) / period_fs_);
    n.set("sq_stall_cycles", double(t.sq_stall_fs) / period_fs_);
    if (config_.store_request == StoreRequest::Rfo) n.set("store_refetches", t.store_refetches);
    if (track_fills_) n.set("fill_stores", t.fill_stores);
    n.set("operand_wait_cycles", double(t.dep_wait_fs) / period_fs_);
  }

 private:
  // One line of a load (or a scratchpad's whole transfer).
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  void load_piece(CoreClock& k, CpuPipeline& p, uint32_t seq, uint32_t dep, CorePort& port, uint64_t addr,
                  uint64_t bytes) {
    p.load(k, seq, dep, addr, bytes, [&](uint64_t t) {
      ++k.line_requests;
      return send_noting_fill(k.id, port, addr, bytes, t);
    });
  }

  // Sends a line at t; with store_fill_cycles, a miss's arrival is noted
  // for the core's fill clock.
  uint64_t send_noting_fill(uint32_t core, CorePort& port, uint64_t addr, uint64_t bytes, uint64_t t) {
    const bool miss = track_fills_ && !port.holds(addr);
    const uint64_t there = port.send(addr, bytes, &t);
    if (miss) fills_[core][(addr >> 6) % kFills] = Fill{addr >> 6, there};
    return there;
  }

  const CoreConfig& config_;
  double period_fs_;
  std::vector<std::unique_ptr<CpuPipeline>> pipes_;  // one per core
  struct Waiting {
    uint64_t id, addr, bytes;
    CoreClock* clock;
    CorePort* port;                   // the access's own, while it lasts
    std::unique_ptr<CorePort> kept;   // a copy for a store written later
    uint64_t fills = 0;               // rfo: the loads' fills of its first-level set at dispatch
    uint32_t ways = 0;                // rfo: that level's ways (0: no cache level)
  };
  std::vector<std::deque<Waiting>> waiting_;  // per core: stores in the queue, oldest first
  // store_request: dispatch: the store being given to a pipeline, which
  // writes it before store() returns (a queue entry per store cost ~60
  // instructions a store).
  struct Now {
    uint64_t id = 0, addr = 0, bytes = 0;
    CoreClock* clock = nullptr;
    CorePort* port = nullptr;
  } now_;
  // store_fill_cycles: per core, when lines last arrived in the first level
  // by a miss (a load's, or a store's sent at dispatch), by line hash.
  struct Fill {
    uint64_t line = ~0ull, at = 0;
  };
  static constexpr size_t kFills = 4096;
  bool track_fills_;
  std::vector<std::vector<Fill>> fills_;
  uint64_t next_id_ = 0;
};

PTOSIM_REGISTER(CoreModelConcept, Cpu, "cpu", 1,
                "an out-of-order core: dependences, reorder window, load/store queues, op latencies",
                make_core<CpuCore>, traits::kDataflow, traits::kStoreQueue);

// The keys the pipeline reads (sim/config/params.h). config show writes them
// for a model that takes the program's dataflow; the rest of `core` (the
// issue width, the flops, op_timing) every model shares and the loader reads.
Param<CoreConfig> cpu(Param<CoreConfig> p, int rank, const char* doc, const char* example) {
  return std::move(p).about(concepts::kCoreModel, "cpu", doc, example, rank).shown_when([](const CoreConfig& k) {
    return k.dataflow();
  });
}

using param::choice;
using param::count;
using param::cycles;

PTOSIM_PARAMS(CoreConfig, CpuCore,
  cpu(count("rob_entries", &CoreConfig::rob_entries, 1, 4096), 10, "the reorder window", "512"),
  cpu(count("lq_entries", &CoreConfig::lq_entries, 1, 4096), 20, "the load queue", "192"),
  cpu(count("sq_entries", &CoreConfig::sq_entries, 1, 4096), 30, "the store queue", "114"),
  cpu(count("load_ports", &CoreConfig::load_ports, 1, 64), 40, "loads started per cycle", "3"),
  cpu(count("store_ports", &CoreConfig::store_ports, 1, 64), 50, "stores started per cycle", "2"),
  cpu(cycles("forward_latency", &CoreConfig::forward_latency), 60,
      "store-to-load forwarding (0: memory renaming)", "0 cycles"),
  cpu(count("loop_uops", &CoreConfig::loop_uops, 0, 64), 70,
      "instructions per loop iteration of a program (counter, compare-and-branch)", "3"),
  cpu(choice("store_request", &CoreConfig::store_request, kStoreRequests), 80,
      "when a store requests its line: `dispatch` (its address is known), `drain` (as the store queue drains "
      "it, in order after it retires, one a cycle per store port), or `rfo` (at dispatch, draining in order as "
      "with `drain`; a store whose line has left the first level while the loads and their prefetches alone "
      "filled its set there at least the level's ways times requests it again as it commits, the younger "
      "stores waiting; `core.store_refetches` counts those); docs/TIMING.md, \"Stores\". `config host` writes "
      "`rfo` or `drain` by vendor (sim/config/host_vendor_cores.yaml)",
      "rfo"),
  cpu(count("store_lines_per_cycle", &CoreConfig::store_lines_per_cycle, 0, 64), 90,
      "with `store_request: drain` or `rfo`: the distinct lines the store queue writes a cycle (0 = no bound). "
      "Stores to the line of the store before drain `store_ports` a cycle; a store to another line waits a "
      "cycle (/ N) after that line began",
      "1")
      .shown_when([](const CoreConfig& k) { return k.dataflow() && k.store_lines_per_cycle; }),
  cpu(count("store_fill_cycles", &CoreConfig::store_fill_cycles, 0, 64), 100,
      "with `store_request: drain` or `rfo`: cycles a store drains after the queue's previous drain when it "
      "turns to another line than the store before, one that arrived by a miss less than `store_fill_window` "
      "cycles before (0 = no such cost; `core.fill_stores` counts them; docs/TIMING.md, \"Stores\")",
      "3")
      .shown_when([](const CoreConfig& k) { return k.dataflow() && k.store_fill_cycles; }),
  cpu(count("store_fill_window", &CoreConfig::store_fill_window, 0, 1u << 20), 110,
      "the cycles after a line's miss during which `store_fill_cycles` applies", "400")
      .shown_when([](const CoreConfig& k) { return k.dataflow() && k.store_fill_cycles; }));

}  // namespace
}  // namespace ptosim
