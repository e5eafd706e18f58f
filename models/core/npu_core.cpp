// `core.model: npu`: an AI core as a set of engines (MTE2, MTE1, cube,
// fixpipe, vector, MTE3) that each work through their own queue and overlap
// wherever the buffers allow, as a DaVinci kernel with ping-pong buffers
// does; `simple` would run them one after another. The engine of a piece of
// work is read off the roles of the buffers it moves between
// (sim/config/npu_config.h), so the executor only has to emit transfers as
// reads followed by their write and cube work as its operand reads, a
// Compute and its result write. Dependences are those of the data: a
// transfer waits for what wrote its source (read after write) and for what
// still reads or writes its destination (write after read / write), tracked
// per 512 B granule (the NPU's fractal block; buffers are aligned to it).
// docs/TIMING.md, "The NPU core".
#include <algorithm>
#include <cmath>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/core/core_timing.h"
#include "sim/config/npu_config.h"

namespace ptosim {
namespace {

constexpr unsigned kGranuleBits = 9;
constexpr size_t kMaxPendingReads = 4096;  // a read-only stream flushes as its own transfers

struct Hazard {
  uint64_t written = 0;  // when the last write of the granule completed
  uint64_t read = 0;     // when the last read of it completed
};

struct Engine {
  uint64_t free = 0;  // fs when it can start its next piece of work
};

// A read already sent, waiting for the write or compute that says whose it is.
struct Pending {
  Access a;
  uint64_t done = 0;  // its data is there
};

struct CoreState {
  Engine engines[size_t(Pipe::Count)];
  uint64_t busy_fs[size_t(Pipe::Count)] = {};
  uint64_t transfers[size_t(Pipe::Count)] = {};  // pieces of work (transfers, or computes)
  std::vector<Pending> reads;
  // Writes with no reads before them that follow a compute are its
  // results; after a transfer, more of its destination (a transfer into a
  // strided view writes several runs after its reads).
  bool results = false;
  bool transfer = false;  // the last group was a transfer: its engine streams the rest
  Pipe result_pipe = Pipe::Vector;
  SpaceId result_space = 0;  // a transfer's destination
  uint64_t result_at = 0;
};

class NpuCore final : public CoreTiming {
 public:
  NpuCore(const CoreConfig& config, double period_fs, uint32_t cores)
      : config_(config), npu_(config.npu), period_fs_(period_fs), states_(cores) {}

  void access(CoreClock& k, uint32_t, const Access& a, CorePort& port) override {
    CoreState& s = states_[k.id];
    const bool write = a.kind == AccessKind::Write || a.kind == AccessKind::Fill;
    k.count(write, a.bytes);
    if (!write) {
      s.results = false;
      if (s.reads.size() >= kMaxPendingReads) flush(k, s);
      // A read goes when the engine of its source would start it, after the
      // engine's setup: which engine, exactly, only its write will say, but
      // --check-data compares its bytes when access() returns, and a run
      // with the check must time what a run without it does.
      const Pipe src = source_pipe(role(a.space));
      const uint64_t t = std::max(engine(s, src).free + setup_fs(src), hazard(a, true));
      return s.reads.push_back({a, send_one(k, a, port, t, false)});
    }
    if (s.reads.empty() && s.results && (!s.transfer || a.space == s.result_space))
      return result_write(k, s, a, port);
    // Data with no source in the core (a tensor's initial values written to
    // global memory) is the host's: it costs the memories, not an engine.
    if (s.reads.empty() && role(a.space) == BufferRole::None) {
      const uint64_t t = hazard(a, false);
      return note(k, t, send(k, a, port, t));
    }
    transfer(k, s, a, port);
  }

  void compute(CoreClock& k, uint32_t, const Compute& c) override {
    CoreState& s = states_[k.id];
    bool cube = false;
    for (const Pending& r : s.reads) cube = cube || role(r.a.space) == BufferRole::L0A || role(r.a.space) == BufferRole::L0B;
    const Pipe p = cube ? Pipe::Cube : Pipe::Vector;
    Engine& e = engine(s, p);
    uint64_t start = e.free;
    const uint64_t data = reads_ready(s, start);
    const double peak = cube ? config_.flops_per_cycle : npu_.vector_flops_per_cycle;
    const uint64_t work = uint64_t(std::llround(period_fs_ * double(c.issued()) / peak));
    start = std::max(start, data);
    e.free = start + work;
    busy(s, p) += work;
    ++transfers(s, p);
    k.computed(c);
    k.compute_fs += work;
    s.results = true;
    s.transfer = false;
    s.result_pipe = p;
    s.result_at = e.free;
    note(k, start, e.free);
  }

