// matmul's values (matmul.cpp: 4 x 8 blocks with AVX where the host has it,
// 4 x 4 blocks, the edges one at a time) against the one-output-at-a-time
// sum in k order, bit for bit, over shapes that leave every edge: rows not a
// multiple of four, columns not a multiple of eight or four.
#include "tests/sim/exec/exec_test_util.h"

namespace ptosim::test {

TEST(MatmulValues, EveryOutputAsTheSumInKOrder) {
  HwConfig cfg = small_config();
  ExecContext c(cfg, nullptr);
  const int64_t shapes[][3] = {{8, 16, 5}, {9, 19, 7}, {3, 8, 4}, {4, 12, 3}, {13, 5, 9}, {6, 27, 1}};
  for (const auto& s : shapes) {
    const int64_t M = s[0], N = s[1], K = s[2];
    SCOPED_TRACE(std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K));
    Tensor a = make(c, "A", {M, K}, "random", 7), b = make(c, "B", {K, N}, "random", 8);
    const std::vector<double> av = a.to_vector(), bv = b.to_vector();
    std::vector<double> want;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k) {
          const double p = av[size_t(i * K + k)] * bv[size_t(k * N + j)];
          acc += p;
        }
        want.push_back(acc);
      }
    EXPECT_EQ(ref::matmul(c, a, b).to_vector(), want);  // exact doubles
    std::vector<double> rounded;
    for (double v : want) rounded.push_back(double(float(v)));
    EXPECT_EQ(matmul(c, a, b).to_vector(), rounded);  // float32 results
  }
}

}  // namespace ptosim::test
