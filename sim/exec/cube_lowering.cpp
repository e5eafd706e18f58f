// pto.tile of a matmul or a conv2d on an NPU: the DaVinci data path, buffer
// by buffer.
// Events only (values come from the untiled kernel). Which engine moves
// what is not named here: the `npu` core model reads it off the spaces of
// each transfer (docs/TIMING.md, "The NPU core"); this file only has to
// emit each transfer as its reads followed by its write, and the cube's
// work as its operand reads, one Compute and the accumulator write.
#include "sim/exec/cube_lowering.h"

#include <algorithm>

#include "sim/exec/tiling.h"

namespace ptosim::exec::detail {
namespace {

SpaceId role_space(const ExecContext& c, BufferRole role) {
  const MemoryConfig* m = c.config().memory(role);
  return c.space_id(m->name);
}

// One buffer of `shape` in `space`, or two (ping-pong) when two fit; the
// first not fitting is the caller's error.
std::vector<Tensor> ping_pong(ExecContext& c, const Shape& shape, DType dt, SpaceId space, const std::string& name) {
  std::vector<Tensor> b{c.alloc(shape, dt, space, {}, name, name)};
  try {
    b.push_back(c.alloc(shape, dt, space, {}, name, name));
  } catch (const OpError&) {
    // one buffer: the engines on either side of it take turns
  }
  return b;
}

std::string does_not_fit(const ExecContext& c, const OpError& e, const char* part, SpaceId space) {
  return std::string(e.what()) + " (the " + part + " tile of pto.tile's matmul lives in '" + c.space_name(space) +
         "' on this NPU: smaller M, N or K tiles fit)";
}

int64_t halve(int64_t n) { return (n + 1) / 2; }
// The same number of steps as tiles of `t`, as even as they can be (64
// channels in tiles of 14: five of 13, not four of 14 and one of 8).
int64_t even(int64_t whole, int64_t t) { return int64_t(ceil_div(uint64_t(whole), ceil_div(uint64_t(whole), uint64_t(t)))); }

}  // namespace

bool npu_cube(const ExecContext& c) {
  const HwConfig& h = c.config();
  return h.memory(BufferRole::L0A) && h.memory(BufferRole::L0B) && h.memory(BufferRole::L0C);
}

void matmul_tiled_npu_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate) {
  const TileDirective& td = *c.tile();
  const int64_t M = p.M, N = p.N, K = p.K;
  const int64_t TM = std::min(td.get("M", M), M), TN = std::min(td.get("N", N), N), TK = std::min(td.get("K", K), K);
  const SpaceId l1 = c.space_id(td.into), l0a = role_space(c, BufferRole::L0A), l0b = role_space(c, BufferRole::L0B),
                l0c = role_space(c, BufferRole::L0C);
  const MemoryConfig* ubm = c.config().memory(BufferRole::UB);
  const bool la = needs_load(c, p.a), lb = needs_load(c, p.b), lc = needs_load(c, out);
  std::vector<Tensor> a1, b1, a0, b0, c0, cub;
  SpaceId at = l1;
  try {
    if (la && K > 0) a1 = ping_pong(c, {TM, TK}, p.a.dtype(), l1, p.a.name() + ".l1");
    if (lb && K > 0) b1 = ping_pong(c, {TK, TN}, p.b.dtype(), l1, p.b.name() + ".l1");
    at = l0a;
    if (K > 0) a0 = ping_pong(c, {TM, TK}, p.a.dtype(), l0a, p.a.name() + ".l0a");
    at = l0b;
    if (K > 0) b0 = ping_pong(c, {TK, TN}, p.b.dtype(), l0b, p.b.name() + ".l0b");
    at = l0c;
    c0 = ping_pong(c, {TM, TN}, out.dtype(), l0c, out.name() + ".l0c");
    if (lc && ubm) {
      at = c.space_id(ubm->name);
      cub = ping_pong(c, {TM, TN}, out.dtype(), at, out.name() + ".ub");
    }
  } catch (const OpError& e) {
    const char* part = at == l1 ? "A and B" : at == l0a ? "A" : at == l0b ? "B" : at == l0c ? "C" : "C (ub)";
    throw OpError(does_not_fit(c, e, part, at));
  }
  const double cost = op_cost(c.config(), OpKind::Matmul);
  uint64_t step = 0, tile = 0;  // the ping-pong parity of operand and result buffers
  for_each_batch(p.batch, [&](const std::vector<int64_t>& bi) {
    Tensor av = batch_view(p.a, p.batch.size(), bi), bv = batch_view(p.b, p.batch.size(), bi);
    Tensor cv = batch_view(out, p.batch.size(), bi);
    for (int64_t m0 = 0; m0 < M; m0 += TM) {
      const int64_t tm = std::min(TM, M - m0);
      for (int64_t n0 = 0; n0 < N; n0 += TN) {
        const int64_t tn = std::min(TN, N - n0);
        Tensor ct = cv.index({range(m0, tm), range(n0, tn)});
        Tensor acc = c0[tile % c0.size()].index({range(0, tm), range(0, tn)});
        if (accumulate) {  // the partial result comes in through l1, as a bias does
          Tensor staged = ct;
          if (lc && !a1.empty()) {
            staged = c.alloc({tm, tn}, out.dtype(), l1, {}, out.name() + ".l1", out.name() + ".l1");
            move_events(c, ct, staged);
          }
          move_events(c, staged, acc);
        }
        for (int64_t k0 = 0; k0 < K; k0 += TK, ++step) {
          const int64_t tk = std::min(TK, K - k0);
          Tensor a = av.index({range(m0, tm), range(k0, tk)});
          Tensor b = bv.index({range(k0, tk), range(n0, tn)});
          if (la) a = tile_load(c, a, a1[step % a1.size()].index({range(0, tm), range(0, tk)}));
          if (lb) b = tile_load(c, b, b1[step % b1.size()].index({range(0, tk), range(0, tn)}));
          Tensor a_l0 = a0[step % a0.size()].index({range(0, tm), range(0, tk)});
          Tensor b_l0 = b0[step % b0.size()].index({range(0, tk), range(0, tn)});
          if (a.space() != l0a) move_events(c, a, a_l0);
          else a_l0 = a;
          if (b.space() != l0b) move_events(c, b, b_l0);
          else b_l0 = b;
          // The cube reads each operand tile once and accumulates in place in l0c.
          emit_bulk(c, a_l0, AccessKind::Read, 1);
          emit_bulk(c, b_l0, AccessKind::Read, 1);
          const double flops = double(tm) * double(tn) * double(tk) * cost;
          if (flops > 0) c.compute(OpKind::Matmul, flops);
          emit_bulk(c, acc, AccessKind::Write, 1);
        }
        if (cub.empty()) {
          move_events(c, acc, ct);  // the fixpipe writes the result where it lies
        } else {
          Tensor u = cub[tile % cub.size()].index({range(0, tm), range(0, tn)});
          move_events(c, acc, u);  // fixpipe: l0c -> ub
          move_events(c, u, ct);   // mte3: ub -> global
        }
        ++tile;
      }
    }
  });
}

