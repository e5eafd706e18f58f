// The 16-byte (SSE2 (every x86-64)) instantiation of the vector math timing loop, in a unit
// of its own because CMake compiles it with that ISA's flags
// (vector_math_kernels.h says why).
#include <algorithm>

#include "sim/host/vector_math_kernels.h"

namespace ptosim::host::detail {

double vector_math_ns_w16(bool gelu, int rounds) { return vector_math_ns<16>(gelu, rounds); }

}  // namespace ptosim::host::detail
