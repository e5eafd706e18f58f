#include "sim/exec/op_table.h"

#include <cstring>

namespace ptosim::exec {

namespace {
// Default flops per element. Transcendentals are charged as the short
// polynomial sequences a vector unit would run; gelu = erf + 4 ops.
const OpInfo kOps[] = {
    {"none", 0},
    {"add", 1}, {"subtract", 1}, {"multiply", 1}, {"divide", 4}, {"maximum", 1}, {"minimum", 1},
    {"exp", 8}, {"log", 8}, {"sqrt", 4}, {"rsqrt", 4}, {"tanh", 10}, {"sigmoid", 10},
    {"relu", 1}, {"gelu", 20}, {"square", 1}, {"neg", 1}, {"abs", 1},
    {"reduce_sum", 1}, {"reduce_mean", 1}, {"reduce_max", 1},
    {"softmax", 12},
    {"matmul", 2}, {"conv2d", 2},
    {"im2col", 0}, {"copy", 0}, {"fill", 0}, {"element", 0},
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
