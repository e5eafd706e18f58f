#pragma once
// Matmul pieces shared by the untiled kernel (matmul.cpp) and the tile
// lowering (tiling.cpp).
#include "sim/exec/emit.h"

namespace ptosim::exec::detail {

struct MatmulPlan {
  Tensor a, b;          // as matrices ([..., M, K], [..., K, N])
  int64_t M = 0, N = 0, K = 0;
  Shape batch;          // broadcast batch dims
  Shape full;           // batch + [M, N]
  Shape result;         // full without the dims of 1-D operands
};

MatmulPlan plan_matmul(const Tensor& a, const Tensor& b);
// The [M, K] (or [K, N], [M, N]) matrix of batch index bi (broadcast dims -> 0).
Tensor batch_view(const Tensor& t, size_t nbatch, const std::vector<int64_t>& bi);
// exact: store doubles unrounded (reference ops).
void matmul_values(const MatmulPlan& p, const Tensor& out, bool accumulate, bool exact = false);
void matmul_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate);
void matmul_tiled_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate);
bool tiled_matmul(const ExecContext& c);

// Register block of the scratchpad micro-kernel: a [M, K] operand is read
// ceil(N / kNR) times, a [K, N] operand ceil(M / kMR) times.
constexpr int64_t kMR = 8, kNR = 8;

template <class F>
void for_each_batch(const Shape& batch, F&& fn) {
  std::vector<int64_t> bi(batch.size(), 0);
  int64_t n = numel(batch);
  for (int64_t e = 0; e < n; ++e) {
    fn(bi);
    for (size_t d = batch.size(); d-- > 0;) {
      if (++bi[d] < batch[d]) break;
      bi[d] = 0;
    }
  }
}

}  // namespace ptosim::exec::detail
