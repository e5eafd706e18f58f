// pto.tile(dim_0=.., dim_1=..) schedules of reductions and softmax (events
// only: the values come from the untiled kernels in reductions.cpp, so they
// are identical by construction). docs/EXEC.md "Scopes" describes them.
#include <algorithm>

#include "sim/exec/emit.h"
#include "sim/exec/tiling.h"

namespace ptosim::exec::detail {

namespace {

// Tile sizes of x's axes from the innermost directive (missing dim_d = whole axis).
Shape dim_tile(const ExecContext& c, const Shape& shape) {
  Shape tile(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) tile[d] = c.tile()->get("dim_" + std::to_string(d), shape[d]);
  return tile;
}

// The `into` buffer x's tiles are loaded into (none when x is used in place).
Tensor load_buffer(ExecContext& c, const Tensor& x, const Shape& tile) {
  if (!needs_load(c, x)) return Tensor();
  return c.alloc(tile, x.dtype(), c.space_id(c.tile()->into), {}, x.name() + ".tile", x.name() + ".tile");
}

// Calls fn(t0) for every tile origin; `order` lists the axes outermost first.
template <class F>
void for_each_tile(const Shape& shape, const Shape& tile, const std::vector<int>& order, F&& fn) {
  std::vector<int64_t> t0(shape.size(), 0);
  while (true) {
    fn(t0);
    int k = int(order.size()) - 1;
    for (; k >= 0; --k) {
      size_t d = size_t(order[size_t(k)]);
      t0[d] += tile[d];
      if (t0[d] < shape[d]) break;
      t0[d] = 0;
    }
    if (k < 0) return;
  }
}

}  // namespace

// Reduction: the tiles of x are visited with the reduced axis innermost (all
// axes for axis=None), so that one register accumulator tile of the output
// is live at a time, like matmul's k loop. Per tile: load x's tile into
// `into`, read it from there, [read the accumulator unless this is the first
// tile along the reduced axis], write the accumulator, one Compute; after the
// last tile along the reduced axis the accumulator is stored into out.
void tiled_reduce_events(ExecContext& c, OpKind op, const Tensor& x, std::optional<int> axis, bool keepdims,
                         const Tensor& out) {
  check_writable(c, out, "result");
  if (x.numel() == 0) return;
  const Shape& shape = x.shape();
  int r = x.rank();
  Shape tile = dim_tile(c, shape), acc_shape;
  std::vector<int> order;
  for (int d = 0; d < r; ++d) {
    bool red = !axis || d == *axis;
    if (!red || keepdims) acc_shape.push_back(red ? 1 : tile[size_t(d)]);
    if (!axis || d != *axis) order.push_back(d);  // axis=None: every axis, row-major
  }
  if (axis) order.push_back(*axis);  // the reduced axis innermost
  Tensor buf = load_buffer(c, x, tile);
  Tensor acc = c.alloc(acc_shape, out.dtype(), c.register_space(), {}, out.name() + ".acc", out.name() + ".acc");
  double cost = op_cost(c.config(), op);
  for_each_tile(shape, tile, order, [&](const std::vector<int64_t>& t0) {
    std::vector<IndexItem> view, local, oview, olocal;
    bool first = true, last = true;
    int64_t elems = 1;
    for (int d = 0; d < r; ++d) {
      int64_t a = t0[size_t(d)], n = std::min(tile[size_t(d)], shape[size_t(d)] - a);
      view.push_back(range(a, n));
      local.push_back(range(0, n));
      elems *= n;
      if (axis && d != *axis) {
        oview.push_back(range(a, n));
        olocal.push_back(range(0, n));
        continue;
      }
      first = first && a == 0;
      last = last && a + n == shape[size_t(d)];
      if (keepdims) {
        oview.push_back(range(0, 1));
        olocal.push_back(range(0, 1));
      }
    }
    Tensor xv = x.index(view);
    if (buf.valid()) xv = tile_load(c, xv, buf.index(local));
    emit_bulk(c, xv, AccessKind::Read, 1);
    Tensor at = acc.index(olocal);
    if (!first) emit_bulk(c, at, AccessKind::Read, 1);
    emit_bulk(c, at, AccessKind::Write, 1);
    if (double(elems) * cost > 0) c.compute(op, double(elems) * cost);
    if (last) move_events(c, at, out.index(oview));
  });
}

// Softmax: a row needs its max and sum, so the softmax axis is never split
// (a dim_ size on it is ignored); the other axes are tiled in row-major tile
// order. Per tile: load x's tile into `into`, read it three times from there
// (max, exp-sum and normalise passes, as the untiled model), write the result
// tile in registers, one Compute, store the result tile into out.
void tiled_softmax_events(ExecContext& c, const Tensor& x, int axis, const Tensor& out) {
  check_writable(c, out, "result");
  if (x.numel() == 0) return;
  const Shape& shape = x.shape();
  int r = x.rank();
  Shape tile = dim_tile(c, shape);
  if (r > 0) tile[size_t(axis)] = shape[size_t(axis)];
  std::vector<int> order;
  for (int d = 0; d < r; ++d) order.push_back(d);
  Tensor buf = load_buffer(c, x, tile);
  Tensor res = c.alloc(tile, out.dtype(), c.register_space(), {}, out.name() + ".acc", out.name() + ".acc");
  double cost = op_cost(c.config(), OpKind::Softmax);
  for_each_tile(shape, tile, order, [&](const std::vector<int64_t>& t0) {
    std::vector<IndexItem> view, local;
    const int64_t elems = tile_at(shape, tile, t0, &view, &local);
    Tensor xv = x.index(view);
    if (buf.valid()) xv = tile_load(c, xv, buf.index(local));
    emit_bulk(c, xv, AccessKind::Read, 3);
    Tensor rt = res.index(local);
    emit_bulk(c, rt, AccessKind::Write, 1);
    if (double(elems) * cost > 0) c.compute(OpKind::Softmax, double(elems) * cost);
    move_events(c, rt, out.index(view));
  });
}

}  // namespace ptosim::exec::detail