SpaceId npu_l1(const ExecContext& c) {
  return c.config().memory(BufferRole::L1) ? role_space(c, BufferRole::L1) : c.shared_space();
}

ConvTiles conv_directive_tiles(const ExecContext& c, const ConvShape& g) {
  const TileDirective& td = *c.tile();
  return {std::min(td.get("N", g.N), g.N), std::min(td.get("F", g.F), g.F), std::min(td.get("H", g.OH), g.OH),
          std::min(td.get("W", g.OW), g.OW), std::min(td.get("C", g.C), g.C)};
}

ConvTiles conv_npu_tiles(const ExecContext& c, const ConvShape& g, SpaceId l1, const Tensor& in, const Tensor& w,
                         const Tensor& out) {
  const uint64_t KK = uint64_t(g.KH * g.KW), ei = in.elem_size(), ew = w.elem_size(), eo = out.elem_size();
  const bool li = needs_load(c, in), lw = needs_load(c, w);
  const MemoryConfig* ubm = c.config().memory(BufferRole::UB);
  const bool staged_out = needs_load(c, out) && ubm;
  const uint64_t ra = c.free_bytes(role_space(c, BufferRole::L0A)), rb = c.free_bytes(role_space(c, BufferRole::L0B)),
                 rc = c.free_bytes(role_space(c, BufferRole::L0C)), r1 = c.free_bytes(l1),
                 ru = staged_out ? c.free_bytes(c.space_id(ubm->name)) : UINT64_MAX;
  // Free bytes less what aligning `n` buffers can waste.
  uint64_t al = std::max<uint64_t>(c.config().alignment, 1);
  for (const auto& k : c.config().caches) al = std::max<uint64_t>(al, k.line);
  auto room = [al](uint64_t free, uint64_t n) { return free > n * al ? free - n * al : 0; };
  for (uint64_t copies : {2u, 1u}) {
    ConvTiles t{1, g.F, g.OH, g.OW, 0};
    // The accumulators (l0c, and ub when the result is drained through it):
    // output rows first, then columns, then filters.
    auto out_fits = [&] {
      const uint64_t b = copies * uint64_t(t.F * t.H * t.W) * eo;
      return b <= room(rc, copies) && (ru == UINT64_MAX || b <= room(ru, copies));
    };
    // Channels per step: all that fit the unfolded input (l0a), the weight
    // tile (l0b) and what is staged in l1; 0 when not one does.
    auto channels = [&] {
      const uint64_t ih = uint64_t((t.H - 1) * g.s + g.KH), iw = uint64_t((t.W - 1) * g.s + g.KW);
      const uint64_t a = copies * uint64_t(t.H * t.W) * KK * ei, b = copies * KK * uint64_t(t.F) * ew;
      const uint64_t s = copies * ((li ? ih * iw * ei : 0) + (lw ? KK * uint64_t(t.F) * ew : 0));
      uint64_t n = std::min({room(ra, copies) / a, room(rb, copies) / b, s ? room(r1, 2 * copies) / s : UINT64_MAX});
      return int64_t(std::min<uint64_t>(n, uint64_t(g.C)));
    };
    auto shrink = [&] {
      if (t.H > 1) t.H = halve(t.H);
      else if (t.W > 1) t.W = halve(t.W);
      else if (t.F > 1) t.F = halve(t.F);
      else return false;
      return true;
    };
    bool ok = true;
    while (ok && !out_fits()) ok = shrink();
    while (ok && (t.C = channels()) < 1) ok = shrink();
    if (!ok) continue;
    return {1, even(g.F, t.F), even(g.OH, t.H), even(g.OW, t.W), even(g.C, t.C)};
  }
  return {1, 1, 1, 1, 1};  // not even that fits: conv_npu_events says which buffer
}

