// The 32-byte (AVX2 + FMA) instantiation of the vector math timing loop, in a unit
// of its own because CMake compiles it with that ISA's flags
// (vector_math_kernels.h says why).
#include <algorithm>

#include "sim/host/vector_math_kernels.h"

namespace ptosim::host::detail {

double vector_math_ns_w32(bool gelu, int rounds) { return vector_math_ns<32>(gelu, rounds); }

}  // namespace ptosim::host::detail
