#include "sim/exec/dtype.h"

#include <cmath>
#include <cstring>

namespace ptosim::exec {

const char* dtype_name(DType t) {
  switch (t) {
    case DType::F32: return "float32";
    case DType::F16: return "float16";
    case DType::BF16: return "bfloat16";
    case DType::I32: return "int32";
    case DType::I8: return "int8";
  }
  return "?";
}

std::optional<DType> dtype_from_name(const std::string& name) {
  std::string n = name.rfind("pto.", 0) == 0 ? name.substr(4) : name;
  if (n == "float32") return DType::F32;
  if (n == "float16") return DType::F16;
  if (n == "bfloat16") return DType::BF16;
  if (n == "int32") return DType::I32;
  if (n == "int8") return DType::I8;
  return std::nullopt;
}

uint32_t dtype_size(DType t) {
  switch (t) {
    case DType::F32: case DType::I32: return 4;
    case DType::F16: case DType::BF16: return 2;
    case DType::I8: return 1;
  }
  return 4;
}

bool dtype_is_float(DType t) { return t == DType::F32 || t == DType::F16 || t == DType::BF16; }

DType promote(DType a, DType b) {
  if (a == b) return a;
  bool fa = dtype_is_float(a), fb = dtype_is_float(b);
  if (fa && !fb) return a;
  if (fb && !fa) return b;
  if (!fa) return DType::I32;  // i32 with i8
  return DType::F32;           // two different floats
}

namespace {

// Round to a binary format with `p` significand bits and minimum normal
// exponent emin, ties to even; beyond max_finite -> inf.
double round_binary(double v, int p, int emin, double max_finite) {
  if (v == 0 || !std::isfinite(v)) return v;
  int ex;
  std::frexp(v, &ex);  // v = m * 2^ex, |m| in [0.5, 1)
  int lead = std::max(ex - 1, emin);
  double quantum = std::ldexp(1.0, lead - (p - 1));
  double r = std::nearbyint(v / quantum) * quantum;  // default mode: to nearest even
  if (std::fabs(r) > max_finite) return std::copysign(INFINITY, v);
  return r;
}

double wrap_int(double v, double modulus) {
  if (!std::isfinite(v)) return 0;
  double m = std::fmod(std::trunc(v), modulus);
  if (m < 0) m += modulus;
  if (m >= modulus / 2) m -= modulus;
  return m;
}

uint16_t half_bits(double v) {  // v already representable as f16
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  double a = std::fabs(v);
  if (std::isnan(v)) return 0x7e00;
  if (std::isinf(a)) return sign | 0x7c00;
  if (a == 0) return sign;
  int ex;
  double m = std::frexp(a, &ex);  // a = m*2^ex
  int e = ex - 1;                 // a = 1.f * 2^e
  if (e < -14) {                  // subnormal: a = frac * 2^-24
    return sign | uint16_t(std::lround(std::ldexp(a, 24)));
  }
  uint16_t frac = uint16_t(std::lround((m * 2 - 1) * 1024));
  return sign | uint16_t((e + 15) << 10) | frac;
}

}  // namespace

double round_to_narrow(DType t, double v) {
  switch (t) {
    case DType::F32: return double(float(v));
    case DType::F16: return round_binary(v, 11, -14, 65504.0);
    case DType::BF16: return round_binary(v, 8, -126, std::ldexp(255.0, 120));
    case DType::I32: return wrap_int(v, 4294967296.0);
    case DType::I8: return wrap_int(v, 256.0);
  }
  return v;
}

void encode(DType t, double v, uint8_t* out) {
  switch (t) {
    case DType::F32: {
      float f = float(v);
      std::memcpy(out, &f, 4);
      return;
    }
    case DType::BF16: {
      float f = float(v);  // exact: bf16 values are floats with 16 low zero bits
      uint32_t u;
      std::memcpy(&u, &f, 4);
      uint16_t h = uint16_t(u >> 16);
      out[0] = uint8_t(h); out[1] = uint8_t(h >> 8);
      return;
    }
    case DType::F16: {
      uint16_t h = half_bits(v);
      out[0] = uint8_t(h); out[1] = uint8_t(h >> 8);
      return;
    }
    case DType::I32: {
      uint32_t u = uint32_t(int32_t(v));
      for (int i = 0; i < 4; ++i) out[i] = uint8_t(u >> (8 * i));
      return;
    }
    case DType::I8: out[0] = uint8_t(int8_t(v)); return;
  }
}

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

std::string shape_str(const Shape& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

}  // namespace ptosim::exec
