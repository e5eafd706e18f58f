#include "sim/exec/op_table.h"

#include <cstring>

namespace ptosim::exec {

namespace {
// Default flops per element. Transcendentals are charged as the short
// polynomial sequences a vector unit would run; gelu = erf + 4 ops.
constexpr OpClass A = OpClass::Add, M = OpClass::Mul, F = OpClass::Fma, D = OpClass::Div, S = OpClass::Sqrt,
                  E = OpClass::Exp, I = OpClass::Int;
const OpInfo kOps[] = {
    {"none", 0, I},
    {"add", 1, A}, {"subtract", 1, A}, {"multiply", 1, M}, {"divide", 4, D}, {"maximum", 1, A}, {"minimum", 1, A},
    {"exp", 8, E}, {"log", 8, E}, {"sqrt", 4, S}, {"rsqrt", 4, S}, {"tanh", 10, E}, {"sigmoid", 10, E},
    {"relu", 1, A}, {"gelu", 20, E}, {"square", 1, M}, {"neg", 1, A}, {"abs", 1, A},
    {"reduce_sum", 1, A}, {"reduce_mean", 1, A}, {"reduce_max", 1, A},
    {"softmax", 12, E},
    {"matmul", 2, F}, {"conv2d", 2, F},
    {"im2col", 0, I}, {"copy", 0, I}, {"fill", 0, I}, {"element", 0, I},
    {"loop", 0, I},
};
static_assert(sizeof(kOps) / sizeof(kOps[0]) == size_t(OpKind::Count), "op table out of sync");
}  // namespace

const OpInfo& op_info(OpKind op) {
  size_t i = size_t(op);
  return kOps[i < size_t(OpKind::Count) ? i : 0];
}

std::optional<OpKind> op_from_name(const std::string& name) {
  for (size_t i = 1; i < size_t(OpKind::Count); ++i)
    if (name == kOps[i].name) return OpKind(i);
  return std::nullopt;
}

double op_cost(const HwConfig& config, OpKind op) {
  auto it = config.op_costs.find(op_info(op).name);
  return it != config.op_costs.end() ? it->second : op_info(op).flops_per_element;
}

}  // namespace ptosim::exec
