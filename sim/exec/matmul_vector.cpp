// The CPU lowering of matmul (matmul_vector.h). Values are computed by
// matmul_values; only events are made here, and the packed buffers' values,
// which --check-data reads back.
#include "sim/exec/matmul_vector.h"

#include <algorithm>

#include "sim/exec/register_block.h"
#include "sim/exec/scope_states.h"
#include "sim/exec/tiling.h"

namespace ptosim::exec::detail {

namespace {

bool reused(ExecContext& c, const Tensor& t) {
  auto* r = c.reuse_for(t.name());
  return r && !r->hint_only;
}

// A's tile [tm, tk] packed in panels of MR rows, k-major within a panel
// (BLIS's layout: the MR broadcasts of one k are adjacent).
Operand pack_a(ExecContext& c, const Tensor& at, const Tensor& buf, int64_t MR) {
  const int64_t tm = at.shape()[0], tk = at.shape()[1];
  std::vector<int64_t> prow(static_cast<size_t>(tm)), pcol(static_cast<size_t>(tk));
  for (int64_t i = 0; i < tm; ++i) prow[size_t(i)] = (i / MR) * tk * MR + i % MR;
  for (int64_t k = 0; k < tk; ++k) pcol[size_t(k)] = k * MR;
  Operand A = packed(buf, std::move(prow), std::move(pcol));
  pack(c, at, buf, A, int64_t(ceil_div(uint64_t(tm), uint64_t(MR))) * MR * tk);
  return A;
}

// B's tile [tk, tn] packed in panels of NR columns, k-major (one k's NR
// elements are the block's contiguous vectors).
Operand pack_b(ExecContext& c, const Tensor& bt, const Tensor& buf, int64_t NR) {
  const int64_t tk = bt.shape()[0], tn = bt.shape()[1];
  std::vector<int64_t> prow(static_cast<size_t>(tk)), pcol(static_cast<size_t>(tn));
  for (int64_t k = 0; k < tk; ++k) prow[size_t(k)] = k * NR;
  for (int64_t j = 0; j < tn; ++j) pcol[size_t(j)] = (j / NR) * tk * NR + j % NR;
  Operand B = packed(buf, std::move(prow), std::move(pcol));
  pack(c, bt, buf, B, int64_t(ceil_div(uint64_t(tn), uint64_t(NR))) * NR * tk);
  return B;
}

// A BLAS's cache blocking (BLIS, Goto & van de Geijn 2008) for an untiled
// matmul whose operands do not stay in the first cache level: a KC x NR
// panel of B in half of L1, an MC x KC block of A in half of L2, a KC x NC
// block of B in half of the last level. Zero: the operands are small
// enough to be read where they lie.
struct Blocking {
  int64_t MC = 0, NC = 0, KC = 0;
};
Blocking blas_blocking(const ExecContext& c, const MatmulPlan& p, const MicroKernel& mk, uint32_t es) {
  const auto& caches = c.config().caches;
  if (caches.empty() || p.K < 2) return {};
  const uint64_t a_bytes = uint64_t(p.M) * uint64_t(p.K) * es, b_bytes = uint64_t(p.K) * uint64_t(p.N) * es;
  const uint64_t l1 = caches[0].size, l2 = caches[std::min<size_t>(1, caches.size() - 1)].size,
                 ll = caches.back().size;
  if (std::max(a_bytes, b_bytes) <= l1 / 2) return {};
  auto fit = [](uint64_t room, uint64_t per, int64_t unit, int64_t most) {
    const int64_t n = int64_t(room / std::max<uint64_t>(per, 1)) / unit * unit;
    return std::clamp<int64_t>(n, unit, std::max(unit, most));
  };
  Blocking b;
  b.KC = std::min(p.K, fit(l1 / 2, uint64_t(mk.NR) * es, 8, p.K));
  b.MC = std::min(p.M, fit(l2 / 2, uint64_t(b.KC) * es, mk.MR, p.M));
  b.NC = std::min(p.N, fit(ll / 2, uint64_t(b.KC) * es, mk.NR, p.N));
  return b;
}

// The untiled matmul as a BLAS runs it: for each NC columns and KC of k, B's
// block packed in NR-column panels; for each MC rows, A's block packed in
// MR-row panels; register blocks over the packed panels, C read (after the
// first KC, or when accumulating) and written in place. The packing buffers
// live in the output's space for the op's duration.
void matmul_packed_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate, const MicroKernel& mk,
                          const Blocking& bk) {
  const SpaceId space = out.space();
  const Tensor bufA = c.alloc({int64_t(ceil_div(uint64_t(bk.MC), uint64_t(mk.MR))) * mk.MR * bk.KC}, p.a.dtype(), space,
                              {}, p.a.name() + ".pack", p.a.name() + ".pack");
  const Tensor bufB = c.alloc({int64_t(ceil_div(uint64_t(bk.NC), uint64_t(mk.NR))) * mk.NR * bk.KC}, p.b.dtype(), space,
                              {}, p.b.name() + ".pack", p.b.name() + ".pack");
  for_each_batch(p.batch, [&](const std::vector<int64_t>& bi) {
    const Tensor av = batch_view(p.a, p.batch.size(), bi), bv = batch_view(p.b, p.batch.size(), bi);
    const Tensor cv = batch_view(out, p.batch.size(), bi);
    for (int64_t jc = 0; jc < p.N; jc += bk.NC) {
      const int64_t nc = std::min(bk.NC, p.N - jc);
      for (int64_t pc = 0; pc < p.K; pc += bk.KC) {
        const int64_t kc = std::min(bk.KC, p.K - pc);
        const Operand B = pack_b(c, bv.index({range(pc, kc), range(jc, nc)}), bufB, mk.NR);
        for (int64_t ic = 0; ic < p.M; ic += bk.MC) {
          const int64_t mc = std::min(bk.MC, p.M - ic);
          const Operand A = pack_a(c, av.index({range(ic, mc), range(pc, kc)}), bufA, mk.MR);
          const Operand C = operand(cv.index({range(ic, mc), range(jc, nc)}));
          const bool load_c = pc > 0 || accumulate;
          for_blocks(mc, nc, mk.MR, mk.NR, 0, kc,
                     [&](const Block& b) { outer_block(c, A, B, C, b, load_c, OpKind::Matmul); });
        }
      }
    }
  });
}

}  // namespace

