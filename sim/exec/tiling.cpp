// pto.tile lowering. Values are always computed by the untiled kernels (so
// they are identical by construction); these functions emit the events of the
// tile schedule: tiles of cached operands are loaded into the `into` space,
// the accumulator lives in registers, results are stored back.
#include <algorithm>

#include "sim/exec/emit.h"
#include "sim/exec/tiling.h"
#include "sim/exec/matmul_internal.h"
#include "sim/exec/cube_lowering.h"
#include "sim/exec/matmul_vector.h"
#include "sim/exec/register_block.h"

namespace ptosim::exec::detail {

int64_t tile_at(const Shape& shape, const Shape& tile, const std::vector<int64_t>& t0, std::vector<IndexItem>* view,
                std::vector<IndexItem>* local) {
  int64_t elems = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t n = std::min(tile[d], shape[d] - t0[d]);
    view->push_back(range(t0[d], n));
    local->push_back(range(0, n));
    elems *= n;
  }
  return elems;
}

std::string what_fits(const ExecContext& c, uint64_t room, int64_t TM, int64_t TN, int64_t TK,
                      const std::function<uint64_t(int64_t)>& need) {
  int64_t t = std::max(TM, TN);
  while (t > 1 && need(t) > room) t /= 2;
  std::string h = "; the largest square tile whose A and B tiles fit in '" + c.tile()->into_name() + "' is ";
  if (need(t) > room) return h + "none (smaller K tiles: TK), or into= another space";
  return h + "M=N=" + std::to_string(t) + " with K=" + std::to_string(TK) + " (or into= another space)";
}

bool dim_tiling(const ExecContext& c) {
  const TileDirective* t = c.tile();
  if (!t) return false;
  for (auto& kv : t->sizes)
    if (kv.first.rfind("dim_", 0) == 0) return true;
  return false;
}

void matmul_tiled_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate) {
  const TileDirective& td = *c.tile();
  int64_t M = p.M, N = p.N, K = p.K;
  int64_t TM = td.get("M", M), TN = td.get("N", N), TK = td.get("K", K);
  if (M == 0 || N == 0) return;
  if (npu_cube(c)) return matmul_tiled_npu_events(c, p, out, accumulate);
  if (cpu_tile_lowering(c, uint64_t(TM) * uint64_t(TN) * out.elem_size())) return matmul_tiled_cpu_events(c, p, out, accumulate);
  SpaceId into = c.space_id(td.into);
  SpaceId reg = c.register_space();
  bool la = needs_load(c, p.a), lb = needs_load(c, p.b);
  Tensor bufA, bufB;
  const uint64_t room = c.free_bytes(into);
  try {
    if (la && K > 0) bufA = c.alloc({TM, TK}, p.a.dtype(), into, {}, p.a.name() + ".tile", p.a.name() + ".tile");
    if (lb && K > 0) bufB = c.alloc({TK, TN}, p.b.dtype(), into, {}, p.b.name() + ".tile", p.b.name() + ".tile");
  } catch (const OpError& e) {
    const uint64_t es = (la ? p.a.elem_size() : 0) + (lb ? p.b.elem_size() : 0);
    throw OpError(std::string(e.what()) +
                  what_fits(c, room, TM, TN, TK, [&](int64_t t) { return uint64_t(t) * uint64_t(TK) * es; }));
  }
  Tensor acc = c.alloc({TM, TN}, out.dtype(), reg, {}, out.name() + ".acc", out.name() + ".acc");
  double cost = op_cost(c.config(), OpKind::Matmul);
  for_each_batch(p.batch, [&](const std::vector<int64_t>& bi) {
    Tensor av = batch_view(p.a, p.batch.size(), bi), bv = batch_view(p.b, p.batch.size(), bi);
    Tensor cv = batch_view(out, p.batch.size(), bi);
    for (int64_t m0 = 0; m0 < M; m0 += TM) {
      int64_t tm = std::min(TM, M - m0);
      for (int64_t n0 = 0; n0 < N; n0 += TN) {
        int64_t tn = std::min(TN, N - n0);
        Tensor ct = cv.index({range(m0, tm), range(n0, tn)});
        Tensor at_acc = acc.index({range(0, tm), range(0, tn)});
        if (accumulate) move_events(c, ct, at_acc);
        for (int64_t k0 = 0; k0 < K; k0 += TK) {
          int64_t tk = std::min(TK, K - k0);
          Tensor at = av.index({range(m0, tm), range(k0, tk)});
          Tensor bt = bv.index({range(k0, tk), range(n0, tn)});
          if (la) at = tile_load(c, at, bufA.index({range(0, tm), range(0, tk)}));
          if (lb) bt = tile_load(c, bt, bufB.index({range(0, tk), range(0, tn)}));
          emit_bulk(c, at, AccessKind::Read, ceil_div(uint64_t(tn), kNR));
          emit_bulk(c, bt, AccessKind::Read, ceil_div(uint64_t(tm), kMR));
          if (k0 > 0 || accumulate) emit_bulk(c, at_acc, AccessKind::Read, 1);
          emit_bulk(c, at_acc, AccessKind::Write, 1);
          double flops = double(tm) * double(tn) * double(tk) * cost;
          if (flops > 0) c.compute(OpKind::Matmul, flops);
        }
        move_events(c, at_acc, ct);
      }
    }
  });
}

