// Dispatches the vector math timing (vector_math_probe.h) to the width the
// config asks for and the CPU has, interleaving exp and GELU rounds so that a
// neighbour's burst slows both alike.
#include "sim/host/vector_math_probe.h"

#include <algorithm>

#include "sim/host/vector_math_kernels.h"

namespace ptosim::host {

namespace {
int widest_supported(int asked) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (asked >= 64 && __builtin_cpu_supports("avx512f")) return 64;
  if (asked >= 32 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 32;
#endif
  (void)asked;
  return 16;
}
}  // namespace

VectorMathTimes measure_vector_math(int vector_bytes) {
  VectorMathTimes t;
  t.vector_bytes = widest_supported(vector_bytes);
  auto run = [&](bool gelu) {
    switch (t.vector_bytes) {
      case 64: return detail::vector_math_ns_w64(gelu, 5);
      case 32: return detail::vector_math_ns_w32(gelu, 5);
      default: return detail::vector_math_ns_w16(gelu, 5);
    }
  };
  t.exp_ns = t.gelu_ns = 1e30;
  for (int r = 0; r < 7; ++r) {
    t.exp_ns = std::min(t.exp_ns, run(false));
    t.gelu_ns = std::min(t.gelu_ns, run(true));
  }
  return t;
}

}  // namespace ptosim::host
