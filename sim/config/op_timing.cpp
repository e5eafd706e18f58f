#include "sim/config/op_timing.h"

namespace ptosim {

namespace {
const char* const kClassNames[] = {"add", "mul", "fma", "div", "sqrt", "exp", "int"};
const char* const kDtypeNames[] = {"float32", "float16", "bfloat16", "int32", "int8"};
static_assert(sizeof(kClassNames) / sizeof(kClassNames[0]) == size_t(OpClass::Count), "class names out of sync");
}  // namespace

const char* timed_dtype_name(size_t i) { return i < kTimedDtypes ? kDtypeNames[i] : "float32"; }
const char* op_class_name(OpClass c) { return kClassNames[size_t(c) < size_t(OpClass::Count) ? size_t(c) : 0]; }

std::optional<OpClass> op_class_from_name(const std::string& name) {
  for (size_t i = 0; i < size_t(OpClass::Count); ++i)
    if (name == kClassNames[i]) return OpClass(i);
  return std::nullopt;
}

// Defaults: a current x86 core (Skylake / Zen 2-3 class, Agner Fog's
// instruction tables and the vendors' optimisation manuals): FP add, mul
// and FMA 4 cycles on two pipes; divide and square root partly pipelined;
// `exp` is the ~15-instruction polynomial sequence a libm or vector math
// library runs (its latency is the chain's). Half-precision types are timed
// as float32 (converted on load on these cores); integers add in 1 cycle.
OpTimingTable::OpTimingTable() {
  auto all = [&](OpClass c, OpTiming v) {
    for (auto& d : t[size_t(c)]) d = v;
  };
  all(OpClass::Add, {4, 2});
  all(OpClass::Mul, {4, 2});
  all(OpClass::Fma, {4, 2});
  all(OpClass::Div, {11, 0.2});
  all(OpClass::Sqrt, {12, 0.25});
  all(OpClass::Exp, {40, 0.125});
  all(OpClass::Int, {1, 4});
  for (size_t d : {size_t(3), size_t(4)}) {  // int32, int8: integer ALU add, imul
    t[size_t(OpClass::Add)][d] = {1, 4};
    t[size_t(OpClass::Mul)][d] = {3, 1};
    t[size_t(OpClass::Fma)][d] = {4, 1};
    t[size_t(OpClass::Div)][d] = {26, 0.05};
  }
}

bool OpTimingTable::operator==(const OpTimingTable& o) const {
  for (size_t c = 0; c < t.size(); ++c)
    for (size_t d = 0; d < kTimedDtypes; ++d)
      if (t[c][d].latency != o.t[c][d].latency || t[c][d].throughput != o.t[c][d].throughput) return false;
  return true;
}

}  // namespace ptosim