// Elementwise ops under pto.tile(dim_0=.., dim_1=..): for each tile of the
// output, cached inputs are loaded into `into`, the result tile is computed
// into registers and stored back.
void tiled_elementwise_events(ExecContext& c, OpKind op, const std::vector<Tensor>& ins, const Tensor& out,
                              ElementwiseEvents in_place) {
  const TileDirective& td = *c.tile();
  const Shape& shape = out.shape();
  int r = int(shape.size());
  if (out.numel() == 0) return;
  check_writable(c, out, "result");
  Shape tile(static_cast<size_t>(r));
  for (int d = 0; d < r; ++d) tile[size_t(d)] = td.get("dim_" + std::to_string(d), shape[size_t(d)]);
  SpaceId into = c.space_id(td.into);
  const bool cpu = cpu_tile_lowering(c, uint64_t(numel(tile)) * out.elem_size());
  std::vector<Tensor> bins, bufs;
  for (auto& t : ins) {
    // Broadcast inputs to the output's rank (stride-0 dims) so that tiles slice uniformly.
    Tensor b = t;
    if (t.rank() < r || t.shape() != shape) {
      std::vector<DimMap> dims;
      int off = r - t.rank();
      for (int d = 0; d < r; ++d) {
        DimMap m;
        m.size = shape[size_t(d)];
        if (d >= off && t.shape()[size_t(d - off)] != 1) m = t.dims()[size_t(d - off)];
        else if (d >= off && t.dims()[size_t(d - off)].block == 0) m.stride = 0;
        dims.push_back(m);
      }
      int64_t extra = 0;
      for (int d = off; d < r; ++d)
        if (t.shape()[size_t(d - off)] == 1 && shape[size_t(d)] != 1) extra += t.dims()[size_t(d - off)].contrib(0);
      b = Tensor(t.storage(), shape, dims, t.offset() + extra);
    }
    bins.push_back(b);
    if (cpu) continue;
    Tensor buf;
    if (needs_load(c, t)) buf = c.alloc(tile, t.dtype(), into, {}, t.name() + ".tile", t.name() + ".tile");
    bufs.push_back(buf);
  }
  Tensor acc = cpu ? Tensor() : c.alloc(tile, out.dtype(), c.register_space(), {}, out.name() + ".acc", out.name() + ".acc");
  double cost = op_cost(c.config(), op);
  std::vector<int64_t> t0(static_cast<size_t>(r), 0);
  while (true) {
    std::vector<IndexItem> view, local;
    const int64_t elems = tile_at(shape, tile, t0, &view, &local);
    if (cpu) {
      std::vector<Tensor> views;
      for (auto& b : bins) views.push_back(b.index(view));
      in_place(c, op, views, out.index(view));
    }
    for (size_t i = 0; i < bins.size() && !cpu; ++i) {
      Tensor v = bins[i].index(view);
      if (bufs[i].valid()) v = tile_load(c, v, bufs[i].index(local));
      emit_bulk(c, v, AccessKind::Read, 1);
    }
    if (!cpu) {
      Tensor at = acc.index(local);
      emit_bulk(c, at, AccessKind::Write, 1);
      if (elems * cost > 0) c.compute(op, double(elems) * cost);
      move_events(c, at, out.index(view));
    }
    int d = r - 1;
    for (; d >= 0; --d) {
      t0[size_t(d)] += tile[size_t(d)];
      if (t0[size_t(d)] < shape[size_t(d)]) break;
      t0[size_t(d)] = 0;
    }
    if (d < 0) break;
  }
}

}  // namespace ptosim::exec::detail
