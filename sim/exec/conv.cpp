#include <algorithm>

#include "sim/exec/conv_vector.h"
#include "sim/exec/cube_lowering.h"
#include "sim/exec/emit.h"
#include "sim/exec/register_block.h"
#include "sim/exec/tiling.h"
#include "sim/exec/matmul_internal.h"
#include "sim/exec/pto_op.h"

namespace ptosim::exec {

using namespace detail;

namespace {

struct ConvPlan {
  int64_t N, C, H, W, F, KH, KW, OH, OW, s, p;
};

ConvPlan plan_conv(const Tensor& in, const Tensor& w, int64_t stride, int64_t padding, const char* op) {
  in.check_live();
  if (in.rank() != 4) throw OpError(std::string(op) + ": input must be 4-D [N, C, H, W], got shape " + shape_str(in.shape()));
  if (stride <= 0) throw OpError(std::string(op) + ": stride must be positive");
  // Any padding past 2^20 pads past the tensor limit; the bound keeps 2 * padding from overflowing.
  if (padding < 0 || padding > (1 << 20)) throw OpError(std::string(op) + ": padding must be from 0 to 2^20");
  ConvPlan p{};
  p.N = in.shape()[0]; p.C = in.shape()[1]; p.H = in.shape()[2]; p.W = in.shape()[3];
  p.s = stride; p.p = padding;
  if (w.valid()) {
    w.check_live();
    if (w.rank() != 4) throw OpError(std::string(op) + ": weight must be 4-D [F, C, KH, KW], got shape " + shape_str(w.shape()));
    if (w.shape()[1] != p.C)
      throw OpError(std::string(op) + ": input has " + std::to_string(p.C) + " channels but weight expects " +
                    std::to_string(w.shape()[1]));
    p.F = w.shape()[0]; p.KH = w.shape()[2]; p.KW = w.shape()[3];
  }
  return p;
}

void finish_plan(ConvPlan& p, const char* op) {
  if (p.KH <= 0 || p.KW <= 0) throw OpError(std::string(op) + ": kernel size must be positive");
  p.OH = (p.H + 2 * p.p - p.KH) / p.s + 1;
  p.OW = (p.W + 2 * p.p - p.KW) / p.s + 1;
  if (p.H + 2 * p.p < p.KH || p.W + 2 * p.p < p.KW || p.OH <= 0 || p.OW <= 0)
    throw OpError(std::string(op) + ": kernel " + std::to_string(p.KH) + "x" + std::to_string(p.KW) +
                  " is larger than the padded input " + std::to_string(p.H + 2 * p.p) + "x" +
                  std::to_string(p.W + 2 * p.p));
}

void conv_tiled_events(ExecContext& c, const ConvPlan& p, const Tensor& in, const Tensor& w, const Tensor& out) {
  const TileDirective& td = *c.tile();
  int64_t TN = td.get("N", p.N), TF = td.get("F", p.F), TH = td.get("H", p.OH), TW = td.get("W", p.OW),
          TC = td.get("C", p.C);
  SpaceId into = c.space_id(td.into), reg = c.register_space();
  bool li = natural_mode(c, in) == Mode::Element, lw = natural_mode(c, w) == Mode::Element;
  int64_t IH = (TH - 1) * p.s + p.KH, IW = (TW - 1) * p.s + p.KW;
  Tensor bi, bw;
  if (li) bi = c.alloc({TN, TC, IH, IW}, in.dtype(), into, {}, in.name() + ".tile", in.name() + ".tile");
  if (lw) bw = c.alloc({TF, TC, p.KH, p.KW}, w.dtype(), into, {}, w.name() + ".tile", w.name() + ".tile");
  Tensor acc = c.alloc({TN, TF, TH, TW}, out.dtype(), reg, {}, out.name() + ".acc", out.name() + ".acc");
  double cost = op_cost(c.config(), OpKind::Conv2d);
  for (int64_t n0 = 0; n0 < p.N; n0 += TN) {
    int64_t tn = std::min(TN, p.N - n0);
    for (int64_t f0 = 0; f0 < p.F; f0 += TF) {
      int64_t tf = std::min(TF, p.F - f0);
      for (int64_t h0 = 0; h0 < p.OH; h0 += TH) {
        int64_t th = std::min(TH, p.OH - h0);
        for (int64_t w0 = 0; w0 < p.OW; w0 += TW) {
          int64_t tw = std::min(TW, p.OW - w0);
          Tensor at = acc.index({range(0, tn), range(0, tf), range(0, th), range(0, tw)});
          // Input rows/cols this output tile needs (the halo), clipped to the image.
          int64_t ih0 = std::max<int64_t>(0, h0 * p.s - p.p), ih1 = std::min(p.H, (h0 + th - 1) * p.s - p.p + p.KH);
          int64_t iw0 = std::max<int64_t>(0, w0 * p.s - p.p), iw1 = std::min(p.W, (w0 + tw - 1) * p.s - p.p + p.KW);
          for (int64_t c0 = 0; c0 < p.C; c0 += TC) {
            int64_t tc = std::min(TC, p.C - c0);
            Tensor it;
            if (ih1 > ih0 && iw1 > iw0) {
              it = in.index({range(n0, tn), range(c0, tc), range(ih0, ih1 - ih0), range(iw0, iw1 - iw0)});
              if (li) it = tile_load(c, it, bi.index({range(0, tn), range(0, tc), range(0, ih1 - ih0), range(0, iw1 - iw0)}));
            }
            Tensor wt = w.index({range(f0, tf), range(c0, tc)});
            if (lw) wt = tile_load(c, wt, bw.index({range(0, tf), range(0, tc)}));
            if (it.valid()) emit_bulk(c, it, AccessKind::Read, ceil_div(uint64_t(tf), kMR));
            emit_bulk(c, wt, AccessKind::Read, uint64_t(tn) * ceil_div(uint64_t(th * tw), kNR));
            if (c0 > 0) emit_bulk(c, at, AccessKind::Read, 1);
            emit_bulk(c, at, AccessKind::Write, 1);
            double flops = double(tn * tf * th * tw) * double(tc * p.KH * p.KW) * cost;
            if (flops > 0) c.compute(OpKind::Conv2d, flops);
          }
          move_events(c, at, out.index({range(n0, tn), range(f0, tf), range(h0, th), range(w0, tw)}));
        }
      }
    }
  }
}

}  // namespace

Tensor conv2d(ExecContext& c, const Tensor& in, const Tensor& w, int64_t stride, int64_t padding) {
  if (!w.valid()) throw OpError("conv2d: missing weight");
  ConvPlan p = plan_conv(in, w, stride, padding, "conv2d");
  finish_plan(p, "conv2d");
  Tensor out = alloc_result(c, {p.N, p.F, p.OH, p.OW}, promote(in.dtype(), w.dtype()), c.result_space(&in), "conv2d");
  check_writable(c, out, "pto.conv2d");
  {
    std::vector<double> I = in.to_vector(), Wt = w.to_vector(), O(size_t(out.numel()), 0.0);
    for (int64_t n = 0; n < p.N; ++n)
      for (int64_t f = 0; f < p.F; ++f)
        for (int64_t oh = 0; oh < p.OH; ++oh)
          for (int64_t ow = 0; ow < p.OW; ++ow) {
            double acc = 0;
            for (int64_t ch = 0; ch < p.C; ++ch)
              for (int64_t i = 0; i < p.KH; ++i) {
                int64_t ih = oh * p.s - p.p + i;
                if (ih < 0 || ih >= p.H) continue;
                for (int64_t j = 0; j < p.KW; ++j) {
                  int64_t iw = ow * p.s - p.p + j;
                  if (iw < 0 || iw >= p.W) continue;
                  acc += I[size_t(((n * p.C + ch) * p.H + ih) * p.W + iw)] *
                         Wt[size_t(((f * p.C + ch) * p.KH + i) * p.KW + j)];
                }
              }
            O[size_t(((n * p.F + f) * p.OH + oh) * p.OW + ow)] = acc;
          }
    out.from_vector(O);
  }
  const TileDirective* td = c.tile();
  bool tiled = td && (td->sizes.count("N") || td->sizes.count("F") || td->sizes.count("H") ||
                      td->sizes.count("W") || td->sizes.count("C"));
  const ConvShape g{p.N, p.C, p.H, p.W, p.F, p.KH, p.KW, p.OH, p.OW, p.s, p.p};
  if (npu_cube(c)) {
    // Tiled or not, an NPU convolves on the cube: an untiled conv2d in the
    // tiles its compiler would pick.
    const SpaceId l1 = tiled ? c.space_id(td->into) : npu_l1(c);
    conv_npu_events(c, g, tiled ? conv_directive_tiles(c, g) : conv_npu_tiles(c, g, l1, in, w, out), l1, in, w, out,
                    tiled);
    return out;
  }
  if (tiled) {
    const uint64_t acc = uint64_t(td->get("N", p.N) * td->get("F", p.F)) * uint64_t(td->get("H", p.OH) * td->get("W", p.OW));
    if (cpu_tile_lowering(c, acc * out.elem_size()) && conv_vector_ok(in)) conv_tiled_cpu_events(c, g, in, w, out);
    else conv_tiled_events(c, p, in, w, out);
    return out;
  }
  Mode mi = natural_mode(c, in), mw = natural_mode(c, w), mo = natural_mode(c, out);
  // Any operand in a cached space: register blocks, every operand read where
  // it lies as the compiled kernel reads it (a weight broadcast per filter of
  // the block and k step, the input row's vectors; a result in `register`
  // is the block's accumulators). All operands in scratchpads: the bulk
  // micro-kernel below.
  if ((mi == Mode::Element || mw == Mode::Element || mo == Mode::Element) && conv_vector_ok(in)) {
    conv_vector_events(c, g, in, w, out);
    return out;
  }
  for (int64_t n = 0; n < p.N; ++n) {
    Tensor inn = in.index({IndexItem::at(n)});
    if (mi != Mode::Element) emit_bulk(c, inn, AccessKind::Read, ceil_div(uint64_t(p.F), kMR));
    if (mw != Mode::Element) emit_bulk(c, w, AccessKind::Read, ceil_div(uint64_t(p.OH * p.OW), kNR));
  }
  if (mi == Mode::Element || mw == Mode::Element || mo == Mode::Element) {
    // An input whose width axis is blocked (no row to load as vectors): the
    // scalar kernel, each MAC's operands read once.
    // for n, f, oh, ow: for c, kh: the kw run of input and weight (one vector
    // each when contiguous); then one write of the output element.
    uint64_t vb = vector_bytes(c);
    Indexer ix(in), wx(w), ox(out);
    Coalescer ic(c, AccessKind::Read, in, vb), wc(c, AccessKind::Read, w, vb);
    int64_t V = std::max<int64_t>(1, int64_t(vb / std::max(ix.es, wx.es)));
    bool ei = mi == Mode::Element, ew = mw == Mode::Element, eo = mo == Mode::Element;
    for (int64_t n = 0; n < p.N; ++n)
      for (int64_t f = 0; f < p.F; ++f)
        for (int64_t oh = 0; oh < p.OH; ++oh)
          for (int64_t ow = 0; ow < p.OW; ++ow) {
            for (int64_t ch = 0; ch < p.C; ++ch)
              for (int64_t i = 0; i < p.KH; ++i) {
                int64_t ih = oh * p.s - p.p + i;
                int64_t ib = ix.offset + ix.tab[0][size_t(n)] + ix.tab[1][size_t(ch)];
                int64_t wb = wx.offset + wx.tab[0][size_t(f)] + wx.tab[1][size_t(ch)] + wx.tab[2][size_t(i)];
                for (int64_t j0 = 0; j0 < p.KW; j0 += V) {
                  int64_t j1 = std::min(p.KW, j0 + V);
                  if (ei && ih >= 0 && ih < p.H) {
                    for (int64_t j = j0; j < j1; ++j) {
                      int64_t iw = ow * p.s - p.p + j;
                      if (iw >= 0 && iw < p.W) ic.add(ix.addr(ib + ix.tab[2][size_t(ih)] + ix.tab[3][size_t(iw)]), ix.es);
                    }
                    ic.flush();
                  }
                  if (ew) {
                    for (int64_t j = j0; j < j1; ++j) wc.add(wx.addr(wb + wx.tab[3][size_t(j)]), wx.es);
                    wc.flush();
                  }
                }
              }
            if (eo) {
              int64_t o = ox.offset + ox.tab[0][size_t(n)] + ox.tab[1][size_t(f)] + ox.tab[2][size_t(oh)] + ox.tab[3][size_t(ow)];
              c.access(ox.addr(o), ox.es, AccessKind::Write, out.space(), out.tag());
            }
          }
  }
  if (mo != Mode::Element) emit_bulk(c, out, AccessKind::Write, 1);
  double flops = double(out.numel()) * double(p.C * p.KH * p.KW) * op_cost(c.config(), OpKind::Conv2d);
  if (flops > 0) c.compute(OpKind::Conv2d, flops);
  return out;
}

Tensor im2col(ExecContext& c, const Tensor& in, int64_t kh, int64_t kw, int64_t stride, int64_t padding) {
  ConvPlan p = plan_conv(in, Tensor(), stride, padding, "im2col");
  p.KH = kh;
  p.KW = kw;
  finish_plan(p, "im2col");
  int64_t rows = p.C * kh * kw, cols = p.OH * p.OW;
  Tensor out = alloc_result(c, {p.N, rows, cols}, in.dtype(), c.result_space(&in), "im2col");
  check_writable(c, out, "pto.im2col");
  Mode mi = natural_mode(c, in), mo = natural_mode(c, out);
  // Events only (run --no-values, tune's probes): copying the values was
  // a fifth of a conv2d probe's instructions (docs/notes/2026-12-07-tune.md).
  const bool values = c.values();
  std::vector<double> I, O;
  if (values) I = in.to_vector(), O.assign(size_t(out.numel()), 0.0);
  uint64_t vb = vector_bytes(c);
  Indexer ix(in), ox(out);
  Coalescer ic(c, AccessKind::Read, in, vb), oc(c, AccessKind::Write, out, vb);
  int64_t V = std::max<int64_t>(1, int64_t(vb / ox.es));
  bool ei = mi == Mode::Element, eo = mo == Mode::Element;
  if (!ei) emit_bulk(c, in, AccessKind::Read, 1);
  // A row-major result (the usual one) takes its rows as runs.
  bool out_unit = true;
  for (size_t e = 1; e < ox.tab[2].size() && out_unit; ++e) out_unit = ox.tab[2][e] == ox.tab[2][e - 1] + 1;
  // A row-major input read at stride 1: a window column's valid run along
  // an output row is one contiguous run of input addresses, added to the
  // coalescer as one (add_contiguous: the same accesses as element by
  // element) and copied as one.
  bool in_unit = p.s == 1;
  for (size_t e = 1; e < ix.tab[3].size() && in_unit; ++e) in_unit = ix.tab[3][e] == ix.tab[3][e - 1] + 1;
  for (int64_t n = 0; n < p.N; ++n)
    for (int64_t r = 0; r < rows; ++r) {
      int64_t ch = r / (kh * kw), i = (r / kw) % kh, j = r % kw;
      const int64_t in_base = ix.offset + ix.tab[0][size_t(n)] + ix.tab[1][size_t(ch)];
      double* orow = values ? O.data() + size_t((n * rows + r) * cols) : nullptr;
      const double* iplane = values ? I.data() + size_t((n * p.C + ch) * p.H * p.W) : nullptr;
      for (int64_t c0 = 0; c0 < cols; c0 += V) {
        int64_t c1 = std::min(cols, c0 + V);
        // The chunk's columns by output row oh: [col, end) with ow from ow0.
        for (int64_t col = c0; col < c1;) {
          const int64_t oh = col / p.OW, ow0 = col % p.OW, end = std::min(c1, col + p.OW - ow0);
          const int64_t ih = oh * p.s - p.p + i;
          if (ih >= 0 && ih < p.H) {
            if (in_unit) {
              // ow with 0 <= ow - p + j < W, within [ow0, ow0 + end - col).
              const int64_t lo = std::max(ow0, p.p - j), hi = std::min(ow0 + end - col, p.W + p.p - j);
              if (lo < hi) {
                const int64_t iw = lo - p.p + j;
                if (values) std::copy_n(iplane + ih * p.W + iw, hi - lo, orow + (col - ow0) + lo);
                if (ei) ic.add_contiguous(ix.addr(in_base + ix.tab[2][size_t(ih)] + ix.tab[3][size_t(iw)]), ix.es,
                                          uint64_t(hi - lo));
              }
            } else {
              for (int64_t ow = ow0; ow < ow0 + end - col; ++ow) {
                const int64_t iw = ow * p.s - p.p + j;
                if (iw < 0 || iw >= p.W) continue;
                if (values) orow[col - ow0 + ow] = iplane[ih * p.W + iw];
                if (ei) ic.add(ix.addr(in_base + ix.tab[2][size_t(ih)] + ix.tab[3][size_t(iw)]), ix.es);
              }
            }
          }
          col = end;
        }
        ic.flush();
        if (eo) {
          const int64_t orow_at = ox.tab[0][size_t(n)] + ox.tab[1][size_t(r)];
          if (out_unit)
            oc.add_contiguous(ox.addr(orow_at + ox.tab[2][size_t(c0)]), ox.es, uint64_t(c1 - c0));
          else
            for (int64_t col = c0; col < c1; ++col) oc.add(ox.addr(orow_at + ox.tab[2][size_t(col)]), ox.es);
          oc.flush();
        }
      }
    }
  if (values) out.from_vector(O);
  if (!eo) emit_bulk(c, out, AccessKind::Write, 1);
  return out;
}

namespace {
Tensor run_conv2d(ExecContext& c, const OpArgs& a) {
  return conv2d(c, a.tensor(0, "conv2d input"), a.tensor(1, "conv2d weight"), a.integer_or(2, 1, "stride"),
                a.integer_or(3, 0, "padding"));
}
Tensor run_im2col(ExecContext& c, const OpArgs& a) {
  return im2col(c, a.tensor(0, "im2col input"), a.integer(1, "kh"), a.integer(2, "kw"), a.integer_or(3, 1, "stride"),
                a.integer_or(4, 0, "padding"));
}
}  // namespace

PTOSIM_REGISTER(PtoOpConcept, Conv2d, "conv2d", 0,
                "input [N, C, H, W] * weight [F, C, KH, KW] -> [N, F, OH, OW], zero padding (stride=1, padding=0)",
                pto_op({"input", "weight", "stride", "padding"}, 2, run_conv2d));
PTOSIM_REGISTER(PtoOpConcept, Im2col, "im2col", 0,
                "input [N, C, H, W] -> [N, C*KH*KW, OH*OW], the columns conv2d multiplies (stride=1, padding=0)",
                pto_op({"input", "kh", "kw", "stride", "padding"}, 3, run_im2col));

}  // namespace ptosim::exec
