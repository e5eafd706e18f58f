#include <algorithm>
#include <cctype>

#include "sim/exec/emit.h"
#include "sim/exec/pto_op.h"
#include "sim/exec/tiling.h"
#include "sim/exec/scope_states.h"

namespace ptosim::exec {

using namespace detail;

Tensor load(ExecContext& c, const Tensor& view, const std::string& memory) {
  view.check_live();
  SpaceId dest = memory.empty() ? c.default_space() : c.space_id(memory);
  auto* r = c.reuse_for(view.name());
  // A resident tile in the destination space is the result itself.
  if (r && !r->hint_only && r->space == dest) return tile_load(c, view, Tensor());
  Tensor out = alloc_result(c, view.shape(), view.dtype(), dest, "load");
  Tensor got = tile_load(c, view, out);
  if (!got.same_storage(out)) {
    copy_values(got, out);
    move_events(c, got, out);
  }
  return out;
}

Tensor copy(ExecContext& c, const Tensor& x, const std::string& memory) { return load(c, x, memory); }

void store(ExecContext& c, const Tensor& src, const Tensor& dst) { assign(c, dst, src, OpKind::None); }

void assign(ExecContext& c, const Tensor& dst, const Operand& src, OpKind op) {
  dst.check_live();
  if (src.is_tensor()) src.tensor.check_live();
  check_writable(c, dst, "store");
  if (op != OpKind::None) apply_binary(op, 1.0, 1.0);  // validates op
  if (src.is_tensor() && broadcast_shapes(src.tensor.shape(), dst.shape()) != dst.shape())
    throw OpError("could not broadcast input of shape " + shape_str(src.tensor.shape()) + " into shape " +
                  shape_str(dst.shape()));
  if (dst.numel() == 0) return;
  // Values: read everything first, so overlapping source and destination views behave like NumPy.
  std::vector<double> sv;
  if (src.is_tensor()) {
    Indexer si(src.tensor, dst.shape());
    const auto& v = src.tensor.storage()->values;
    int64_t len = inner_len(dst.shape());
    sv.reserve(size_t(dst.numel()));
    for_each_row(dst.shape(), [&](const int64_t* outer, int64_t) {
      int64_t r = si.row(outer);
      for (int64_t j = 0; j < len; ++j) sv.push_back(v[size_t(r + si.inner()[size_t(j)])]);
    });
  }
  {
    Indexer di(dst);
    auto& dv = dst.storage()->values;
    DType dt = dst.dtype();
    int64_t len = inner_len(dst.shape());
    for_each_row(dst.shape(), [&](const int64_t* outer, int64_t n) {
      int64_t r = di.row(outer);
      for (int64_t j = 0; j < len; ++j) {
        double s = src.is_tensor() ? sv[size_t(n * len + j)] : src.scalar;
        double& d = dv[size_t(r + di.inner()[size_t(j)])];
        d = round_to(dt, op == OpKind::None ? s : apply_binary(op, d, s));
      }
    });
  }
  // Events: a data movement. `op=` reads src and dst (runs, interleaved by
  // row), then writes dst; a scalar `=` only writes dst.
  if (op == OpKind::None) {
    if (src.is_tensor()) move_events(c, src.tensor, dst);
    else emit_bulk(c, dst, AccessKind::Write, 1);
    return;
  }
  if (src.is_tensor()) {
    Tensor both_src = src.tensor;
    Indexer si(both_src, dst.shape()), di(dst);
    Coalescer rs(c, AccessKind::Read, both_src, UINT64_MAX), rd(c, AccessKind::Read, dst, UINT64_MAX);
    int64_t len = inner_len(dst.shape());
    for_each_row(dst.shape(), [&](const int64_t* outer, int64_t) {
      int64_t a = si.row(outer), b = di.row(outer);
      for (int64_t j = 0; j < len; ++j) {
        rs.add(si.addr(a + si.inner()[size_t(j)]), si.es);
        rd.add(di.addr(b + di.inner()[size_t(j)]), di.es);
      }
    });
    rs.flush();
    rd.flush();
  } else {
    emit_bulk(c, dst, AccessKind::Read, 1);
  }
  emit_bulk(c, dst, AccessKind::Write, 1);
  double flops = double(dst.numel()) * op_cost(c.config(), op);
  if (flops > 0) c.compute(op, flops);
}

Tensor layout_transform(ExecContext& c, const Tensor& x, const std::string& from_in, const std::string& to_in,
                        const std::vector<int64_t>& block_shape, int64_t vector_width) {
  x.check_live();
  auto up = [](std::string s) {
    for (auto& ch : s) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    return s;
  };
  std::string from = up(from_in), to = up(to_in);
  static const char* known[] = {"NCHW", "NHWC", "BLOCKED", "VECTORIZED", "ROW_MAJOR", "COL_MAJOR"};
  for (auto* s : {&from, &to}) {
    if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return *s == k; }) == std::end(known))
      throw OpError("layout_transform: unknown layout '" + *s +
                    "' (expected NCHW, NHWC, BLOCKED, VECTORIZED, ROW_MAJOR or COL_MAJOR)");
  }
  Tensor src = x;
  Layout lay;
  if ((from == "NCHW" || from == "NHWC") && (to == "NCHW" || to == "NHWC")) {
    if (x.rank() != 4)
      throw OpError("layout_transform " + from + "->" + to + " needs a 4-D tensor, got shape " + shape_str(x.shape()));
    if (from != to) src = x.transpose(from == "NCHW" ? std::vector<int>{0, 2, 3, 1} : std::vector<int>{0, 3, 1, 2});
  } else if (to == "BLOCKED") {
    if (block_shape.empty()) throw OpError("layout_transform to BLOCKED needs block_shape");
    lay = Layout::blocked(block_shape);
  } else if (to == "VECTORIZED") {
    if (vector_width <= 0) throw OpError("layout_transform to VECTORIZED needs vector_width > 0");
    lay = Layout::vectorized(vector_width);
  } else if (to == "COL_MAJOR") {
    lay = Layout::col_major();
  } else if (to == "NCHW" || to == "NHWC") {
    lay = Layout::row_major();  // e.g. BLOCKED -> NCHW: back to plain row-major
  }
  std::string name = c.result_name().empty() ? x.name() + "." + to : c.result_name();
  Tensor out = c.alloc(src.shape(), x.dtype(), x.space(), lay, name, c.result_name().empty() ? x.name() : name);
  copy_values(src, out);
  move_events(c, src, out);
  return out;
}

