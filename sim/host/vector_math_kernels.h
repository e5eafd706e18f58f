#pragma once
// The timed loops behind measure_vector_math, one instantiation per vector
// width. Each width lives in its own translation unit (vector_math_w16/32/64
// .cpp) compiled with that ISA's -m flags, so that the binary runs on any
// x86-64 and the dispatcher calls a width only on a CPU that has it.
#include <algorithm>
#include <chrono>
#include <cstddef>

#include "sim/host/vector_math.h"

namespace ptosim::host::detail {

// ns per element of exp (gelu false) or GELU over 1024 floats (4 KiB, in L1),
// the best of `rounds` runs of 64 passes.
template <int Bytes>
double vector_math_ns(bool gelu, int rounds) {
  using V = vm::Vec<Bytes, Bytes>;  // a type of this unit alone (vector_math.h says why)
  constexpr size_t kLanes = Bytes / 4, kVectors = 1024 / kLanes;
  alignas(64) static typename V::F in[kVectors], out[kVectors];
  for (size_t i = 0; i < kVectors; ++i)
    for (size_t l = 0; l < kLanes; ++l) in[i][l] = float((i * kLanes + l) % 97) / 24.0f - 2.0f;
  double best = 1e30;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int pass = 0; pass < 64; ++pass) {
      if (gelu)
        for (size_t i = 0; i < kVectors; ++i) out[i] = V::gelu(in[i]);
      else
        for (size_t i = 0; i < kVectors; ++i) out[i] = V::exp(in[i]);
      asm volatile("" : : "r"(out) : "memory");
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, s / (64.0 * 1024.0));
  }
  return best * 1e9;
}

double vector_math_ns_w16(bool gelu, int rounds);
double vector_math_ns_w32(bool gelu, int rounds);
double vector_math_ns_w64(bool gelu, int rounds);

}  // namespace ptosim::host::detail
