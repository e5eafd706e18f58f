#include <algorithm>
#include <cmath>

#include "sim/exec/emit.h"
#include "sim/exec/pto_op.h"
#include "sim/exec/register_block.h"
#include "sim/exec/tiling.h"

namespace ptosim::exec {

using namespace detail;

namespace {

// The view with the reduced axis moved last (all axes: x itself, rows of x).
Tensor reduce_order(const Tensor& x, std::optional<int> axis) {
  if (!axis) return x;
  std::vector<int> perm;
  for (int d = 0; d < x.rank(); ++d)
    if (d != *axis) perm.push_back(d);
  perm.push_back(*axis);
  return x.transpose(perm);
}

// Element-mode reads of `xt` in row order, per chunk of V along the row;
// `per_row` is called after each row (e.g. to write the row's result).
template <class F>
void row_reads(ExecContext& c, const Tensor& xt, int64_t row_len, F&& per_row) {
  int64_t done = 0;
  vector_rows(c, xt, AccessKind::Read, [&](int64_t len) {
    done += len;
    if (row_len > 0 && done % row_len == 0) per_row(done / row_len - 1);
  });
}

}  // namespace

Tensor reduce(ExecContext& c, OpKind op, const Tensor& x, std::optional<int> axis_in, bool keepdims) {
  x.check_live();
  if (op != OpKind::ReduceSum && op != OpKind::ReduceMean && op != OpKind::ReduceMax)
    throw OpError(std::string("not a reduction: ") + op_info(op).name);
  std::optional<int> axis;
  if (axis_in) axis = norm_axis(*axis_in, x.rank(), op_info(op).name);
  if (x.rank() == 0) axis.reset();
  Shape out_shape;
  for (int d = 0; d < x.rank(); ++d) {
    bool red = !axis || d == *axis;
    if (!red) out_shape.push_back(x.shape()[size_t(d)]);
    else if (keepdims) out_shape.push_back(1);
  }
  int64_t R = axis ? x.shape()[size_t(*axis)] : x.numel();
  if (R == 0 && op == OpKind::ReduceMax)
    throw OpError("zero-size array to reduction operation reduce_max which has no identity");
  DType dt = op == OpKind::ReduceMean && !dtype_is_float(x.dtype()) ? DType::F32 : x.dtype();
  Tensor out = alloc_result(c, out_shape, dt, c.result_space(&x), op_info(op).name);
  // Values.
  Tensor xt = reduce_order(x, axis);
  {
    std::vector<double> v = xt.to_vector();
    auto& dv = out.storage()->values;
    int64_t rows = R ? int64_t(v.size()) / R : numel(out_shape);
    for (int64_t r = 0; r < rows; ++r) {
      double acc = op == OpKind::ReduceMax ? -INFINITY : 0.0;
      for (int64_t k = 0; k < R; ++k) {
        double e = v[size_t(r * R + k)];
        if (op == OpKind::ReduceMax) acc = std::isnan(e) || std::isnan(acc) ? NAN : std::max(acc, e);
        else acc += e;
      }
      if (op == OpKind::ReduceMean) acc = R ? acc / double(R) : NAN;
      dv[size_t(r)] = round_to(dt, acc);
    }
  }
  // Events.
  if (dim_tiling(c) && !c.fusing() && !cpu_tile_lowering(c, 0)) {
    tiled_reduce_events(c, op, x, axis, keepdims, out);
    return out;
  }
  Mode mx = read_mode(c, x), mo = write_mode(c, out);
  if (mx == Mode::Element) {
    Indexer ox(out);
    std::vector<int64_t> ophys(size_t(out.numel()));
    {
      int64_t n = 0;
      for_each_row(out.shape(), [&](const int64_t* outer, int64_t) {
        int64_t r = ox.row(outer);
        for (int64_t j = 0; j < inner_len(out.shape()); ++j) ophys[size_t(n++)] = r + ox.inner()[size_t(j)];
      });
    }
    row_reads(c, xt, R, [&](int64_t r) {
      if (mo == Mode::Element) c.access(ox.addr(ophys[size_t(r)]), ox.es, AccessKind::Write, out.space(), out.tag());
    });
  } else {
    emit_whole(c, x, AccessKind::Read, mx);
    if (mo == Mode::Element) emit_vectors(c, out, AccessKind::Write);
  }
  if (mo != Mode::Element) emit_whole(c, out, AccessKind::Write, mo);
  double flops = double(x.numel()) * op_cost(c.config(), op);
  if (flops > 0) c.compute(op, flops);
  return out;
}

Tensor softmax(ExecContext& c, const Tensor& x, int axis_in) {
  x.check_live();
  int axis = norm_axis(axis_in, x.rank(), "softmax");
  DType dt = dtype_is_float(x.dtype()) ? x.dtype() : DType::F32;
  Tensor out = alloc_result(c, x.shape(), dt, c.result_space(&x), "softmax");
  Tensor xt = x.rank() ? reduce_order(x, axis) : x;
  Tensor ot = x.rank() ? reduce_order(out, axis) : out;
  int64_t R = x.rank() ? x.shape()[size_t(axis)] : 1;
  if (c.values()) {  // --no-values (and run --sample): the events below alone
    std::vector<double> v = xt.to_vector(), o(v.size());
    int64_t rows = R ? int64_t(v.size()) / R : 0;
    for (int64_t r = 0; r < rows; ++r) {
      const double* p = v.data() + r * R;
      double m = -INFINITY, s = 0;
      for (int64_t k = 0; k < R; ++k) m = std::max(m, p[k]);
      for (int64_t k = 0; k < R; ++k) s += std::exp(p[k] - m);
      for (int64_t k = 0; k < R; ++k) o[size_t(r * R + k)] = std::exp(p[k] - m) / s;
    }
    ot.from_vector(o);
  }
  if (dim_tiling(c) && !c.fusing() && !cpu_tile_lowering(c, 0)) {
    tiled_softmax_events(c, x, axis, out);
    return out;
  }
  Mode mx = read_mode(c, x), mo = write_mode(c, out);
  if (mx == Mode::Element || mo == Mode::Element) {
    // Per row: a max pass, an exp-sum pass, then a normalise pass that reads
    // and writes each vector.
    uint64_t vb = vector_bytes(c);
    Indexer ix(xt), ox(ot);
    Coalescer rc(c, AccessKind::Read, xt, vb), wc(c, AccessKind::Write, ot, vb);
    int64_t V = std::max<int64_t>(1, int64_t(vb / std::max(ix.es, ox.es)));
    if (mx != Mode::Element) emit_whole(c, x, AccessKind::Read, mx);
    for_each_row(xt.shape(), [&](const int64_t* outer, int64_t) {
      int64_t r = ix.row(outer), w = ox.row(outer);
      for (int pass = 0; pass < 3; ++pass)
        for (int64_t j0 = 0; j0 < R; j0 += V) {
          int64_t j1 = std::min(R, j0 + V);
          if (mx == Mode::Element) {
            for (int64_t j = j0; j < j1; ++j) rc.add(ix.addr(r + ix.inner()[size_t(j)]), ix.es);
            rc.flush();
          }
          if (pass == 2 && mo == Mode::Element) {
            for (int64_t j = j0; j < j1; ++j) wc.add(ox.addr(w + ox.inner()[size_t(j)]), ox.es);
            wc.flush();
          }
        }
    });
    if (mo != Mode::Element) emit_whole(c, out, AccessKind::Write, mo);
  } else {
    emit_whole(c, x, AccessKind::Read, mx);
    emit_whole(c, out, AccessKind::Write, mo);
  }
  double flops = double(x.numel()) * op_cost(c.config(), OpKind::Softmax);
  if (flops > 0) c.compute(OpKind::Softmax, flops);
  return out;
}

namespace {
std::optional<int> axis_of(const OpArgs& a, int k) {
  if (!a.has(k)) return std::nullopt;
  return int(a.integer(k, "axis"));
}
template <OpKind K>
Tensor run_reduce(ExecContext& c, const OpArgs& a) {
  return reduce(c, K, a.tensor(0, "reduction input"), axis_of(a, 1), a.flag(2));
}
Tensor run_softmax(ExecContext& c, const OpArgs& a) {
  return softmax(c, a.tensor(0, "softmax input"), axis_of(a, 1).value_or(-1));
}
}  // namespace

PTOSIM_REGISTER(PtoOpConcept, ReduceSum, "reduce_sum", 0, "the sum over one axis, or over all when axis is None",
                pto_op({"x", "axis", "keepdims"}, 1, run_reduce<OpKind::ReduceSum>));
PTOSIM_REGISTER(PtoOpConcept, ReduceMean, "reduce_mean", 0, "the mean over one axis, or over all when axis is None",
                pto_op({"x", "axis", "keepdims"}, 1, run_reduce<OpKind::ReduceMean>));
PTOSIM_REGISTER(PtoOpConcept, ReduceMax, "reduce_max", 0, "the maximum over one axis, or over all when axis is None",
                pto_op({"x", "axis", "keepdims"}, 1, run_reduce<OpKind::ReduceMax>));
PTOSIM_REGISTER(PtoOpConcept, Softmax, "softmax", 0, "softmax along an axis (the last by default)",
                pto_op({"x", "axis"}, 1, run_softmax));

}  // namespace ptosim::exec
