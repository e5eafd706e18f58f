// The compute-op table expanded from op_table.h's one list, and its lookups by id and name.
#include "sim/exec/op_table.h"

#include <cstring>

namespace ptosim::exec {

namespace {
// Expanded from the one list in op_table.h, so row i is OpKind(i) by construction.
#define PTOSIM_OP_ROW(e, name, cost, cls, base) {name, cost, OpClass::cls, OpKind::base},
const OpInfo kOps[] = {PTOSIM_COMPUTE_OPS(PTOSIM_OP_ROW)};
#undef PTOSIM_OP_ROW
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
  const OpInfo& info = op_info(op);
  auto it = config.op_costs.find(info.name);
  if (it != config.op_costs.end()) return it->second;
  if (info.base != OpKind::None) {
    const OpInfo& base = op_info(info.base);
    auto b = config.op_costs.find(base.name);
    if (b != config.op_costs.end()) return b->second + info.flops_per_element - base.flops_per_element;
  }
  return info.flops_per_element;
}

}  // namespace ptosim::exec
