#pragma once
// Element types. Values live in host memory as double, already rounded to
// the dtype's precision (see round_to); addresses use the dtype's real size.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ptosim::exec {

// Every executor error. Ops do not know source positions: the interpreter
// catches OpError and rethrows InputError with file:line:col.
class OpError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class DType : uint8_t { F32 = 0, F16, BF16, I32, I8 };

const char* dtype_name(DType t);                       // "float32", "float16", ...
std::optional<DType> dtype_from_name(const std::string& name);  // accepts "float32" or "pto.float32"
uint32_t dtype_size(DType t);                          // bytes: 4 2 2 4 1
bool dtype_is_float(DType t);
// NumPy-like promotion of two tensor dtypes: float beats int, f32 beats
// f16/bf16, f16+bf16 -> f32, i32 beats i8.
DType promote(DType a, DType b);

// The value a store of v into a dtype keeps:
//  f32: nearest float; f16 / bf16: round-to-nearest-even (overflow -> inf);
//  i32 / i8: NaN -> 0, else truncate toward zero, then wrap modulo 2^32 / 2^8
//  into the signed range (two's complement, as a C cast from int64 would).
// float32, nearly every store, is inline: the value loops call it per element.
double round_to_narrow(DType t, double v);  // every dtype but f32
inline double round_to(DType t, double v) { return t == DType::F32 ? double(float(v)) : round_to_narrow(t, v); }
// The stored bytes of v (little endian, dtype size), for checksums.
void encode(DType t, double v, uint8_t* out);

using Shape = std::vector<int64_t>;
int64_t numel(const Shape& s);
std::string shape_str(const Shape& s);  // "[64, 32]"

}  // namespace ptosim::exec
