#pragma once
// The executor's state for one program run: config, event sink, allocators,
// the scope stacks the interpreter drives (scope/profile, memory, tile,
// reuse, fuse, auto_reuse, parallel), the event counter and the collected
// ProgramResult. Ops (ops.h) take an ExecContext&.
#include <array>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sim/config/hw_config.h"
#include "sim/exec/allocator.h"
#include "sim/exec/hot_tiles.h"
#include "sim/exec/op_table.h"
#include "sim/exec/tensor.h"
#include "sim/exec/program_result.h"
#include "sim/trace/event.h"

namespace ptosim::exec {

// How an op's operands in a space turn into events (docs/EXEC.md).
enum class SpaceKind : uint8_t {
  Cached,      // global, or any space served by a cache: per element / per vector
  Constant,    // read-only memory: per element / per vector, writes by ops are errors
  Scratchpad,  // shared, ub, ...: bulk byte traffic (micro-kernel model)
  Register,    // register file: bulk register bytes, no cache
};

// `with pto.tile(M=64, N=64, K=32, into="shared")`
struct TileDirective {
  std::map<std::string, int64_t> sizes;  // "M","N","K" | "N","F","H","W","C" | "dim_0",...
  std::string into;                      // "" = "shared"
  std::string into_name() const { return into.empty() ? "shared" : into; }
  int64_t get(const std::string& dim, int64_t full) const {
    auto it = sizes.find(dim);
    return it == sizes.end() || it->second <= 0 ? full : std::min(it->second, full);
  }
  // The key a size is kept under: the keys the ops read (above) as they
  // are, the article's tile_m / tile_n / tile_k as M / N / K; nullopt for a
  // key no op reads, which would tile nothing.
  static std::optional<std::string> canonical_key(const std::string& key);
  static const char* valid_keys();  // for the message that refuses one
};

// `pto.tensor(shape, dtype, memory=, layout=, init=, seed=)`
struct TensorSpec {
  std::string name;
  Shape shape;
  DType dtype = DType::F32;
  std::string memory;            // "" = default space (innermost pto.memory, else global)
  Layout layout;
  std::string init = "zeros";    // zeros | ones | random | arange | "" (use init_value)
  std::optional<double> init_value;  // init=<float>
  uint64_t seed = 0;
};

class DataTap;

class ExecContext {
 public:
  // sink may be null: functional execution only (events are still counted
  // for the max_events guard).
  ExecContext(const HwConfig& config, EventSink* sink, uint64_t max_events = 2'000'000'000ull);
  ~ExecContext();
  ExecContext(const ExecContext&) = delete;
  ExecContext& operator=(const ExecContext&) = delete;

  const HwConfig& config() const { return config_; }
  // op_cost(config(), op), looked up once at construction (a lowering's
  // compute per register block step asked the config's map by name).
  double op_flops(OpKind op) const { return scalar_cost_[size_t(op) < scalar_cost_.size() ? size_t(op) : 0]; }
  EventSink* sink() const { return sink_; }
  // --check-data: `tap` (also the sink) learns every allocation and
  // initialisation, which carry no events.
  void set_data_tap(DataTap* tap) { tap_ = tap; }

  // ---- spaces ----
  SpaceId space_id(const std::string& name) const;  // OpError "unknown memory space 'x'"
  const std::string& space_name(SpaceId id) const;
  SpaceKind space_kind(SpaceId id) const { return kinds_.at(id); }
  size_t space_count() const { return kinds_.size(); }
  bool read_only(SpaceId id) const { return read_only_.at(id); }
  SpaceId register_space() const;  // OpError when the config has none
  uint64_t free_bytes(SpaceId id) const { return allocators_.at(id)->free_bytes(); }  // UINT64_MAX: unbounded
  SpaceId shared_space() const;
  SpaceId constant_space() const;
  // Space for results of compute ops: innermost pto.memory, else the first
  // tensor operand's space, else global.
  SpaceId result_space(const Tensor* first_operand) const;
  // Space for new tensors without memory=: innermost pto.memory, else global.
  SpaceId default_space() const;

  // ---- tensors ----
  // pto.tensor: allocate + initialise (no events).
  Tensor create(const TensorSpec& spec);
  // Allocate an uninitialised (zero) tensor. name "" = the current result
  // name (set_result_name), else "<op>#<n>".
  Tensor alloc(const Shape& shape, DType dtype, SpaceId space, const Layout& layout = {},
               const std::string& name = "", const std::string& tag_name = "");
  // The interpreter may say "the statement being evaluated assigns to C" so
  // that temporaries it allocates are named (and tagged) "C". "" = auto names.
  void set_result_name(const std::string& name) { result_name_ = name; }
  // The interpreter may also say "the statement rebinds the name that holds
  // the last reference to `old`": an allocation that does not fit otherwise
  // then takes old's place first (`acc = acc + x` updating acc's buffer, as
  // compiled code reuses it), instead of failing while both are live.
  void set_rebind(std::weak_ptr<Storage> old) { rebind_ = std::move(old); }
  const std::string& result_name() const { return result_name_; }
  TagId tensor_tag(const std::string& name);  // registers with the sink once

  // ---- scopes (the interpreter calls begin/end around `with` bodies; end
  // must be called on error paths too, or the context simply destroyed) ----
  void scope_begin(const std::string& name);  // pto.scope / pto.profile
  // Frees tensors allocated inside; with `release` false (a profiler's block,
  // which only names a region) they pass to the enclosing region instead.
  void scope_end(bool release = true);
  TagId region() const { return regions_.empty() ? 0 : regions_.back().tag; }

  void memory_push(const std::string& space);  // validates the name
  void memory_pop();
  bool in_memory_scope() const { return !memories_.empty(); }

  void tile_push(const TileDirective& t);      // validates into= and the keys
  void tile_pop();
  const TileDirective* tile() const { return tiles_.empty() ? nullptr : &tiles_.back(); }

  // scope: "block" -> shared, "thread" -> register, "kernel" -> constant, "global" -> hint only.
  void reuse_begin(const std::string& tensor_name, const std::string& scope);
  // Closes the innermost pto.reuse; returns why it served nothing ("" when
  // it served at least one tile).
  std::string reuse_end();

  void fuse_begin();
  // live_after: tensors still referenced after the block; only those produced
  // inside are written back.
  // dead: tensors bound to names in the block that nothing reads after it;
  // those made inside never leave the registers, so their buffers are
  // released here (reading one through another name is a use after free).
  void fuse_end(const std::vector<Tensor>& live_after, const std::vector<Tensor>& dead = {});
  bool fusing() const { return fuse_ != nullptr; }

  void auto_reuse_begin(const SourcePos& pos);
  // "t is dead after the current statement": its range is released now, so
  // the next allocation can reuse it. Using t afterwards is a use-after-free.
  void mark_dead(const Tensor& t);
  void auto_reuse_end();

  void parallel_begin(const std::string& axis, int64_t num);
  void set_core(int64_t iteration);  // core = iteration % core.count
  void parallel_end();
  uint32_t core() const { return acc_.core; }
  bool in_parallel() const { return !saved_cores_.empty(); }

  // ---- source positions (per-line attribution, leak sites) ----
  // The statement running now: its site id (every event carries it) and its
  // line and column (allocations record them). site_for_line() names a new
  // site with the sink on first use; the interpreter caches the id per node.
  struct Statement {
    SiteId site = 0;
    int line = 0, col = 0;
  };
  SiteId site_for_line(int line);
  // `s` lives in the statement's node (as long as the program): a pointer
  // and two bytes to store per statement run.
  void set_statement(const Statement* s) {
    acc_.site = s->site;
    stmt_ = s;
  }
  const Statement* statement() const { return stmt_; }
  // The user function running now (leak reports name the scope a buffer
  // escaped); "" = the top level.
  void function_push(const std::string& name) { functions_.push_back(name); }
  void function_pop() {
    if (!functions_.empty()) functions_.pop_back();
  }
  // Buffers in managed spaces (scratchpads, registers, constant memory)
  // still allocated now: call at the end of the program, while the
  // program's variables still hold them.
  void collect_leaks(const std::string& file);
  // pto.MemoryLeakDetector: the buffers alive now (held until leaks_since),
  // then those allocated after that mark and still allocated, in every space
  // but global, as collect_leaks reports them.
  using LiveMark = std::vector<std::weak_ptr<Storage>>;
  LiveMark live_buffers() const;
  std::vector<ProgramResult::Leak> leaks_since(const LiveMark& mark, const std::string& file) const;

  // pto.CacheSimulator: from now until side_end, every event goes to `side`
  // too (after the sink, in order); the sink's lane is not used meanwhile.
  void side_begin(EventSink* side);
  void side_end();

  // An op call of the program (`pto.load(...)`), while it is alive: the
  // scalar work pending before it is handed over first (so that none of
  // it lands among the op's events, with or without marks), and with op
  // marks on the sink hears where the op's events begin and end.
  class OpCall {
   public:
    OpCall(ExecContext& c, const std::string* name)
        : c_(c), id_(name ? c.op_begin(*name) : 0), unwinding_(std::uncaught_exceptions()) {}
    // No mark while an error unwinds: the sink may be gone, and the run with it.
    ~OpCall() {
      if (id_ && std::uncaught_exceptions() == unwinding_) c_.op_end(id_);
    }
    OpCall(const OpCall&) = delete;
    OpCall& operator=(const OpCall&) = delete;

   private:
    ExecContext& c_;
    uint16_t id_;
    int unwinding_;
  };
  // Sends op marks (EventSink::op_mark) from now on (--timeline).
  void enable_op_marks() { op_marks_ = true; }
  // Events only (`run --no-values`, tune's probes): the ops whose values
  // cost more than their events (pto.matmul's product, pto.ref.matmul) leave
  // their results' values unset, and pto.check passes without comparing
  // (its outcome says so). The events of a program whose control flow and
  // addresses do not depend on tensor values are unchanged.
  void disable_values() { values_ = false; }
  bool values() const { return values_; }

  // Tags accesses by tensor tile from now on (--hot-spots); `tile` as HotTiles.
  void enable_hot_tiles(std::vector<int64_t> tile) { hot_ = std::make_unique<HotTiles>(std::move(tile)); }
  // Tags accesses by bin of their tensor's address range instead (--heatmap-bins).
  void enable_heatmap_bins(uint32_t bins) {
    hot_ = std::make_unique<HotTiles>(std::vector<int64_t>{}, bins);
    result_.heatmap_bins = bins;
  }

  // ---- results ----
  ProgramResult& result() { return result_; }
  // Fills footprint and the event count; call once at the end of the run.
  ProgramResult take_result();
  uint64_t events() const { return events_; }

  // ---- events (used by ops; public so the interpreter can add its own) ----
  // acc_ holds the current region and core; the sink's lane (the event
  // pipe's chunk) takes the access in place when it has room.
  // Returns the access's event number (dataflow: a later event may wait for
  // it); `dep` is the event it waits for itself (0 = none).
  // `dtype` (dataflow only): the element type of the value a read yields,
  // which the scalar arithmetic on it is timed for.
  // Inlined: out of line, its call cost as much as its work in the
  // interpreter's loops (docs/notes/2026-12-06-speed.md).
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  uint32_t access(uint64_t addr, uint64_t bytes, AccessKind kind, SpaceId space, TagId tensor, uint32_t dep = 0,
                  DType dtype = DType::F32) {
    if (++events_ > max_events_) event_limit();
    if (dataflow_) value_dtype_[(seq_ + 1) & (kDtypeRing - 1)] = uint8_t(dtype);
    if (__builtin_expect(hot_ != nullptr, 0)) tensor = hot_->tag(*this, addr, tensor);
    if (__builtin_expect(capture_ != nullptr, 0)) capture_->push_back(addr);
    if (lane_ && lane_->next + 1 < lane_->end) {
      // Field by field into the slot, never through acc_: copying acc_ right
      // after storing its narrow fields made the CPU reload them as one wide
      // word, which store forwarding cannot serve (~2 % of a naive matmul's
      // CPU, docs/PERFORMANCE.md "third round").
      Access& s = *lane_->next++;
      s.addr = addr; s.bytes = bytes; s.kind = kind; s.space = space; s.tensor = tensor;
      s.region = acc_.region; s.site = acc_.site; s.core = acc_.core; s.elem_bytes = 0; s.dep = dep; s.stride = 0;
    } else if (sink_) {
      acc_.addr = addr; acc_.bytes = bytes; acc_.kind = kind; acc_.space = space; acc_.tensor = tensor;
      acc_.dep = dep;
      sink_->access(acc_);
    }
    return ++seq_;
  }
  // Accesses in a batch (a multiply-add's reads, one after another): while
  // lane_takes(n), the next n accesses need nothing but their records (no
  // dataflow, no hot-tile tagging nor address capture, room in the lane,
  // the event limit not reached), and access_lane() writes them as n calls
  // of access() would, the checks made once; it returns the number of the
  // first (the others follow it). cgconv's flat loops may take it too.
  struct LaneAccess {
    uint64_t addr, bytes;
    AccessKind kind;
    SpaceId space;
    TagId tensor;
    uint32_t dep;
  };
  bool lane_takes(uint32_t n) const {
    return !dataflow_ && hot_ == nullptr && capture_ == nullptr && lane_ && lane_->next + n < lane_->end &&
           events_ + n <= max_events_;
  }
  template <size_t N>
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  uint32_t access_lane(const LaneAccess (&a)[N]) {
    // Read once: the records' stores may alias acc_ (an Access too).
    const TagId region = acc_.region;
    const SiteId site = acc_.site;
    const CoreId core = acc_.core;
    Access* s = lane_->next;
    lane_->next = s + N;
    events_ += N;
    for (size_t k = 0; k < N; ++k) {
      s[k].addr = a[k].addr; s[k].bytes = a[k].bytes; s[k].kind = a[k].kind; s[k].space = a[k].space;
      s[k].tensor = a[k].tensor; s[k].region = region; s[k].site = site; s[k].core = core; s[k].elem_bytes = 0;
      s[k].dep = a[k].dep; s[k].stride = 0;
    }
    const uint32_t first = seq_ + 1;
    seq_ += uint32_t(N);
    return first;
  }
  // `count` elements of `elem_bytes` at addr, addr + stride, ... in one event
  // (scratchpad bank model); bytes = elem_bytes * count.
  void access_strided(uint64_t addr, uint32_t elem_bytes, uint64_t count, int64_t stride, AccessKind kind,
                      SpaceId space, TagId tensor) {
    if (++events_ > max_events_) event_limit();
    if (__builtin_expect(hot_ != nullptr, 0)) tensor = hot_->tag(*this, addr, tensor);
    if (dataflow_) value_dtype_[(seq_ + 1) & (kDtypeRing - 1)] = kUntyped;
    ++seq_;
    if (sink_) {
      acc_.addr = addr; acc_.bytes = uint64_t(elem_bytes) * count; acc_.kind = kind; acc_.space = space;
      acc_.tensor = tensor; acc_.elem_bytes = uint8_t(elem_bytes); acc_.stride = stride; acc_.dep = 0;
      sink_->access(acc_);
      acc_.elem_bytes = 0; acc_.stride = 0;
    }
  }
  // `masked`: flops of vector lanes the instructions issue but mask off
  // (Compute::masked), time and not work.
  void compute(OpKind op, double flops, double masked = 0);
  // One scalar float operation the program does itself (the `+=` and `*` of
  // `C[i, j] += A[i, k] * B[k, j]`), on operands produced by events d0, d1
  // (0 = none). Counted per kind and handed to the sink as Compute events in
  // batches of kScalarBatch operations (and whenever the region or core
  // changes, before any op's own Compute, and at the end): an event per
  // scalar op would double the events of a naive loop, each worth a
  // fraction of a cycle. With dataflow (core model `cpu`) each one is an
  // event of its own, since its place in the dependence chains is its
  // time; the result is its event number (0 without dataflow).
  uint32_t scalar_op(OpKind op, uint32_t d0 = 0, uint32_t d1 = 0) {
    if (scalar_muted_) return 0;
    if (dataflow_) return scalar_event(op, d0, d1);
    // A batch holds one statement's operations, so that its flops are that
    // line's exactly (the loop statements around it have none of their own,
    // so a naive loop's batches still fill up).
    if (__builtin_expect(acc_.site != scalar_site_, 0)) {
      flush_scalar();
      scalar_site_ = acc_.site;
    }
    ++scalar_ops_[size_t(op)];
    if (++scalar_pending_ >= kScalarBatch) flush_scalar();
    return 0;
  }
  // scalar_op(a) then scalar_op(b), taken now, when neither would hand the
  // sink anything (no dataflow, the same statement's batch with room for
  // both): true. Else nothing is counted and the caller calls scalar_op();
  // false. A multiply-add then writes its four accesses in one batch
  // (access_lane), since no Compute can fall between its reads and its write.
  bool scalar_ops_quiet(OpKind a, OpKind b) {
    if (scalar_muted_) return true;
    if (dataflow_ || acc_.site != scalar_site_ || scalar_pending_ + 2 >= kScalarBatch) return false;
    ++scalar_ops_[size_t(a)];
    ++scalar_ops_[size_t(b)];
    scalar_pending_ += 2;
    return true;
  }
  // One iteration of a program loop: with dataflow, its counter and branch
  // are instructions too, and one more per induction stream past the
  // first (Compute::scalar; ForRangeStmt counts an innermost loop's).
  void loop_iteration(uint32_t streams = 1) {
    ++loop_iterations_;
    if (dataflow_ && !scalar_muted_) scalar_event(OpKind::Loop, 0, 0, streams);
  }
  uint64_t loop_iterations() const { return loop_iterations_; }
  // While `to` is set, the address of every access is appended to it (an
  // innermost loop learns its iterations' strides; dataflow only).
  void capture_addresses(std::vector<uint64_t>* to) { capture_ = to; }
  bool dataflow() const { return dataflow_; }
  static constexpr uint32_t kScalarBatch = 256;
  // While one is alive (and `on`), scalar_op() counts nothing.
  class ScalarMute {
   public:
    ScalarMute(ExecContext& c, bool on) : c_(c), on_(on) { c_.scalar_muted_ += on_; }
    ~ScalarMute() { c_.scalar_muted_ -= on_; }
    ScalarMute(const ScalarMute&) = delete;
    ScalarMute& operator=(const ScalarMute&) = delete;

   private:
    ExecContext& c_;
    int on_;
  };
  void flush_scalar();
  [[noreturn]] void event_limit() const;

  // ---- internals shared by the op implementations ----
  struct FuseState;
  struct ReuseState;
  struct AutoReuseState;
  FuseState* fuse_state() { return fuse_.get(); }
  ReuseState* reuse_for(const std::string& tensor_name);
  void note_alloc(const std::shared_ptr<Storage>& st);
  void note_release(const Storage& st);
  const std::string& current_scope_name() const;

 private:
  void emit_compute(OpKind op, double flops, SiteId site, double masked = 0);  // to the sink, as it is
  uint16_t op_begin(const std::string& name);  // the op's mark id, 0 = none sent
  void op_end(uint16_t id);
  uint32_t scalar_event(OpKind op, uint32_t d0, uint32_t d1, uint32_t scalar = 1);
  std::vector<uint64_t>* capture_ = nullptr;
  uint64_t loop_iterations_ = 0;
  const HwConfig& config_;
  EventSink* sink_;
  DataTap* tap_ = nullptr;
  AccessLane* lane_;
  std::unique_ptr<EventSink> tee_;  // sink + side (side_begin)
  EventSink* saved_sink_ = nullptr;
  uint64_t max_events_;
  uint64_t events_ = 0;
  uint32_t seq_ = 0;        // events emitted: the last one's number (event.h)
  bool dataflow_ = false;   // emit dependences (core model cpu)
  // Dataflow: the element type of each recent event's value (a read's
  // tensor, an op's operands), by event number; kUntyped for none.
  static constexpr uint32_t kDtypeRing = 1u << 16;
  static constexpr uint8_t kUntyped = 0xff;
  std::vector<uint8_t> value_dtype_;
  uint8_t operand_dtype(uint32_t d0, uint32_t d1) const;
  std::array<double, size_t(OpKind::Count)> scalar_cost_{};  // flops of one scalar op, per kind
  Access acc_;  // the next access: region and core kept current, the rest filled per access
  std::vector<std::string> space_names_;
  std::vector<SpaceKind> kinds_;
  std::vector<bool> read_only_;
  std::vector<std::shared_ptr<SpaceAllocator>> allocators_;
  std::vector<SpaceId> alias_of_;  // the space each space is (itself, or the memory's own space)
  std::unordered_map<std::string, TagId> tensor_tags_;
  std::unordered_map<std::string, TagId> region_tags_;
  struct Region {
    std::string name;
    std::string path;  // "conv/fblock/image": regions nest, and are tagged by path
    TagId tag;
    std::vector<std::weak_ptr<Storage>> allocated;
  };
  std::vector<Region> regions_;  // regions_[0] is the program's top level
  Statement no_statement_;  // before the first statement runs
  const Statement* stmt_ = &no_statement_;
  std::unique_ptr<HotTiles> hot_;
  std::vector<SiteId> site_of_line_;  // by line; 0 = not named yet
  SiteId sites_ = 0;
  std::vector<std::string> functions_;
  std::vector<SpaceId> memories_;
  std::vector<TileDirective> tiles_;
  // Open scopes' states (scope_states.h), innermost last.
  std::vector<std::unique_ptr<ReuseState>> reuses_;
  std::unique_ptr<FuseState> fuse_;
  int fuse_depth_ = 0;
  std::vector<std::unique_ptr<AutoReuseState>> auto_reuses_;
  std::string result_name_;
  std::weak_ptr<Storage> rebind_;
  uint64_t allocate_range(SpaceAllocator& al, SpaceId space, uint64_t bytes, const std::string& name);
  uint64_t serial_ = 0;
  uint64_t anon_ = 0;
  std::vector<CoreId> saved_cores_;  // of the enclosing pto.parallel loops
  std::array<uint64_t, size_t(OpKind::Count)> scalar_ops_{};  // since the last flush_scalar()
  uint32_t scalar_pending_ = 0;
  SiteId scalar_site_ = 0;  // the statement whose operations are pending
  bool op_marks_ = false;
  bool values_ = true;  // disable_values()
  std::unordered_map<std::string, uint16_t> op_ids_;  // op name -> mark id (named with the sink)
  int scalar_muted_ = 0;
  ProgramResult result_;
  friend struct OpsInternal;
};

}  // namespace ptosim::exec
