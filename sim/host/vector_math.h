#pragma once
// exp and GELU as a vector math library runs them (Cephes expf: 2^n * p(r),
// |r| <= ln2/2, ~1 ulp; GELU's erf by Abramowitz & Stegun 7.1.26, |error| <
// 1.5e-7), written once on GCC vector types of any width.
//
// Why one copy: pto-sim charges a transcendental op the time this host's
// vector unit takes to run such a sequence, measured by `config host
// --measure` (vector_math_probe.h), and the op-level fidelity suite's native
// twins (bench/fidelity/ops/ops.cpp) compute their exp and GELU with the same
// sequence. Were they two pieces of code, the calibration would time one
// kernel and the suite another.
//
// Only adds, multiplies (contracted to FMAs under -ffp-contract=fast), one
// divide, compares and integer bit operations: rounding is the 1.5 * 2^23
// trick, so no ISA-specific intrinsic is needed and each translation unit
// compiles it for the width its -m flags give.
#include <cstdint>

namespace ptosim::vm {

// Isa: a tag that keeps each translation unit's instantiation its own type.
// The probe's units compile Vec<32, 32> with -mavx2 and Vec<64, 64> with
// -mavx512f; were they the plain Vec<32> another unit also instantiates
// without those flags, the linker (LTO above all) could keep either body,
// running AVX-512 code on a CPU without it or timing the generic one.
template <int Bytes, int Isa = 0>
struct Vec {
  typedef float F __attribute__((vector_size(Bytes)));
  typedef int32_t I __attribute__((vector_size(Bytes)));

  static F splat(float x) { return F{} + x; }

  static F exp(F x) {
    x = x < splat(-87.3f) ? splat(-87.3f) : x;
    x = x > splat(88.7f) ? splat(88.7f) : x;
    const float magic = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer held in the low mantissa bits
    const F t = x * 1.44269504f + magic;
    const F n = t - magic;
    const F r = x - n * 0.693359375f + n * 2.12194440e-4f;
    F p = splat(1.9875691500e-4f);
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    const I scale = (((I)t - 0x4B400000) + 127) << 23;  // 2^n from t's integer bits
    return p * (F)scale;
  }

  // 0.5 x (1 + erf(x / sqrt 2)), the form pto.gelu computes.
  static F gelu(F x) {
    const F z = x * 0.70710678f;
    const F az = (F)((I)z & 0x7fffffff);
    const F t = 1.0f / (az * 0.3275911f + 1.0f);
    F q = t * 1.061405429f - 1.453152027f;
    q = q * t + 1.421413741f;
    q = q * t - 0.284496736f;
    q = q * t + 0.254829592f;
    const F e = 1.0f - q * t * exp(-(az * az));  // erf(|z|) >= 0: the sign is z's
    const F erf = (F)((I)e | ((I)z & (int32_t)0x80000000));
    return 0.5f * x * (1.0f + erf);
  }
};

}  // namespace ptosim::vm
