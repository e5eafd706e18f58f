#include "sim/exec/exec_context.h"

#include <algorithm>
#include <set>

#include "sim/exec/data_tap.h"
#include "sim/common/memory_budget.h"
#include "sim/exec/emit.h"
#include "sim/exec/scope_states.h"

namespace ptosim::exec {

namespace {
constexpr uint64_t kGlobalBase = 0x10000000ull;
// Non-global spaces get disjoint address ranges so that a din trace (which
// has no space field) never aliases two spaces.
uint64_t space_base(SpaceId id) { return id == 0 ? kGlobalBase : uint64_t(id) << 40; }
}  // namespace

ExecContext::ExecContext(const HwConfig& config, EventSink* sink, uint64_t max_events)
    : config_(config), sink_(sink), lane_(sink ? sink->lane() : nullptr), max_events_(max_events) {
  dataflow_ = sink != nullptr && config.core.dataflow();
  if (dataflow_) value_dtype_.assign(kDtypeRing, kUntyped);
  for (size_t k = 0; k < scalar_cost_.size(); ++k) scalar_cost_[k] = op_cost(config, OpKind(k));
  space_names_ = config.space_names();
  if (space_names_.empty()) space_names_.push_back("global");
  uint64_t align = std::max<uint64_t>(config.alignment, 1);
  for (auto& cc : config.caches) align = std::max<uint64_t>(align, cc.line);
  for (size_t i = 0; i < space_names_.size(); ++i) {
    const std::string& n = space_names_[i];
    // A space maps to a module; a memory module makes it an explicit space,
    // a cache or the DRAM makes it cached like global.
    auto sp = config.spaces.find(n);
    const MemoryConfig* m = i == 0 ? nullptr : config.memory(sp != config.spaces.end() ? sp->second : n);
    SpaceKind k = SpaceKind::Cached;
    bool ro = false;
    uint64_t cap = 0;
    if (m) {
      k = m->kind == MemoryKind::Register   ? SpaceKind::Register
          : m->kind == MemoryKind::Constant ? SpaceKind::Constant
                                            : SpaceKind::Scratchpad;
      ro = m->read_only || m->kind == MemoryKind::Constant;
      cap = m->size;
    }
    kinds_.push_back(k);
    read_only_.push_back(ro);
    allocators_.push_back(std::make_shared<SpaceAllocator>(n, SpaceId(i), space_base(SpaceId(i)), cap, align));
    allocators_.back()->set_sink(sink);
  }
  // A space mapped to a memory that serves a space of its own name (the
  // NPU's `shared: l1`) is that space: one allocator, one capacity, one
  // address range, as the program and the hardware share one buffer.
  for (size_t i = 0; i < space_names_.size(); ++i) {
    alias_of_.push_back(SpaceId(i));
    auto sp = config.spaces.find(space_names_[i]);
    if (i == 0 || sp == config.spaces.end() || sp->second == space_names_[i] || !config.memory(sp->second)) continue;
    for (size_t j = 0; j < space_names_.size(); ++j)
      if (space_names_[j] == sp->second) alias_of_.back() = SpaceId(j);
  }
  regions_.push_back({"", "", 0, {}});
}

// Tensors may outlive the context (the interpreter's values): they keep
// their allocators alive through shared_ptr, but must not report to a sink
// that may be gone. Defined here, where the scope states are complete types.
ExecContext::~ExecContext() {
  for (auto& a : allocators_) a->set_sink(nullptr);
}

SpaceId ExecContext::space_id(const std::string& name) const {
  for (size_t i = 0; i < space_names_.size(); ++i)
    if (space_names_[i] == name) return alias_of_[i];
  std::string known;
  for (auto& n : space_names_) known += (known.empty() ? "" : ", ") + n;
  throw OpError("unknown memory space '" + name + "' (config defines: " + known + ")");
}

const std::string& ExecContext::space_name(SpaceId id) const { return space_names_.at(id); }

SpaceId ExecContext::register_space() const {
  for (size_t i = 0; i < kinds_.size(); ++i)
    if (space_names_[i] == "register") return alias_of_[i];
  for (size_t i = 0; i < kinds_.size(); ++i)
    if (kinds_[i] == SpaceKind::Register) return SpaceId(i);
  throw OpError("the hardware config has no register space");
}
SpaceId ExecContext::shared_space() const { return space_id("shared"); }
SpaceId ExecContext::constant_space() const { return space_id("constant"); }

SpaceId ExecContext::default_space() const { return memories_.empty() ? kGlobalSpace : memories_.back(); }

SpaceId ExecContext::result_space(const Tensor* first) const {
  if (!memories_.empty()) return memories_.back();
  if (first && first->valid() && !read_only_[first->space()]) return first->space();
  return kGlobalSpace;
}

TagId ExecContext::tensor_tag(const std::string& name) {
  auto it = tensor_tags_.find(name);
  if (it != tensor_tags_.end()) return it->second;
  if (tensor_tags_.size() >= 65535) return 0;
  TagId id = TagId(tensor_tags_.size() + 1);
  tensor_tags_[name] = id;
  if (sink_) sink_->name_tensor(id, name);
  return id;
}

Tensor ExecContext::alloc(const Shape& shape, DType dtype, SpaceId space, const Layout& layout,
                          const std::string& name_in, const std::string& tag_name) {
  for (auto d : shape)
    if (d < 0) throw OpError("negative dimension in shape " + shape_str(shape));
  std::string name = !name_in.empty() ? name_in : !result_name_.empty() ? result_name_ : "tmp#" + std::to_string(++anon_);
  std::string tname = !tag_name.empty() ? tag_name : !name_in.empty() || !result_name_.empty() ? name : "tmp";
  int64_t phys = 0;
  std::vector<DimMap> dims = layout_dims(shape, layout, &phys);
  auto st = std::make_shared<Storage>();
  st->dtype = dtype;
  st->shape = shape;
  st->layout = layout;
  st->space = space;
  st->space_name = space_names_.at(space);
  st->bytes = uint64_t(phys) * dtype_size(dtype);
  st->name = name;
  auto& al = allocators_.at(space);
  st->base = allocate_range(*al, space, st->bytes, name);
  st->allocator = al;
  memory_budget::charge(uint64_t(phys) * sizeof(double));  // before the values take the memory
  st->charged = uint64_t(phys) * sizeof(double);
  st->values.assign(size_t(phys), 0.0);
  if (tap_) tap_->allocated(st, acc_.core);
  st->tag = tensor_tag(tname);
  st->alloc_serial = ++serial_;
  st->alloc_line = stmt_->line;
  st->alloc_col = stmt_->col;
  if (!functions_.empty()) st->alloc_scope = functions_.back();
  note_alloc(st);
  if (hot_) hot_->note_alloc(st, tname);
  return Tensor(st, shape, std::move(dims), 0);
}

uint64_t ExecContext::allocate_range(SpaceAllocator& al, SpaceId space, uint64_t bytes, const std::string& name) {
  try {
    return al.allocate(bytes, name);
  } catch (const OpError&) {
    std::shared_ptr<Storage> old = rebind_.lock();
    if (!old || old->space != space || old->freed || !old->allocator) throw;
    rebind_.reset();
    old->allocator->release(old->base);
    old->allocator = nullptr;  // its range is the new buffer's now: not released again
    return al.allocate(bytes, name);
  }
}

void ExecContext::note_alloc(const std::shared_ptr<Storage>& st) {
  auto& list = regions_.back().allocated;
  if (list.size() >= 1024 && (list.size() & (list.size() - 1)) == 0) {  // prune at powers of two
    list.erase(std::remove_if(list.begin(), list.end(), [](auto& w) { return w.expired(); }), list.end());
  }
  list.push_back(st);
  for (auto& a : auto_reuses_) {
    uint64_t size = allocators_[st->space]->rounded(st->bytes);
    a->ranges.push_back({(uint64_t(st->space) << 48) | st->base, size});
    a->sum_sizes += size;
  }
}

void ExecContext::note_release(const Storage&) {}

const std::string& ExecContext::current_scope_name() const { return regions_.back().name; }

Tensor ExecContext::create(const TensorSpec& spec) {
  SpaceId sp = spec.memory.empty() ? default_space() : space_id(spec.memory);
  Tensor t = alloc(spec.shape, spec.dtype, sp, spec.layout, spec.name);
  int64_t n = t.numel();
  // A new allocation's values are zeros already (alloc): nothing to write.
  const bool zeros = !spec.init_value && (spec.init == "zeros" || spec.init.empty());
  std::vector<double> v(zeros ? 0 : size_t(n), 0.0);
  if (spec.init_value) {
    std::fill(v.begin(), v.end(), *spec.init_value);
  } else if (zeros) {
  } else if (spec.init == "ones") {
    std::fill(v.begin(), v.end(), 1.0);
  } else if (spec.init == "random") {
    Rng rng(spec.seed);
    for (auto& x : v) x = rng.uniform();
  } else if (spec.init == "arange") {
    for (int64_t i = 0; i < n; ++i) v[size_t(i)] = double(i);
  } else {
    throw OpError("unknown init '" + spec.init + "' (expected zeros, ones, random, arange or a number)");
  }
  if (!zeros) t.from_vector(v);
  if (tap_ && !(spec.init == "zeros" && !spec.init_value)) tap_->initialised(*t.storage(), acc_.core);
  return t;
}

// ---- scopes ----

void ExecContext::scope_begin(const std::string& name) {
  flush_scalar();
  // Tagged by the path from the outermost region, so that reports can show
  // the nesting (each path's own traffic, and its subtree's).
  const std::string path = regions_.size() > 1 ? regions_.back().path + "/" + name : name;
  auto it = region_tags_.find(path);
  TagId tag;
  if (it != region_tags_.end()) {
    tag = it->second;
  } else {
    tag = TagId(std::min<size_t>(region_tags_.size() + 1, 65535));
    region_tags_[path] = tag;
    if (sink_) sink_->name_region(tag, path);
  }
  regions_.push_back({name, path, tag, {}});
  acc_.region = tag;
}

void ExecContext::scope_end(bool release) {
  if (regions_.size() <= 1) throw OpError("scope_end without scope_begin");
  flush_scalar();
  Region r = std::move(regions_.back());
  regions_.pop_back();
  acc_.region = region();
  if (!release) {
    for (auto& w : r.allocated) regions_.back().allocated.push_back(std::move(w));
    return;
  }
  for (auto& w : r.allocated)
    if (auto st = w.lock()) st->release(r.name);
}

void ExecContext::memory_push(const std::string& space) { memories_.push_back(space_id(space)); }
void ExecContext::memory_pop() {
  if (!memories_.empty()) memories_.pop_back();
}

std::optional<std::string> TileDirective::canonical_key(const std::string& key) {
  static const std::map<std::string, std::string> keys = {
      {"M", "M"}, {"N", "N"}, {"K", "K"}, {"F", "F"}, {"H", "H"}, {"W", "W"}, {"C", "C"},
      {"tile_m", "M"}, {"tile_n", "N"}, {"tile_k", "K"}};
  if (auto it = keys.find(key); it != keys.end()) return it->second;
  // dim_0 .. dim_7: an axis of an elementwise op, a reduction or a softmax (tensors have at most 8).
  if (key.size() == 5 && key.compare(0, 4, "dim_") == 0 && key[4] >= '0' && key[4] <= '7') return key;
  return std::nullopt;
}

const char* TileDirective::valid_keys() {
  return "M, N, K (matmul; also tile_m, tile_n, tile_k), N, F, H, W, C (conv2d), dim_0 .. dim_7 (elementwise ops, "
         "reductions, softmax) and into";
}

void ExecContext::tile_push(const TileDirective& t) {
  for (auto& [k, v] : t.sizes) {
    if (TileDirective::canonical_key(k) != k)
      throw OpError("pto.tile: unknown tile key '" + k + "' (valid: " + TileDirective::valid_keys() + ")");
    if (v <= 0) throw OpError("pto.tile: tile size " + k + "=" + std::to_string(v) + " must be positive");
  }
  TileDirective d = t;
  if (d.into.empty()) d.into = "shared";
  SpaceId sp = space_id(d.into);
  if (read_only_[sp]) throw OpError("pto.tile: into='" + d.into + "' is a read-only space");
  tiles_.push_back(d);
  if (hot_) hot_->note_directive(d.sizes);
}
void ExecContext::tile_pop() {
  if (!tiles_.empty()) tiles_.pop_back();
}

// The loop's iterations run on the cores round-robin; the loop starts and
// ends with a barrier, as a kernel launch and its join would.
void ExecContext::parallel_begin(const std::string&, int64_t num) {
  if (num <= 0) throw OpError("pto.parallel: num must be positive");
  flush_scalar();
  saved_cores_.push_back(acc_.core);
  // Each core's iterations reuse only what that core freed (allocator.h).
  for (auto& a : allocators_) a->begin_core_pools(config_.core.count);
  if (sink_) sink_->barrier(true);
}
void ExecContext::set_core(int64_t iteration) {
  flush_scalar();
  uint32_t n = std::max<uint32_t>(config_.core.count, 1);
  acc_.core = CoreId(uint64_t(iteration < 0 ? -iteration : iteration) % n);
  for (auto& a : allocators_) a->set_core(acc_.core);
}
void ExecContext::parallel_end() {
  flush_scalar();
  if (!saved_cores_.empty()) {
    acc_.core = saved_cores_.back();
    saved_cores_.pop_back();
    for (auto& a : allocators_) {
      a->set_core(acc_.core);
      a->end_core_pools();
    }
  }
  if (sink_) sink_->barrier(!saved_cores_.empty());
}

// ---- events / results ----

void ExecContext::compute(OpKind op, double flops, double masked) {
  if (++events_ > max_events_) event_limit();
  flush_scalar();
  emit_compute(op, flops, acc_.site, masked);
}

void ExecContext::emit_compute(OpKind op, double flops, SiteId site, double masked) {
  if (!sink_) return;
  if (dataflow_) value_dtype_[(seq_ + 1) & (kDtypeRing - 1)] = kUntyped;
  ++seq_;
  Compute cp;
  cp.flops = uint64_t(flops + 0.5);
  cp.masked = uint32_t(std::min(masked, double(UINT32_MAX)) + 0.5);
  cp.op = uint16_t(op);
  cp.region = region();
  cp.core = acc_.core;
  cp.site = site;
  cp.op_class = uint8_t(op_info(op).cls);
  sink_->compute(cp);
}

uint32_t ExecContext::scalar_event(OpKind op, uint32_t d0, uint32_t d1, uint32_t scalar) {
  if (!sink_) return 0;
  Compute cp;
  cp.flops = uint64_t(scalar_cost_[size_t(op)] + 0.5);
  cp.op = uint16_t(op);
  cp.region = region();
  cp.core = acc_.core;
  cp.scalar = uint8_t(scalar < 255 ? scalar : 255);
  cp.site = acc_.site;
  cp.op_class = uint8_t(op_info(op).cls);
  cp.dep[0] = d0;
  cp.dep[1] = d1;
  const uint8_t dt = operand_dtype(d0, d1);
  cp.dtype = dt == kUntyped ? uint8_t(DType::F32) : dt;
  sink_->compute(cp);
  value_dtype_[(seq_ + 1) & (kDtypeRing - 1)] = dt;
  return ++seq_;
}

// The type a scalar op computes in: its operands' when they agree or only
// one is typed (a Python literal or loop-derived float has no type of its
// own), float32 when two float types meet (C's promotion on these cores) or
// an integer element is mixed in (a float op converts it). An operand too
// far back for the ring counts as untyped.
uint8_t ExecContext::operand_dtype(uint32_t d0, uint32_t d1) const {
  auto of = [&](uint32_t d) -> uint8_t {
    if (!d || seq_ - d >= kDtypeRing) return kUntyped;
    const uint8_t t = value_dtype_[d & (kDtypeRing - 1)];
    return t == uint8_t(DType::I32) || t == uint8_t(DType::I8) ? uint8_t(DType::F32) : t;
  };
  const uint8_t a = of(d0), b = of(d1);
  if (a == kUntyped) return b;
  if (b == kUntyped || a == b) return a;
  return uint8_t(DType::F32);
}

// Not counted against --max-events: at most one per kScalarBatch operations
// that the interpreter's step limit already bounds, and flushed on scope exit
// (error paths included), where a throw would be out of place.
void ExecContext::flush_scalar() {
  if (!scalar_pending_) return;
  scalar_pending_ = 0;
  for (size_t k = 0; k < scalar_ops_.size(); ++k) {
    if (!scalar_ops_[k]) continue;
    const double flops = double(scalar_ops_[k]) * op_cost(config_, OpKind(k));
    scalar_ops_[k] = 0;
    if (flops > 0) emit_compute(OpKind(k), flops, scalar_site_);
  }
}

uint16_t ExecContext::op_begin(const std::string& name) {
  flush_scalar();
  if (!op_marks_ || !sink_) return 0;
  auto it = op_ids_.find(name);
  if (it == op_ids_.end()) {
    if (op_ids_.size() >= 65535) return 0;
    it = op_ids_.emplace(name, uint16_t(op_ids_.size() + 1)).first;
    sink_->name_op(it->second, name);
  }
  sink_->op_mark(it->second, true, acc_.core);
  return it->second;
}

void ExecContext::op_end(uint16_t id) {
  if (sink_) sink_->op_mark(id, false, acc_.core);
}

void ExecContext::event_limit() const {
  throw OpError("event limit " + std::to_string(max_events_) + " exceeded (--max-events)");
}

SiteId ExecContext::site_for_line(int line) {
  if (line <= 0) return 0;
  if (size_t(line) >= site_of_line_.size()) site_of_line_.resize(size_t(line) + 1, 0);
  SiteId& s = site_of_line_[size_t(line)];
  if (!s && sites_ < 65535) {  // past 65535 distinct lines, the rest go unattributed
    s = ++sites_;
    if (sink_) sink_->name_site(s, uint32_t(line));
  }
  return s;
}

namespace {
// Every space but global: a buffer the program placed in `shared` is still a
// buffer it forgot, whether `shared` is a scratchpad here or an alias of a
// cache (the Xeon config), so --leaks answers the same on every config.
bool leaked(const std::shared_ptr<Storage>& st) { return st && !st->freed && st->space != kGlobalSpace; }

ProgramResult::Leak leak_of(const Storage& st, const std::string& file) {
  ProgramResult::Leak l;
  l.pos = SourcePos{file, st.alloc_line, st.alloc_col};
  l.tensor = st.name;
  l.space = st.space_name;
  l.bytes = st.bytes;
  l.scope = st.alloc_scope;
  return l;
}
}  // namespace

void ExecContext::collect_leaks(const std::string& file) {
  for (auto& w : regions_.front().allocated)
    if (auto st = w.lock(); leaked(st)) result_.leaks.push_back(leak_of(*st, file));
}

ExecContext::LiveMark ExecContext::live_buffers() const {
  LiveMark m;
  for (const Region& r : regions_)
    for (auto& w : r.allocated)
      if (!w.expired()) m.push_back(w);
  return m;
}

std::vector<ProgramResult::Leak> ExecContext::leaks_since(const LiveMark& mark, const std::string& file) const {
  // The mark's weak pointers keep their control blocks, so a storage made
  // after the mark never has the address of one made before.
  std::set<const Storage*> before;
  for (auto& w : mark)
    if (auto st = w.lock()) before.insert(st.get());
  std::vector<ProgramResult::Leak> out;
  for (const Region& r : regions_)
    for (auto& w : r.allocated)
      if (auto st = w.lock(); leaked(st) && !before.count(st.get())) out.push_back(leak_of(*st, file));
  return out;
}

namespace {
// Every event to the run's sink (if any), then to the side model.
class TeeSink final : public EventSink {
 public:
  TeeSink(EventSink* main, EventSink* side) : main_(main), side_(side) {}
  void access(const Access& a) override {
    if (main_) main_->access(a);
    side_->access(a);
  }
  void accesses(const Access* a, size_t n) override {
    if (main_) main_->accesses(a, n);
    side_->accesses(a, n);
  }
  void compute(const Compute& c) override {
    if (main_) main_->compute(c);
  }
  void barrier(bool parallel) override {
    if (main_) main_->barrier(parallel);
  }
  void name_tensor(TagId id, const std::string& n) override {
    if (main_) main_->name_tensor(id, n);
  }
  void name_region(TagId id, const std::string& n) override {
    if (main_) main_->name_region(id, n);
  }
  void name_site(SiteId id, uint32_t line) override {
    if (main_) main_->name_site(id, line);
  }
  void name_op(uint16_t id, const std::string& n) override {
    if (main_) main_->name_op(id, n);
  }
  void op_mark(uint16_t id, bool begin, CoreId core) override {
    if (main_) main_->op_mark(id, begin, core);
  }
  void footprint(SpaceId space, uint64_t bytes) override {
    if (main_) main_->footprint(space, bytes);
  }
  void access_data(const Access& a, const uint8_t* data) override {
    if (main_) main_->access_data(a, data);
    side_->access(a);
  }
  void host_write(const Access& a, const uint8_t* data) override {
    if (main_) main_->host_write(a, data);
  }
  void expect(const Access& a, const uint8_t* data) override {
    if (main_) main_->expect(a, data);
  }
  void position(const std::string& file, int line, int col) override {
    if (main_) main_->position(file, line, col);
  }

