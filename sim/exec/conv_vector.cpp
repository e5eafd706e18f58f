// The CPU lowering of conv2d (conv_vector.h). Values come from conv2d's own
// loop; only events (and the packed weights' values) are made here.
#include "sim/exec/conv_vector.h"

#include <algorithm>

#include "sim/exec/register_block.h"
#include "sim/exec/tiling.h"

namespace ptosim::exec::detail {

namespace {

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// An input region [N', C', IH', IW'] whose (0, 0) is the image's (h_org, w_org).
struct InputRegion {
  Tensor view;
  int64_t h_org = 0, w_org = 0;
};

// Weights [tf, tc, KH, KW] as the [tf, tc*KH*KW] A operand, where they lie.
Operand weight_operand(const Tensor& w) {
  Indexer wx(w);
  const int64_t tc = w.shape()[1], kh = w.shape()[2], kw = w.shape()[3];
  std::vector<int64_t> rows(wx.tab[0]), cols;
  cols.reserve(size_t(tc * kh * kw));
  for (int64_t ch = 0; ch < tc; ++ch)
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j) cols.push_back(wx.tab[1][size_t(ch)] + wx.tab[2][size_t(i)] + wx.tab[3][size_t(j)]);
  Operand o;
  o.ix = wx;
  o.ix.tab = {std::move(rows), std::move(cols)};
  o.space = w.space();
  o.tag = w.tag();
  o.t = w;
  note_runs(o);
  return o;
}

// The B operand of output row oh (absolute) of image n (local to the
// region): row k = (c, i, j) holds input columns ow*s - p + j of input row
// oh*s - p + i, for the output columns [ow0, ow0 + tw); outside the region
// (padding) nothing is loaded.
Operand input_rows(const ConvShape& g, const InputRegion& r, const Indexer& ix, int64_t n, int64_t oh, int64_t ow0,
                   int64_t tw) {
  const int64_t tc = r.view.shape()[1], ih = r.view.shape()[2], iw = r.view.shape()[3];
  const int64_t sw = r.view.dims()[3].stride;
  Operand o;
  o.ix.base = ix.base;
  o.ix.es = ix.es;
  o.ix.offset = ix.offset;
  std::vector<int64_t> rows, cols(static_cast<size_t>(tw));
  for (int64_t q = 0; q < tw; ++q) cols[size_t(q)] = q * g.s * sw;
  for (int64_t ch = 0; ch < tc; ++ch)
    for (int64_t i = 0; i < g.KH; ++i) {
      const int64_t y = oh * g.s - g.p + i - r.h_org;
      for (int64_t j = 0; j < g.KW; ++j) {
        const int64_t d = ow0 * g.s - g.p + j - r.w_org;  // region column of q = 0
        const bool row_ok = y >= 0 && y < ih;
        const int64_t lo = row_ok ? std::max<int64_t>(0, -floor_div(d, g.s)) : 0;
        const int64_t hi = row_ok ? std::min(tw, floor_div(iw - 1 - d, g.s) + 1) : 0;
        o.lo.push_back(lo);
        o.hi.push_back(std::max(lo, hi));
        rows.push_back(row_ok ? ix.tab[0][size_t(n)] + ix.tab[1][size_t(ch)] + ix.tab[2][size_t(y)] + d * sw : 0);
      }
    }
  o.ix.tab = {std::move(rows), std::move(cols)};
  o.space = r.view.space();
  o.tag = r.view.tag();
  o.t = r.view;
  note_runs(o);
  return o;
}

// Register blocks over out [tn, tf, th, tw] (whose first row and column are
// the absolute oh0, ow0) from the region's input and the weights A.
void conv_blocks(ExecContext& c, const ConvShape& g, const InputRegion& r, const Operand& A, const Tensor& out,
                 int64_t oh0, int64_t ow0, bool load_c) {
  const int64_t tn = out.shape()[0], tf = out.shape()[1], th = out.shape()[2], tw = out.shape()[3];
  const int64_t kn = int64_t(A.ix.tab[1].size());
  const MicroKernel mk = outer_kernel_shape(c, out.elem_size(), tf, tw);
  const Indexer ix(r.view), ox(out);
  for (int64_t n = 0; n < tn; ++n)
    for (int64_t oh = 0; oh < th; ++oh) {
      const Operand B = input_rows(g, r, ix, n, oh0 + oh, ow0, tw);
      Operand C;
      C.ix = ox;
      std::vector<int64_t> rows(static_cast<size_t>(tf));
      for (int64_t f = 0; f < tf; ++f) rows[size_t(f)] = ox.tab[0][size_t(n)] + ox.tab[1][size_t(f)] + ox.tab[2][size_t(oh)];
      C.ix.tab = {std::move(rows), ox.tab[3]};
      C.space = out.space();
      C.tag = out.tag();
      C.t = out;
      note_runs(C);
      for_blocks(tf, tw, mk.MR, mk.NR, 0, kn, [&](const Block& b) { outer_block(c, A, B, C, b, load_c, OpKind::Conv2d); });
    }
}

}  // namespace

