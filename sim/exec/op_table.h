#pragma once
// The compute-op table: the uint16 id carried by Compute::op, the op's name
// (the key of config `op_costs`), its default cost in flops per element and
// the instruction class (core model cpu) it is timed at.
//
// Why one list: the enum and the table used to be two positional lists, so a
// row written in the wrong slot silently gave an op another op's name and
// cost. Each op is now one row of PTOSIM_COMPUTE_OPS below, from which both
// the enum and the table are expanded, so an op's id, name and cost cannot
// part. Ids are stable (reports and traces carry them): append a new op at
// the end of the list, never reorder.
#include <cstdint>
#include <optional>
#include <string>

#include "sim/config/hw_config.h"

namespace ptosim::exec {

// X(Enum, "name", default flops per element, OpClass, base op). Elementwise ops cost
// per output element, reductions and softmax per input element, matmul and
// conv2d per multiply-accumulate (flops = cost * M*N*K). Transcendentals are
// charged as the short polynomial sequences a vector unit would run; gelu =
// erf + 4 ops. Data movement, fills and the loop step cost 0 flops (a loop
// step is the counter and branch core model cpu times). An op with a base
// op (tanh, sigmoid, gelu and softmax on exp) runs the base's sequence and a
// few instructions more: a config that sets only the base's cost (config
// host --measure times exp on its core) moves the op by the same amount.
#define PTOSIM_COMPUTE_OPS(X)                 \
  X(None, "none", 0, Int, None)               \
  X(Add, "add", 1, Add, None)                 \
  X(Subtract, "subtract", 1, Add, None)       \
  X(Multiply, "multiply", 1, Mul, None)       \
  X(Divide, "divide", 4, Div, None)           \
  X(Maximum, "maximum", 1, Add, None)         \
  X(Minimum, "minimum", 1, Add, None)         \
  X(Exp, "exp", 8, Exp, None)                 \
  X(Log, "log", 8, Exp, None)                 \
  X(Sqrt, "sqrt", 4, Sqrt, None)              \
  X(Rsqrt, "rsqrt", 4, Sqrt, None)            \
  X(Tanh, "tanh", 10, Exp, Exp)               \
  X(Sigmoid, "sigmoid", 10, Exp, Exp)         \
  X(Relu, "relu", 1, Add, None)               \
  X(Gelu, "gelu", 20, Exp, Exp)               \
  X(Square, "square", 1, Mul, None)           \
  X(Neg, "neg", 1, Add, None)                 \
  X(Abs, "abs", 1, Add, None)                 \
  X(ReduceSum, "reduce_sum", 1, Add, None)    \
  X(ReduceMean, "reduce_mean", 1, Add, None)  \
  X(ReduceMax, "reduce_max", 1, Add, None)    \
  X(Softmax, "softmax", 12, Exp, Exp)         \
  X(Matmul, "matmul", 2, Fma, None)           \
  X(Conv2d, "conv2d", 2, Fma, None)           \
  X(Im2col, "im2col", 0, Int, None)           \
  X(Copy, "copy", 0, Int, None)               \
  X(Fill, "fill", 0, Int, None)               \
  X(Element, "element", 0, Int, None)         \
  X(Loop, "loop", 0, Int, None)

#define PTOSIM_OP_ENUM(e, name, cost, cls, base) e,
enum class OpKind : uint16_t { PTOSIM_COMPUTE_OPS(PTOSIM_OP_ENUM) Count };
#undef PTOSIM_OP_ENUM

struct OpInfo {
  const char* name;           // "add", "reduce_sum", "matmul", ...
  double flops_per_element;   // default cost
  OpClass cls;                // which instruction timing (core model cpu) it runs at
  OpKind base;                // the op whose sequence it extends (None: its own)
};

const OpInfo& op_info(OpKind op);
std::optional<OpKind> op_from_name(const std::string& name);
// Cost per element, honouring config.op_costs[name] when present, else its
// base op's config cost plus the difference of the two defaults.
double op_cost(const HwConfig& config, OpKind op);

}  // namespace ptosim::exec
