#pragma once
// Two doubles as one SSE2 register, for the value loops that add products
// in a fixed order per output (matmul's values, the reference conv): each
// lane is computed as the scalar loop computes it (no fused multiply-add in
// sim/exec), two outputs per instruction.
#include <cstring>

namespace ptosim::exec::detail {

typedef double V2 __attribute__((vector_size(16)));
// memcpy loads and stores: rows need not be 16-byte aligned.
inline V2 ld2(const double* p) {
  V2 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void st2(double* p, V2 v) { std::memcpy(p, &v, sizeof v); }

}  // namespace ptosim::exec::detail
