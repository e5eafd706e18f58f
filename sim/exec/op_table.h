#pragma once
// The compute-op table: the uint16 id carried by Compute::op, the op's name
// (the key of config `op_costs`) and its default cost in flops per element.
// Ids are stable: append new ops before Count, never reorder.
#include <cstdint>
#include <optional>
#include <string>

#include "sim/config/hw_config.h"

namespace ptosim::exec {

enum class OpKind : uint16_t {
  None = 0,
  // elementwise (cost per output element)
  Add, Subtract, Multiply, Divide, Maximum, Minimum,
  Exp, Log, Sqrt, Rsqrt, Tanh, Sigmoid, Relu, Gelu, Square, Neg, Abs,
  // reductions (cost per input element)
  ReduceSum, ReduceMean, ReduceMax,
  Softmax,      // per element of x
  Matmul,       // per multiply-accumulate (so flops = cost * M*N*K; default 2)
  Conv2d,       // per multiply-accumulate
  Im2col,       // data movement: 0
  Copy,         // load / copy / store / layout_transform / reshape copy: 0
  Fill,         // zeros / ones / full: 0 (writes only)
  Element,      // scalar element read/write: 0
  Loop,         // one iteration of a program's loop (core model cpu: its counter and branch): 0
  Count
};

struct OpInfo {
  const char* name;           // "add", "reduce_sum", "matmul", ...
  double flops_per_element;   // default cost
  OpClass cls;                // which instruction timing (core model cpu) it runs at
};

const OpInfo& op_info(OpKind op);
std::optional<OpKind> op_from_name(const std::string& name);
// Cost per element, honouring config.op_costs[name] when present.
double op_cost(const HwConfig& config, OpKind op);

}  // namespace ptosim::exec