void matmul_vector_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate) {
  const MicroKernel packed_mk = outer_kernel_shape(c, out.elem_size(), p.M, p.N);
  const Blocking bk = blas_blocking(c, p, packed_mk, p.a.elem_size());
  if (bk.KC) return matmul_packed_events(c, p, out, accumulate, packed_mk, bk);
  matmul_block_events(c, p, out, accumulate);
}

void matmul_block_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate) {
  for_each_batch(p.batch, [&](const std::vector<int64_t>& bi) {
    Tensor av = batch_view(p.a, p.batch.size(), bi), bv = batch_view(p.b, p.batch.size(), bi);
    Tensor cv = batch_view(out, p.batch.size(), bi);
    const Operand A = operand(av), C = operand(cv), Bn = operand(bv), Bt = operand(bv, true);
    // B contiguous along k but not along n (a transposed view): dot products,
    // as a compiler vectorises sum(A[i, :] * B[:, j]); otherwise outer products.
    const bool dot = p.K > 1 && p.N > 1 && Bt.run[0] >= 2 && Bn.run[0] < 2 && A.run[0] >= 2;
    if (dot) {
      int64_t s = 1;  // s x s accumulators, s A and s B^T vectors
      while ((s + 1) * (s + 1) + 2 * (s + 1) <= vector_registers(c)) ++s;
      for_blocks(p.M, p.N, s, s, 0, p.K, [&](const Block& b) { dot_block(c, A, Bt, C, b, accumulate); });
      return;
    }
    const MicroKernel mk = outer_kernel_shape(c, out.elem_size(), p.M, p.N);
    for_blocks(p.M, p.N, mk.MR, mk.NR, 0, p.K,
               [&](const Block& b) { outer_block(c, A, Bn, C, b, accumulate, OpKind::Matmul); });
  });
}