  void settle(CoreClock& k) override { flush(k, states_[k.id]); }

  void report(StatsNode& n) const override {
    n.set("model", config_.model);
    StatsNode& list = n.child("pipes", NodeKind::List);
    for (size_t p = 0; p < size_t(Pipe::Count); ++p) {
      uint64_t busy = 0, count = 0;
      for (const CoreState& s : states_) busy += s.busy_fs[p], count += s.transfers[p];
      StatsNode& row = list.child(kPipes.name(Pipe(p)), NodeKind::Row);
      row.set("busy_cycles", double(busy) / period_fs_).set("transfers", count);
    }
  }

 private:
  BufferRole role(SpaceId s) const { return s < npu_.space_roles.size() ? npu_.space_roles[s] : BufferRole::None; }

  // The engine that moves data from `src` to `dst` (None: global memory).
  static Pipe pipe_for(BufferRole src, BufferRole dst) {
    if (src == BufferRole::None) return Pipe::Mte2;
    if (src == BufferRole::L0C) return Pipe::Fixpipe;
    if (dst == BufferRole::L0B) return Pipe::Mte1B;
    if (src == BufferRole::L1) return Pipe::Mte1A;  // to l0a, or a bias into l0c
    if (src == BufferRole::UB && dst == BufferRole::None) return Pipe::Mte3;
    if (src == BufferRole::L0A || src == BufferRole::L0B) return Pipe::Cube;
    return Pipe::Vector;
  }

  // A transfer: its pending reads, then write `w` once their data is there.
  void transfer(CoreClock& k, CoreState& s, const Access& w, CorePort& port) {
    BufferRole src = s.reads.empty() ? BufferRole::UB : role(s.reads.front().a.space);
    for (const Pending& r : s.reads)
      if (role(r.a.space) == BufferRole::None) src = BufferRole::None;  // from global memory: a load
    const BufferRole dst = role(w.space);
    const Pipe p = s.reads.empty() ? Pipe::Vector : pipe_for(src, dst);
    Engine& e = engine(s, p);
    const PipeConfig& pc = npu_.pipe(p);
    uint64_t bytes = 0, ready = 0;
    for (const Pending& r : s.reads) bytes += r.a.bytes, ready = std::max(ready, hazard(r.a, true));
    if (!bytes) bytes = w.bytes;
    const uint64_t start = std::max({e.free, ready, hazard(w, false)});
    const uint64_t t0 = start + uint64_t(std::llround(period_fs_ * pc.setup));
    const uint64_t data = reads_ready(s, t0);
    const uint64_t stream =
        pc.bandwidth > 0 ? uint64_t(std::llround(period_fs_ * double(bytes) / pc.bandwidth)) : 0;
    // The engine is busy for its setup and while it streams the bytes; the
    // memories' latency beyond that delays the write, not its next transfer.
    e.free = t0 + stream;
    s.results = s.transfer = true;
    s.result_pipe = p;
    s.result_space = w.space;
    s.result_at = std::max(data, e.free);
    const uint64_t done = send(k, w, port, s.result_at);
    busy(s, p) += e.free - start;
    ++transfers(s, p);
    note(k, start, done);
  }

  // MTE1 is one engine whether it fills l0a or l0b (at each one's rate).
  static Engine& engine(CoreState& s, Pipe p) { return s.engines[size_t(p == Pipe::Mte1B ? Pipe::Mte1A : p)]; }
  static uint64_t& busy(CoreState& s, Pipe p) { return s.busy_fs[size_t(p)]; }
  static uint64_t& transfers(CoreState& s, Pipe p) { return s.transfers[size_t(p)]; }