void conv_npu_events(ExecContext& c, const ConvShape& g, const ConvTiles& t, SpaceId l1, const Tensor& in,
                     const Tensor& w, const Tensor& out, bool directive) {
  const int64_t TN = t.N, TF = t.F, TH = t.H, TW = t.W, TC = t.C;
  const int64_t IH = (TH - 1) * g.s + g.KH, IW = (TW - 1) * g.s + g.KW, KK = g.KH * g.KW;
  const SpaceId l0a = role_space(c, BufferRole::L0A), l0b = role_space(c, BufferRole::L0B),
                l0c = role_space(c, BufferRole::L0C);
  const MemoryConfig* ubm = c.config().memory(BufferRole::UB);
  const bool li = needs_load(c, in), lw = needs_load(c, w), lo = needs_load(c, out);
  std::vector<Tensor> i1, w1, a0, b0, c0, cub;
  SpaceId at = l1;
  try {
    if (li) i1 = ping_pong(c, {TN, TC, IH, IW}, in.dtype(), l1, in.name() + ".l1");
    if (lw) w1 = ping_pong(c, {TF, TC, g.KH, g.KW}, w.dtype(), l1, w.name() + ".l1");
    at = l0a;
    a0 = ping_pong(c, {TN * TH * TW, TC * KK}, in.dtype(), l0a, in.name() + ".l0a");  // the unfolded input
    at = l0b;
    b0 = ping_pong(c, {TC * KK, TF}, w.dtype(), l0b, w.name() + ".l0b");
    at = l0c;
    c0 = ping_pong(c, {TN, TF, TH, TW}, out.dtype(), l0c, out.name() + ".l0c");
    if (lo && ubm) {
      at = c.space_id(ubm->name);
      cub = ping_pong(c, {TN, TF, TH, TW}, out.dtype(), at, out.name() + ".ub");
    }
  } catch (const OpError& e) {
    const char* part = at == l1 ? "input and weight" : at == l0a ? "unfolded input" : at == l0b ? "weight" : "output";
    throw OpError(std::string(e.what()) + " (the " + part + " tile of " + (directive ? "pto.tile's " : "") +
                  "conv2d lives in '" + c.space_name(at) + "' on this NPU: " +
                  (directive ? "smaller tiles fit)" : "not one pixel, filter and channel fits)"));
  }
  const double cost = op_cost(c.config(), OpKind::Conv2d);
  uint64_t step = 0, tile = 0;
  for (int64_t n0 = 0; n0 < g.N; n0 += TN) {
    const int64_t tn = std::min(TN, g.N - n0);
    for (int64_t f0 = 0; f0 < g.F; f0 += TF) {
      const int64_t tf = std::min(TF, g.F - f0);
      for (int64_t h0 = 0; h0 < g.OH; h0 += TH) {
        const int64_t th = std::min(TH, g.OH - h0);
        for (int64_t w0 = 0; w0 < g.OW; w0 += TW, ++tile) {
          const int64_t tw = std::min(TW, g.OW - w0);
          Tensor acc = c0[tile % c0.size()].index({range(0, tn), range(0, tf), range(0, th), range(0, tw)});
          // The input rows and columns this output tile needs (the halo), clipped to the image.
          const int64_t ih0 = std::max<int64_t>(0, h0 * g.s - g.p), ih1 = std::min(g.H, (h0 + th - 1) * g.s - g.p + g.KH);
          const int64_t iw0 = std::max<int64_t>(0, w0 * g.s - g.p), iw1 = std::min(g.W, (w0 + tw - 1) * g.s - g.p + g.KW);
          for (int64_t k0 = 0; k0 < g.C; k0 += TC, ++step) {
            const int64_t tc = std::min(TC, g.C - k0);
            Tensor a = a0[step % a0.size()].index({range(0, tn * th * tw), range(0, tc * KK)});
            Tensor b = b0[step % b0.size()].index({range(0, tc * KK), range(0, tf)});
            if (ih1 > ih0 && iw1 > iw0) {  // MTE2, then MTE1's img2col: the tile read once per kernel tap
              Tensor it = in.index({range(n0, tn), range(k0, tc), range(ih0, ih1 - ih0), range(iw0, iw1 - iw0)});
              if (li) it = tile_load(c, it, i1[step % i1.size()].index({range(0, tn), range(0, tc), range(0, ih1 - ih0),
                                                                        range(0, iw1 - iw0)}));
              emit_bulk(c, it, AccessKind::Read, uint64_t(KK));
              emit_bulk(c, a, AccessKind::Write, 1);
            }
            Tensor wt = w.index({range(f0, tf), range(k0, tc)});
            if (lw) wt = tile_load(c, wt, w1[step % w1.size()].index({range(0, tf), range(0, tc)}));
            emit_bulk(c, wt, AccessKind::Read, 1);
            emit_bulk(c, b, AccessKind::Write, 1);
            emit_bulk(c, a, AccessKind::Read, 1);
            emit_bulk(c, b, AccessKind::Read, 1);
            const double flops = double(tn * tf * th * tw) * double(tc * KK) * cost;
            if (flops > 0) c.compute(OpKind::Conv2d, flops);
            emit_bulk(c, acc, AccessKind::Write, 1);
          }
          Tensor ot = out.index({range(n0, tn), range(f0, tf), range(h0, th), range(w0, tw)});
          if (cub.empty()) {
            move_events(c, acc, ot);
          } else {
            Tensor u = cub[tile % cub.size()].index({range(0, tn), range(0, tf), range(0, th), range(0, tw)});
            move_events(c, acc, u);
            move_events(c, u, ot);
          }
        }
      }
    }
  }
}

}  // namespace ptosim::exec::detail