void matmul_tiled_cpu_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate) {
  const TileDirective& td = *c.tile();
  const int64_t M = p.M, N = p.N, K = p.K;
  const int64_t TM = td.get("M", M), TN = td.get("N", N), TK = td.get("K", K);
  if (M == 0 || N == 0) return;
  const SpaceId into = c.space_id(td.into);
  const MicroKernel mk = outer_kernel_shape(c, out.elem_size(), TM, TN);
  const bool la = needs_load(c, p.a) && K > 0, lb = needs_load(c, p.b) && K > 0;
  const bool ra = la && reused(c, p.a), rb = lb && reused(c, p.b);
  // Packed panels, or (under pto.reuse) row-major tiles tile_load may keep resident.
  auto buffer = [&](const Tensor& t, Shape rowmajor, int64_t panels) {
    const std::string name = t.name() + ".tile";
    return c.alloc(reused(c, t) ? rowmajor : Shape{panels}, t.dtype(), into, {}, name, name);
  };
  Tensor bufA, bufB;
  const uint64_t room = c.free_bytes(into);
  try {
    if (la) bufA = buffer(p.a, {TM, TK}, int64_t(ceil_div(uint64_t(TM), uint64_t(mk.MR))) * mk.MR * TK);
    if (lb) bufB = buffer(p.b, {TK, TN}, int64_t(ceil_div(uint64_t(TN), uint64_t(mk.NR))) * mk.NR * TK);
  } catch (const OpError& e) {
    // A t x t tile's buffers as its lowering sizes them: row-major tiles
    // where the register file holds its result (the scratchpad lowering),
    // else panels rounded up to that tile's own micro-kernel (row-major
    // under pto.reuse).
    auto need = [&](int64_t t) {
      const bool bulk = !cpu_tile_lowering(c, uint64_t(t) * uint64_t(t) * out.elem_size());
      const MicroKernel k = outer_kernel_shape(c, out.elem_size(), t, t);
      auto rows = [&](bool rowmajor, int64_t r) {
        rowmajor = rowmajor || bulk;
        return uint64_t(rowmajor ? t : int64_t(ceil_div(uint64_t(t), uint64_t(r))) * r) * uint64_t(TK);
      };
      return (la ? rows(ra, k.MR) * p.a.elem_size() : 0) + (lb ? rows(rb, k.NR) * p.b.elem_size() : 0);
    };
    throw OpError(e.what() + what_fits(c, room, TM, TN, TK, need));
  }
  for_each_batch(p.batch, [&](const std::vector<int64_t>& bi) {
    Tensor av = batch_view(p.a, p.batch.size(), bi), bv = batch_view(p.b, p.batch.size(), bi);
    Tensor cv = batch_view(out, p.batch.size(), bi);
    for (int64_t m0 = 0; m0 < M; m0 += TM) {
      const int64_t tm = std::min(TM, M - m0);
      for (int64_t n0 = 0; n0 < N; n0 += TN) {
        const int64_t tn = std::min(TN, N - n0);
        const Operand C = operand(cv.index({range(m0, tm), range(n0, tn)}));
        if (K == 0) {
          if (!accumulate) c_rows(c, C, Block{0, tm, 0, tn, 0, 0}, write_kind(c, out));
          continue;
        }
        for (int64_t k0 = 0; k0 < K; k0 += TK) {
          const int64_t tk = std::min(TK, K - k0);
          const Tensor at = av.index({range(m0, tm), range(k0, tk)});
          const Tensor bt = bv.index({range(k0, tk), range(n0, tn)});
          const Operand A = la && !ra ? pack_a(c, at, bufA, mk.MR)
                                      : operand(la ? tile_load(c, at, bufA.index({range(0, tm), range(0, tk)})) : at);
          const Operand B = lb && !rb ? pack_b(c, bt, bufB, mk.NR)
                                      : operand(lb ? tile_load(c, bt, bufB.index({range(0, tk), range(0, tn)})) : bt);
          const bool load_c = k0 > 0 || accumulate;
          for_blocks(tm, tn, mk.MR, mk.NR, 0, tk,
                     [&](const Block& b) { outer_block(c, A, B, C, b, load_c, OpKind::Matmul); });
        }
      }
    }
  });
}

}  // namespace ptosim::exec::detail