 private:
  EventSink* main_;
  EventSink* side_;
};
}  // namespace

void ExecContext::side_begin(EventSink* side) {
  if (tee_) throw OpError("a CacheSimulator is already simulating (simulate() calls do not nest)");
  flush_scalar();
  saved_sink_ = sink_;
  tee_ = std::make_unique<TeeSink>(sink_, side);
  sink_ = tee_.get();
  lane_ = nullptr;  // what was written into the lane is the sink's already
}

void ExecContext::side_end() {
  if (!tee_) return;
  flush_scalar();
  sink_ = saved_sink_;
  lane_ = sink_ ? sink_->lane() : nullptr;
  tee_.reset();
}

ProgramResult ExecContext::take_result() {
  flush_scalar();
  for (auto& a : allocators_) {
    SpaceFootprint f;
    f.peak_bytes = a->peak();
    f.capacity = a->capacity();
    result_.footprint[a->space()] = f;
  }
  result_.events = events_;
  if (hot_) {
    result_.tile_tensor = hot_->tensor_of();
    result_.tile_shape = hot_->shape_of();
    result_.tensor_order = hot_->tensor_order();
    result_.tile_bin = hot_->bin_of();
    result_.tensor_bytes = hot_->bytes_of();
  }
  return std::move(result_);
}

}  // namespace ptosim::exec
