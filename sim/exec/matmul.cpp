#include <algorithm>
#include <cstring>

#include "sim/exec/cube_lowering.h"
#include "sim/exec/double_pairs.h"
#include "sim/exec/emit.h"
#include "sim/exec/matmul_internal.h"
#include "sim/exec/matmul_vector.h"
#include "sim/exec/pto_op.h"

namespace ptosim::exec {

using namespace detail;

namespace detail {

// 1-D operands become [1, K] / [K, 1] views (a stride-0 unit dim).
static Tensor as_matrix(const Tensor& t, bool is_a) {
  if (t.rank() >= 2) return t;
  if (t.rank() == 0) throw OpError("matmul: operand '" + t.name() + "' is a scalar (0-d)");
  DimMap unit;
  unit.size = 1;
  std::vector<DimMap> dims = t.dims();
  Shape shape = t.shape();
  if (is_a) { dims.insert(dims.begin(), unit); shape.insert(shape.begin(), 1); }
  else { dims.push_back(unit); shape.push_back(1); }
  return Tensor(t.storage(), shape, dims, t.offset());
}

MatmulPlan plan_matmul(const Tensor& a, const Tensor& b) {
  a.check_live();
  b.check_live();
  MatmulPlan p;
  p.a = as_matrix(a, true);
  p.b = as_matrix(b, false);
  const Shape& as = p.a.shape();
  const Shape& bs = p.b.shape();
  p.M = as[as.size() - 2];
  p.K = as[as.size() - 1];
  p.N = bs[bs.size() - 1];
  if (bs[bs.size() - 2] != p.K)
    throw OpError("matmul: shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) +
                  " not aligned: " + std::to_string(p.K) + " (last dim of a) != " +
                  std::to_string(bs[bs.size() - 2]) + " (second-to-last dim of b)");
  p.batch = broadcast_shapes(Shape(as.begin(), as.end() - 2), Shape(bs.begin(), bs.end() - 2));
  p.full = p.batch;
  p.full.push_back(p.M);
  p.full.push_back(p.N);
  p.result = p.batch;
  if (a.rank() >= 2) p.result.push_back(p.M);
  if (b.rank() >= 2) p.result.push_back(p.N);
  return p;
}

Tensor batch_view(const Tensor& t, size_t nbatch, const std::vector<int64_t>& bi) {
  std::vector<IndexItem> items;
  size_t tb = size_t(t.rank()) - 2;
  for (size_t d = 0; d < tb; ++d) {
    size_t od = d + (nbatch - tb);
    items.push_back(IndexItem::at(t.shape()[d] == 1 ? 0 : bi[od]));
  }
  return t.index(items);
}

namespace {

// C[M, N] += A[M, K] @ B[K, N], row-major. Blocks of 4 x 4 outputs stay in
// registers over the k loop (the plain j loop loaded and stored C for every
// k); each output still adds its k products one at a time in k order, each
// product rounded before the add (no fused multiply-add), so every value is
// what the one-element-at-a-time loop gives. Columns before j_first of the
// whole groups of four rows are done already (mac_rows_avx).
void mac_rows(const double* A, const double* B, double* C, int64_t M, int64_t N, int64_t K, int64_t j_first = 0) {
  int64_t i0 = 0;
  for (; i0 + 4 <= M; i0 += 4) {
    int64_t j0 = j_first;
    for (; j0 + 4 <= N; j0 += 4) {
      double* c0 = C + i0 * N + j0;
      V2 acc[4][2];
      for (int r = 0; r < 4; ++r) acc[r][0] = ld2(c0 + r * N), acc[r][1] = ld2(c0 + r * N + 2);
      const double* a = A + i0 * K;
      for (int64_t k = 0; k < K; ++k) {
        const V2 b0 = ld2(B + k * N + j0), b1 = ld2(B + k * N + j0 + 2);
        for (int r = 0; r < 4; ++r) {
          const double x = a[r * K + k];
          acc[r][0] += x * b0;
          acc[r][1] += x * b1;
        }
      }
      for (int r = 0; r < 4; ++r) st2(c0 + r * N, acc[r][0]), st2(c0 + r * N + 2, acc[r][1]);
    }
    for (int64_t i = i0; i < i0 + 4 && j0 < N; ++i)
      for (int64_t k = 0; k < K; ++k)
        for (int64_t j = j0; j < N; ++j) C[i * N + j] += A[i * K + k] * B[k * N + j];
  }
  for (int64_t i = i0; i < M; ++i)
    for (int64_t k = 0; k < K; ++k)
      for (int64_t j = 0; j < N; ++j) C[i * N + j] += A[i * K + k] * B[k * N + j];
}

// The 4 x 8 blocks of mac_rows' groups of four rows with four doubles a
// register (AVX, without FMA: the same multiply, round, add, round per
// lane, so the same values), half the instructions of the 4 x 4 blocks.
// Returns the first column it left to mac_rows.
__attribute__((target("avx"))) int64_t mac_rows_avx(const double* A, const double* B, double* C, int64_t M, int64_t N,
                                                    int64_t K) {
  typedef double V4 __attribute__((vector_size(32)));
  const int64_t n8 = N / 8 * 8;
  for (int64_t i0 = 0; i0 + 4 <= M; i0 += 4)
    for (int64_t j0 = 0; j0 < n8; j0 += 8) {
      double* c0 = C + i0 * N + j0;
      V4 acc[4][2];
      for (int r = 0; r < 4; ++r) {
        __builtin_memcpy(&acc[r][0], c0 + r * N, sizeof(V4));
        __builtin_memcpy(&acc[r][1], c0 + r * N + 4, sizeof(V4));
      }
      const double* a = A + i0 * K;
      for (int64_t k = 0; k < K; ++k) {
        V4 b0, b1;
        __builtin_memcpy(&b0, B + k * N + j0, sizeof(V4));
        __builtin_memcpy(&b1, B + k * N + j0 + 4, sizeof(V4));
        for (int r = 0; r < 4; ++r) {
          const double x = a[r * K + k];
          acc[r][0] += x * b0;
          acc[r][1] += x * b1;
        }
      }
      for (int r = 0; r < 4; ++r) {
        __builtin_memcpy(c0 + r * N, &acc[r][0], sizeof(V4));
        __builtin_memcpy(c0 + r * N + 4, &acc[r][1], sizeof(V4));
      }
    }
  return M >= 4 ? n8 : 0;
}

void mac(const double* A, const double* B, double* C, int64_t M, int64_t N, int64_t K) {
  static const bool avx = __builtin_cpu_supports("avx");
  mac_rows(A, B, C, M, N, K, avx ? mac_rows_avx(A, B, C, M, N, K) : 0);
}

}  // namespace

void matmul_values(const MatmulPlan& p, const Tensor& out, bool accumulate, bool exact) {
  std::vector<double> A, B, C(size_t(p.M * p.N));  // A and B come from to_vector (sized, they were zeroed first)
  DType dt = out.dtype();
  for_each_batch(p.batch, [&](const std::vector<int64_t>& bi) {
    Tensor av = batch_view(p.a, p.batch.size(), bi), bv = batch_view(p.b, p.batch.size(), bi);
    Tensor cv = batch_view(out, p.batch.size(), bi);
    A = av.to_vector();
    B = bv.to_vector();
    Indexer cx(cv);
    auto& dv = out.storage()->values;
    const std::vector<int64_t>& in = cx.inner();
    for (int64_t i = 0; i < p.M; ++i) {
      const int64_t row = cx.row(&i);
      for (int64_t j = 0; j < p.N; ++j) C[size_t(i * p.N + j)] = accumulate ? dv[size_t(row + in[size_t(j)])] : 0.0;
    }
    mac(A.data(), B.data(), C.data(), p.M, p.N, p.K);
    for (int64_t i = 0; i < p.M; ++i) {
      const int64_t row = cx.row(&i);
      for (int64_t j = 0; j < p.N; ++j) {
        const double v = C[size_t(i * p.N + j)];
        dv[size_t(row + in[size_t(j)])] = exact ? v : round_to(dt, v);
      }
    }
  });
}

namespace {

struct Seg {
  uint64_t off;    // bytes from the row/column base
  uint64_t bytes;
};

// Accesses of one operand along k, per chunk of V k-steps: contiguous
// elements merge up to vector_bytes.
void k_segments(const std::vector<int64_t>& tab, uint32_t es, int64_t K, int64_t V, uint64_t vb,
                std::vector<Seg>& segs, std::vector<size_t>& chunk_begin) {
  for (int64_t k0 = 0; k0 < K; k0 += V) {
    chunk_begin.push_back(segs.size());
    int64_t k1 = std::min(K, k0 + V);
    bool open = false;
    uint64_t s = 0, e = 0;
    for (int64_t k = k0; k < k1; ++k) {
      uint64_t a = uint64_t(tab[size_t(k)]) * es;
      if (open && a >= s && a + es <= e) continue;
      if (open && a == e && e - s + es <= vb) { e += es; continue; }
      if (open) segs.push_back({s, e - s});
      s = a; e = a + es; open = true;
    }
    if (open) segs.push_back({s, e - s});
  }
  chunk_begin.push_back(segs.size());
}

}  // namespace

void matmul_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate) {
  Mode ma = natural_mode(c, p.a), mb = natural_mode(c, p.b), mc = natural_mode(c, out);
  uint64_t vb = vector_bytes(c);
  int64_t M = p.M, N = p.N, K = p.K;
  bool ea = ma == Mode::Element, eb = mb == Mode::Element, ec = mc == Mode::Element;
  if (ea && eb && ec) return matmul_vector_events(c, p, out, accumulate);
  // Some operands cached, some in scratchpads: register blocks, each operand
  // read where it lies, as conv2d (conv.cpp); the walk below read a cached
  // operand's k run once per output element. An NPU keeps the walk: its
  // matmul belongs on the cube (pto.tile), which this is not.
  if ((ea || eb || ec) && !npu_cube(c)) return matmul_block_events(c, p, out, accumulate);
  for_each_batch(p.batch, [&](const std::vector<int64_t>& bi) {
    Tensor av = batch_view(p.a, p.batch.size(), bi), bv = batch_view(p.b, p.batch.size(), bi);
    Tensor cv = batch_view(out, p.batch.size(), bi);
    if (!ea) emit_bulk(c, av, AccessKind::Read, ceil_div(uint64_t(N), kNR));
    if (!eb) emit_bulk(c, bv, AccessKind::Read, ceil_div(uint64_t(M), kMR));
    if (!ec && accumulate) emit_bulk(c, cv, AccessKind::Read, 1);
    if (ea || eb || ec) {
      Indexer ax(av), bx(bv), cx(cv);
      int64_t V = std::max<int64_t>(1, int64_t(vb / std::max(ax.es, bx.es)));
      std::vector<int64_t> btab(static_cast<size_t>(K));
      for (int64_t k = 0; k < K; ++k) btab[size_t(k)] = bx.tab[0][size_t(k)];
      std::vector<Seg> sa, sb;
      std::vector<size_t> ca, cb;
      k_segments(ax.tab[1], ax.es, K, V, vb, sa, ca);
      k_segments(btab, bx.es, K, V, vb, sb, cb);
      size_t chunks = ca.size() - 1;
      SpaceId spa = av.space(), spb = bv.space(), spc = cv.space();
      TagId ta = av.tag(), tb = bv.tag(), tc = cv.tag();
      uint64_t ces = cx.es;
      for (int64_t i = 0; i < M; ++i) {
        uint64_t rowa = ax.addr(ax.offset + ax.tab[0][size_t(i)]);
        int64_t rowc = cx.offset + cx.tab[0][size_t(i)];
        for (int64_t j = 0; j < N; ++j) {
          uint64_t colb = bx.addr(bx.offset + bx.tab[1][size_t(j)]);
          uint64_t caddr = cx.addr(rowc + cx.tab[1][size_t(j)]);
          if (ec && accumulate) c.access(caddr, ces, AccessKind::Read, spc, tc);
          for (size_t ch = 0; ch < chunks; ++ch) {
            if (ea)
              for (size_t s = ca[ch]; s < ca[ch + 1]; ++s)
                c.access(rowa + sa[s].off, sa[s].bytes, AccessKind::Read, spa, ta);
            if (eb)
              for (size_t s = cb[ch]; s < cb[ch + 1]; ++s)
                c.access(colb + sb[s].off, sb[s].bytes, AccessKind::Read, spb, tb);
          }
          if (ec) c.access(caddr, ces, AccessKind::Write, spc, tc);
        }
      }
    }
    if (!ec) emit_bulk(c, cv, AccessKind::Write, 1);
  });
  double flops = double(numel(p.batch)) * double(M) * double(N) * double(K) * op_cost(c.config(), OpKind::Matmul);
  if (flops > 0) c.compute(OpKind::Matmul, flops);
}

bool tiled_matmul(const ExecContext& c) {
  const TileDirective* t = c.tile();
  return t && (t->sizes.count("M") || t->sizes.count("N") || t->sizes.count("K"));
}

}  // namespace detail

