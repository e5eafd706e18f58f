// The vector exp and GELU (sim/host/vector_math.h) compute what they claim:
// config host --measure times them to cost pto.exp and pto.gelu, and the
// op-level fidelity suite's native twins compute with them, so a sequence
// that went wrong would both mis-time the host and break the twins' checks.
#include "sim/host/vector_math.h"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/host/vector_math_probe.h"

namespace ptosim::vm {
namespace {

template <int Bytes>
void expect_accurate() {
  using V = Vec<Bytes>;
  constexpr int kLanes = Bytes / 4;
  double worst_exp = 0, worst_gelu = 0;
  for (int i = 0; i < 4000; i += kLanes) {
    typename V::F x;
    for (int l = 0; l < kLanes; ++l) x[l] = float(i + l) / 200.0f - 10.0f;  // -10 .. 10
    const typename V::F e = V::exp(x), g = V::gelu(x);
    for (int l = 0; l < kLanes; ++l) {
      const double xd = x[l], want_e = std::exp(xd), want_g = 0.5 * xd * (1 + std::erf(xd / std::sqrt(2.0)));
      worst_exp = std::max(worst_exp, std::fabs(e[l] - want_e) / want_e);
      worst_gelu = std::max(worst_gelu, std::fabs(g[l] - want_g) / std::max(1.0, std::fabs(want_g)));
    }
  }
  EXPECT_LT(worst_exp, 4e-7);   // ~2 ulp of a float
  EXPECT_LT(worst_gelu, 2e-6);  // A&S 7.1.26's 1.5e-7 on erf, scaled by |x| <= 10
}

// The 16-byte form every x86-64 runs; the wider ones are the same source
// (the op suite's --check computes with them at the host's width).
TEST(VectorMath, ExpAndGeluAreAccurate) { expect_accurate<16>(); }

TEST(VectorMath, ExtremesSaturateInsteadOfWrapping) {
  using V = Vec<16>;
  const V::F x = {-200.0f, 200.0f, 0.0f, -0.0f};
  const V::F e = V::exp(x), g = V::gelu(x);
  EXPECT_LT(e[0], 1e-37f);
  EXPECT_GT(e[1], 1e38f);
  EXPECT_FLOAT_EQ(e[2], 1.0f);
  EXPECT_FLOAT_EQ(g[0], -0.0f);   // GELU(-inf side) = 0
  EXPECT_FLOAT_EQ(g[1], 200.0f);  // GELU(x) = x far right
  EXPECT_FLOAT_EQ(g[2], 0.0f);
}

TEST(VectorMath, TheProbeRunsAWidthThisCpuHas) {
  const host::VectorMathTimes t = host::measure_vector_math(64);
  EXPECT_TRUE(t.vector_bytes == 16 || t.vector_bytes == 32 || t.vector_bytes == 64);
  EXPECT_GT(t.exp_ns, 0.0);
  EXPECT_GT(t.gelu_ns, 0.0);
  EXPECT_EQ(host::measure_vector_math(16).vector_bytes, 16);
}

}  // namespace
}  // namespace ptosim::vm
