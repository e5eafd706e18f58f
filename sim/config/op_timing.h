#pragma once
// Instruction timing for the `cpu` core model: the classes of arithmetic a
// core executes (an FP add, a multiply, an FMA, a divide, a square root, a
// transcendental sequence, an integer/loop op), each with a latency and a
// throughput, per element type. The table is config (core.op_timing) with
// defaults of a current x86 core; shipped CPU configs give their own.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace ptosim {

enum class OpClass : uint8_t { Add = 0, Mul, Fma, Div, Sqrt, Exp, Int, Count };
// The element types a class may be timed for (exec::DType's order and names).
constexpr size_t kTimedDtypes = 5;
const char* timed_dtype_name(size_t i);  // "float32", "float16", "bfloat16", "int32", "int8"

struct OpTiming {
  double latency = 4;     // cycles from operands ready to result ready
  double throughput = 1;  // instructions of this class started per cycle
};

const char* op_class_name(OpClass c);
std::optional<OpClass> op_class_from_name(const std::string& name);

// [class][dtype]
struct OpTimingTable {
  std::array<std::array<OpTiming, kTimedDtypes>, size_t(OpClass::Count)> t;
  OpTimingTable();  // the defaults (docs/CONFIG.md)
  const OpTiming& at(OpClass c, size_t dtype) const { return t[size_t(c)][dtype < kTimedDtypes ? dtype : 0]; }
  OpTiming& at(OpClass c, size_t dtype) { return t[size_t(c)][dtype < kTimedDtypes ? dtype : 0]; }
  bool operator==(const OpTimingTable& o) const;
};

}  // namespace ptosim