Tensor matmul(ExecContext& c, const Tensor& a, const Tensor& b) {
  MatmulPlan p = plan_matmul(a, b);
  Tensor out = alloc_result(c, p.full, promote(a.dtype(), b.dtype()), c.result_space(&a), "matmul");
  check_writable(c, out, "pto.matmul");
  if (c.values()) matmul_values(p, out, false);
  if (tiled_matmul(c)) matmul_tiled_events(c, p, out, false);
  else matmul_events(c, p, out, false);
  if (p.result != p.full) return *out.reshape_view(p.result);
  return out;
}

void matmul_acc(ExecContext& c, const Tensor& acc, const Tensor& a, const Tensor& b) {
  acc.check_live();
  MatmulPlan p = plan_matmul(a, b);
  if (acc.shape() != p.result && acc.shape() != p.full)
    throw OpError("matmul_acc: accumulator shape " + shape_str(acc.shape()) + " != result shape " +
                  shape_str(p.result));
  check_writable(c, acc, "pto.matmul_acc");
  Tensor accf = acc.shape() == p.full ? acc : *acc.reshape_view(p.full);
  if (!accf.valid()) throw OpError("matmul_acc: accumulator view cannot be reshaped");
  if (c.values()) matmul_values(p, accf, true);
  if (tiled_matmul(c)) matmul_tiled_events(c, p, accf, true);
  else matmul_events(c, p, accf, true);
}

namespace {
Tensor run_matmul(ExecContext& c, const OpArgs& a) { return matmul(c, a.tensor(0, "matmul a"), a.tensor(1, "matmul b")); }
Tensor run_matmul_acc(ExecContext& c, const OpArgs& a) {
  matmul_acc(c, a.tensor(0, "matmul_acc acc"), a.tensor(1, "matmul_acc a"), a.tensor(2, "matmul_acc b"));
  return Tensor();
}
}  // namespace

PTOSIM_REGISTER(PtoOpConcept, Matmul, "matmul", 0,
                "a @ b, batched over leading dimensions (1-D operands as NumPy); lowered per target (docs/EXEC.md)",
                pto_op({"a", "b"}, 2, run_matmul));
PTOSIM_REGISTER(PtoOpConcept, MatmulAcc, "matmul_acc", 0,
                "acc += a @ b in place (acc of the product's shape); no result",
                pto_op({"acc", "a", "b"}, 3, run_matmul_acc));

}  // namespace ptosim::exec