Tensor reshape(ExecContext& c, const Tensor& x, const Shape& shape) {
  x.check_live();
  if (auto v = x.reshape_view(shape)) return *v;
  Shape ns = x.resolve_shape(shape);
  Tensor out = alloc_result(c, ns, x.dtype(), x.space(), "reshape");
  Tensor as_x = *out.reshape_view(x.shape());  // fresh row-major: always a view
  copy_values(x, as_x);
  move_events(c, x, as_x);
  return out;
}

Tensor transpose(ExecContext&, const Tensor& x, const std::vector<int>& perm) {
  x.check_live();
  return x.transpose(perm);
}

Tensor subscript(ExecContext&, const Tensor& x, const std::vector<IndexItem>& items) {
  x.check_live();
  return x.index(items);
}

namespace {
int64_t element_phys(const Tensor& t, const std::vector<int64_t>& idx) {
  t.check_live();
  if (int(idx.size()) != t.rank())
    throw OpError("tensor '" + t.name() + "' has " + std::to_string(t.rank()) + " dimensions, indexed with " +
                  std::to_string(idx.size()));
  std::vector<int64_t> n(idx.size());
  for (size_t d = 0; d < idx.size(); ++d) n[d] = t.norm_index(int(d), idx[d]);
  return t.phys(n.data());
}
}  // namespace

double read_element(ExecContext& c, const Tensor& t, const std::vector<int64_t>& idx) {
  int64_t p = element_phys(t, idx);
  c.access(t.base_addr() + uint64_t(p) * t.elem_size(), t.elem_size(), AccessKind::Read, t.space(), t.tag());
  return t.storage()->values[size_t(p)];
}

void write_element(ExecContext& c, const Tensor& t, const std::vector<int64_t>& idx, double value) {
  int64_t p = element_phys(t, idx);
  check_writable(c, t, "element store");
  t.storage()->values[size_t(p)] = round_to(t.dtype(), value);
  c.access(t.base_addr() + uint64_t(p) * t.elem_size(), t.elem_size(), AccessKind::Write, t.space(), t.tag());
}

namespace {
std::string memory_of(const OpArgs& a, int k) { return a.text_or(k, "", "memory"); }
Tensor run_load(ExecContext& c, const OpArgs& a) { return load(c, a.tensor(0, "load source"), memory_of(a, 1)); }
Tensor run_copy(ExecContext& c, const OpArgs& a) { return copy(c, a.tensor(0, "copy source"), memory_of(a, 1)); }
Tensor run_store(ExecContext& c, const OpArgs& a) {
  store(c, a.tensor(0, "store source"), a.tensor(1, "store destination"));
  return Tensor();
}
Tensor run_layout_transform(ExecContext& c, const OpArgs& a) {
  const std::vector<int64_t> block = a.has(3) ? a.shape(3, "block_shape") : std::vector<int64_t>();
  return layout_transform(c, a.tensor(0, "layout_transform input"), a.text(1, "from_layout"),
                          a.text(2, "to_layout"), block, a.integer_or(4, 0, "vector_width"));
}
}  // namespace

PTOSIM_REGISTER(PtoOpConcept, Load, "load", 0, "a copy of a view in a space: its reads, then the copy's writes",
                pto_op({"view", "memory"}, 1, run_load));
PTOSIM_REGISTER(PtoOpConcept, Copy, "copy", 0, "a copy of a tensor (in its space, or `memory`)",
                pto_op({"x", "memory"}, 1, run_copy));
PTOSIM_REGISTER(PtoOpConcept, Store, "store", 0, "dst = src (src broadcast to dst's shape); no result",
                pto_op({"src", "dst"}, 2, run_store));
PTOSIM_REGISTER(PtoOpConcept, LayoutTransform, "layout_transform", 0,
                "x in another layout (NCHW, NHWC, blocked, vectorized, row_major, col_major): one read, one write",
                pto_op({"x", "from_layout", "to_layout", "block_shape", "vector_width"}, 3, run_layout_transform));

}  // namespace ptosim::exec