  // A compute's result, written when the compute is done; or the rest of a
  // transfer's destination, streamed by its engine after what it wrote.
  void result_write(CoreClock& k, CoreState& s, const Access& w, CorePort& port) {
    uint64_t t = std::max({s.result_at, hazard(w, false)});
    if (s.transfer) {
      Engine& e = engine(s, s.result_pipe);
      const double bw = npu_.pipe(s.result_pipe).bandwidth;
      const uint64_t stream = bw > 0 ? uint64_t(std::llround(period_fs_ * double(w.bytes) / bw)) : 0;
      t = std::max(t, e.free);
      e.free = t + stream;
      busy(s, s.result_pipe) += stream;
      t = e.free;
    }
    note(k, t, send(k, w, port, t));
  }

  // Pending reads with nothing after them (a barrier, the end): their own
  // engine's transfers, by where they read.
  void flush(CoreClock& k, CoreState& s) {
    if (s.reads.empty()) return;
    const Pipe p = source_pipe(role(s.reads.front().a.space));
    Engine& e = engine(s, p);
    const uint64_t start = e.free;
    const uint64_t data = reads_ready(s, start);
    e.free = std::max(start, data);
    busy(s, p) += e.free - start;
    ++transfers(s, p);
    note(k, start, data);
  }

  // The engine that reads a source with nothing after it to say more.
  static Pipe source_pipe(BufferRole src) {
    return src == BufferRole::L0A || src == BufferRole::L0B ? Pipe::Cube : pipe_for(src, BufferRole::None);
  }

  // When the pending reads' data is there (no sooner than t0).
  static uint64_t reads_ready(CoreState& s, uint64_t t0) {
    uint64_t data = t0;
    for (const Pending& r : s.reads) data = std::max(data, r.done);
    s.reads.clear();
    return data;
  }

  uint64_t setup_fs(Pipe p) const { return uint64_t(std::llround(period_fs_ * npu_.pipe(p).setup)); }

  uint64_t send(CoreClock& k, const Access& w, CorePort& port, uint64_t t) { return send_one(k, w, port, t, true); }

  uint64_t send_one(CoreClock& k, const Access& a, CorePort& port, uint64_t t, bool write) {
    uint64_t done = t;
    for_each_piece(a, port, [&](uint64_t addr, uint64_t bytes) {
      uint64_t tt = t;
      done = std::max(done, port.send(addr, bytes, &tt));
      ++k.line_requests;
    });
    mark(a, done, write);
    return done;
  }

  // When `a`'s bytes were last written (raw) or last read or written (else).
  uint64_t hazard(const Access& a, bool raw) const {
    uint64_t t = 0;
    for_granules(a, [&](uint64_t g) {
      auto it = hazards_.find(g);
      if (it != hazards_.end()) t = std::max(t, raw ? it->second.written : std::max(it->second.written, it->second.read));
    });
    return t;
  }

  void mark(const Access& a, uint64_t t, bool write) {
    for_granules(a, [&](uint64_t g) {
      Hazard& h = hazards_[g];
      uint64_t& slot = write ? h.written : h.read;
      slot = std::max(slot, t);
    });
  }

  template <class F>
  static void for_granules(const Access& a, F&& f) {
    const uint64_t span = a.stride ? uint64_t(std::abs(a.stride)) * (a.bytes / std::max<uint64_t>(a.elem_bytes, 1)) : a.bytes;
    const uint64_t lo = a.stride < 0 ? a.addr - span : a.addr;
    const uint64_t last = (lo + std::max<uint64_t>(span, 1) - 1) >> kGranuleBits;
    for (uint64_t g = lo >> kGranuleBits; g <= last; ++g) f(g);
  }

  static void note(CoreClock& k, uint64_t start, uint64_t done) {
    k.issue_at = std::max(k.issue_at, start);
    k.end = std::max(k.end, done);
  }

  const CoreConfig& config_;
  const NpuConfig& npu_;
  double period_fs_;
  std::vector<CoreState> states_;
  std::unordered_map<uint64_t, Hazard> hazards_;
};

PTOSIM_REGISTER(CoreModelConcept, Npu, "npu", 2,
                "an AI core's engines (MTE2, MTE1, cube, fixpipe, vector, MTE3) overlapping where the buffers allow",
                make_core<NpuCore>, traits::kEveryAccess);

}  // namespace
}  // namespace ptosim