bool conv_vector_ok(const Tensor& in) { return in.rank() == 4 && in.dims()[3].block == 0; }

void conv_vector_events(ExecContext& c, const ConvShape& g, const Tensor& in, const Tensor& w, const Tensor& out) {
  conv_blocks(c, g, InputRegion{in, 0, 0}, weight_operand(w), out, 0, 0, false);
}

void conv_tiled_cpu_events(ExecContext& c, const ConvShape& g, const Tensor& in, const Tensor& w, const Tensor& out) {
  const TileDirective& td = *c.tile();
  const int64_t TN = td.get("N", g.N), TF = td.get("F", g.F), TH = td.get("H", g.OH), TW = td.get("W", g.OW),
                TC = td.get("C", g.C);
  const SpaceId into = c.space_id(td.into);
  const bool li = needs_load(c, in), lw = needs_load(c, w);
  const int64_t IH = (TH - 1) * g.s + g.KH, IW = (TW - 1) * g.s + g.KW;
  const int64_t MR = outer_kernel_shape(c, out.elem_size(), TF, TW).MR;
  Tensor bi, bw;
  if (li) bi = c.alloc({TN, TC, IH, IW}, in.dtype(), into, {}, in.name() + ".tile", in.name() + ".tile");
  if (lw) {
    const int64_t elems = int64_t(ceil_div(uint64_t(TF), uint64_t(MR))) * MR * TC * g.KH * g.KW;
    bw = c.alloc({elems}, w.dtype(), into, {}, w.name() + ".tile", w.name() + ".tile");
  }
  for (int64_t n0 = 0; n0 < g.N; n0 += TN) {
    const int64_t tn = std::min(TN, g.N - n0);
    for (int64_t f0 = 0; f0 < g.F; f0 += TF) {
      const int64_t tf = std::min(TF, g.F - f0);
      for (int64_t h0 = 0; h0 < g.OH; h0 += TH) {
        const int64_t th = std::min(TH, g.OH - h0);
        for (int64_t w0 = 0; w0 < g.OW; w0 += TW) {
          const int64_t tw = std::min(TW, g.OW - w0);
          const Tensor ot = out.index({range(n0, tn), range(f0, tf), range(h0, th), range(w0, tw)});
          // Input rows/cols this output tile needs (the halo), clipped to the image.
          const int64_t ih0 = std::max<int64_t>(0, h0 * g.s - g.p), ih1 = std::min(g.H, (h0 + th - 1) * g.s - g.p + g.KH);
          const int64_t iw0 = std::max<int64_t>(0, w0 * g.s - g.p), iw1 = std::min(g.W, (w0 + tw - 1) * g.s - g.p + g.KW);
          for (int64_t c0 = 0; c0 < g.C; c0 += TC) {
            const int64_t tc = std::min(TC, g.C - c0);
            const Tensor wt = w.index({range(f0, tf), range(c0, tc)});
            Operand A;
            if (lw) {
              const int64_t k = tc * g.KH * g.KW;
              std::vector<int64_t> prow(static_cast<size_t>(tf)), pcol(static_cast<size_t>(k));
              for (int64_t f = 0; f < tf; ++f) prow[size_t(f)] = (f / MR) * k * MR + f % MR;
              for (int64_t e = 0; e < k; ++e) pcol[size_t(e)] = e * MR;
              // The weight tile as a [tf, k] matrix for pack(); read in place when it is not one.
              const Tensor flat = wt.reshape_view({tf, k}).value_or(Tensor());
              if (flat.valid()) {
                A = packed(bw, std::move(prow), std::move(pcol));
                pack(c, flat, bw, A, int64_t(ceil_div(uint64_t(tf), uint64_t(MR))) * MR * k);
              } else {
                A = weight_operand(wt);
              }
            } else {
              A = weight_operand(wt);
            }
            if (ih1 <= ih0 || iw1 <= iw0) continue;
            Tensor it = in.index({range(n0, tn), range(c0, tc), range(ih0, ih1 - ih0), range(iw0, iw1 - iw0)});
            if (li) it = tile_load(c, it, bi.index({range(0, tn), range(0, tc), range(0, ih1 - ih0), range(0, iw1 - iw0)}));
            if (!conv_vector_ok(it)) throw OpError("conv2d: the input tile's width axis is not linear");
            conv_blocks(c, g, InputRegion{it, ih0, iw0}, A, ot, h0, w0, c0 > 0);
          }
        }
      }
    }
  }
}

}  // namespace ptosim::exec::detail
