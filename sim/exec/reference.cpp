// pto.ref.*: double-precision references. No events; results are global
// float32 tensors whose stored values are the unrounded doubles.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "sim/exec/double_pairs.h"
#include "sim/exec/emit.h"
#include "sim/exec/matmul_internal.h"

namespace ptosim::exec::ref {

using namespace detail;

namespace {
Tensor ref_alloc(ExecContext& c, const Shape& shape, const char* op) {
  return c.alloc(shape, DType::F32, kGlobalSpace, {}, std::string("ref.") + op, std::string("ref.") + op);
}
// Fresh allocations are row-major and dense: logical index == value index.
void put(const Tensor& t, const std::vector<double>& v) { t.storage()->values = v; }

Tensor softmax_exact(ExecContext& c, const Tensor& x, int axis_in) {
  x.check_live();
  int axis = norm_axis(axis_in, x.rank(), "ref.softmax");
  Tensor out = ref_alloc(c, x.shape(), "softmax");
  if (x.rank() == 0) { put(out, {1.0}); return out; }
  if (!c.values()) return out;  // --no-values (and run --sample), as matmul below
  std::vector<int> perm;
  for (int d = 0; d < x.rank(); ++d)
    if (d != axis) perm.push_back(d);
  perm.push_back(axis);
  Tensor xt = x.transpose(perm), ot = out.transpose(perm);
  std::vector<double> v = xt.to_vector(), o(v.size());
  int64_t R = x.shape()[size_t(axis)];
  for (int64_t r = 0; R && r < int64_t(v.size()) / R; ++r) {
    const double* p = v.data() + r * R;
    double m = -INFINITY, s = 0;
    for (int64_t k = 0; k < R; ++k) m = std::max(m, p[k]);
    for (int64_t k = 0; k < R; ++k) s += std::exp(p[k] - m);
    for (int64_t k = 0; k < R; ++k) o[size_t(r * R + k)] = std::exp(p[k] - m) / s;
  }
  // Write through the permuted view without rounding.
  Indexer ox(ot);
  auto& dv = out.storage()->values;
  int64_t len = inner_len(ot.shape()), n = 0;
  for_each_row(ot.shape(), [&](const int64_t* outer, int64_t) {
    int64_t row = ox.row(outer);
    for (int64_t j = 0; j < len; ++j) dv[size_t(row + ox.inner()[size_t(j)])] = o[size_t(n++)];
  });
  return out;
}
}  // namespace

Tensor matmul(ExecContext& c, const Tensor& a, const Tensor& b) {
  MatmulPlan p = plan_matmul(a, b);
  Tensor out = ref_alloc(c, p.full, "matmul");
  if (c.values()) matmul_values(p, out, false, true);
  if (p.result != p.full) return *out.reshape_view(p.result);
  return out;
}

Tensor conv2d(ExecContext& c, const Tensor& in, const Tensor& w, int64_t stride, int64_t padding) {
  in.check_live();
  w.check_live();
  if (in.rank() != 4 || w.rank() != 4) throw OpError("ref.conv2d: input and weight must be 4-D");
  int64_t N = in.shape()[0], C = in.shape()[1], H = in.shape()[2], W = in.shape()[3];
  int64_t F = w.shape()[0], KH = w.shape()[2], KW = w.shape()[3];
  if (w.shape()[1] != C) throw OpError("ref.conv2d: channel mismatch");
  if (stride <= 0) throw OpError("ref.conv2d: stride must be positive");
  if (padding < 0 || padding > (1 << 20)) throw OpError("ref.conv2d: padding must be from 0 to 2^20");
  if (H + 2 * padding < KH || W + 2 * padding < KW) throw OpError("ref.conv2d: kernel larger than padded input");
  int64_t OH = (H + 2 * padding - KH) / stride + 1, OW = (W + 2 * padding - KW) / stride + 1;
  Tensor out = ref_alloc(c, {N, F, OH, OW}, "conv2d");  // first: it refuses a result past the tensor limit
  std::vector<double> I = in.to_vector(), Wt = w.to_vector(), O(size_t(out.numel()), 0.0);
  // Each output adds its window's terms in the order (channel, kernel row,
  // kernel column), the terms outside the input left out (the same sum, to
  // the bit, as one output at a time with the window innermost, which cost
  // ~12 instructions a term). A row's outputs whose whole window row is
  // inside the input go eight (then two) at a time, in registers; the others, and any
  // stride but 1, one at a time.
  for (int64_t n = 0; n < N; ++n)
    for (int64_t f = 0; f < F; ++f)
      for (int64_t oh = 0; oh < OH; ++oh) {
        double* orow = O.data() + size_t(((n * F + f) * OH + oh) * OW);
        const int64_t ih0 = oh * stride - padding;
        const int64_t i_lo = std::max<int64_t>(0, -ih0), i_hi = std::min(KH, H - ih0);
        auto one = [&](int64_t ow) {
          const int64_t iw0 = ow * stride - padding;
          const int64_t j_lo = std::max<int64_t>(0, -iw0), j_hi = std::min(KW, W - iw0);
          double acc = 0;
          for (int64_t ch = 0; ch < C; ++ch)
            for (int64_t i = i_lo; i < i_hi; ++i) {
              // Indices, not row pointers: iw0 may be negative (padding).
              const int64_t irow = ((n * C + ch) * H + ih0 + i) * W + iw0, wrow = ((f * C + ch) * KH + i) * KW;
              for (int64_t j = j_lo; j < j_hi; ++j) acc += I[size_t(irow + j)] * Wt[size_t(wrow + j)];
            }
          orow[ow] = acc;
        };
        // Outputs [lo, hi): every column of their windows inside the input.
        const int64_t lo = stride == 1 ? std::min(OW, padding) : OW;
        const int64_t hi = stride == 1 ? std::max(lo, std::min(OW, W + padding - KW + 1)) : OW;
        int64_t ow = 0;
        for (; ow < lo; ++ow) one(ow);
        auto block = [&](auto pairs) {  // outputs [ow, ow + 2 * pairs)
          V2 acc[pairs] = {};
          for (int64_t ch = 0; ch < C; ++ch)
            for (int64_t i = i_lo; i < i_hi; ++i) {
              const double* in_row = I.data() + size_t(((n * C + ch) * H + ih0 + i) * W + ow - padding);
              const double* w_row = Wt.data() + size_t(((f * C + ch) * KH + i) * KW);
              for (int64_t j = 0; j < KW; ++j) {
                const double wv = w_row[j];
                for (int q = 0; q < int(pairs); ++q) acc[q] += ld2(in_row + j + 2 * q) * wv;
              }
            }
          for (int q = 0; q < int(pairs); ++q) st2(orow + ow + 2 * q, acc[q]);
        };
        for (; ow + 8 <= hi; ow += 8) block(std::integral_constant<int, 4>());
        for (; ow + 2 <= hi; ow += 2) block(std::integral_constant<int, 1>());
        for (; ow < OW; ++ow) one(ow);
      }
  put(out, O);
  return out;
}

Tensor softmax(ExecContext& c, const Tensor& x, int axis) { return softmax_exact(c, x, axis); }

Tensor gelu(ExecContext& c, const Tensor& x) {
  x.check_live();
  std::vector<double> v = x.to_vector();
  for (auto& e : v) e = apply_unary(OpKind::Gelu, e);
  Tensor out = ref_alloc(c, x.shape(), "gelu");
  put(out, v);
  return out;
}

Tensor layer_norm(ExecContext& c, const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps) {
  x.check_live();
  gamma.check_live();
  beta.check_live();
  if (x.rank() == 0) throw OpError("ref.layer_norm: x must have at least one dimension");
  int64_t D = x.shape().back();
  auto vec = [&](const Tensor& t, const char* what) {
    if (t.numel() != D)
      throw OpError(std::string("ref.layer_norm: ") + what + " has " + std::to_string(t.numel()) +
                    " elements, expected " + std::to_string(D) + " (the last axis of x)");
    return t.to_vector();
  };
  std::vector<double> g = vec(gamma, "gamma"), b = vec(beta, "beta"), v = x.to_vector();
  for (int64_t r = 0; D && r < int64_t(v.size()) / D; ++r) {
    double* p = v.data() + r * D;
    double m = 0, var = 0;
    for (int64_t k = 0; k < D; ++k) m += p[k];
    m /= double(D);
    for (int64_t k = 0; k < D; ++k) var += (p[k] - m) * (p[k] - m);
    var /= double(D);
    double inv = 1.0 / std::sqrt(var + eps);
    for (int64_t k = 0; k < D; ++k) p[k] = (p[k] - m) * inv * g[size_t(k)] + b[size_t(k)];
  }
  Tensor out = ref_alloc(c, x.shape(), "layer_norm");
  put(out, v);
  return out;
}

Tensor attention(ExecContext& c, const Tensor& q, const Tensor& k, const Tensor& v, std::optional<double> scale) {
  q.check_live();
  k.check_live();
  v.check_live();
  if (q.rank() < 2 || k.rank() < 2 || v.rank() < 2) throw OpError("ref.attention: operands must be [..., L, D]");
  double s = scale ? *scale : 1.0 / std::sqrt(double(q.shape().back()));
  std::vector<int> perm;
  for (int d = 0; d < k.rank(); ++d) perm.push_back(d);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  Tensor scores = ref::matmul(c, q, k.transpose(perm));
  for (auto& e : scores.storage()->values) e *= s;
  Tensor prob = softmax_exact(c, scores, -1);
  Tensor out = ref::matmul(c, prob, v);
  return out;
}

}  // namespace ptosim::exec::ref
