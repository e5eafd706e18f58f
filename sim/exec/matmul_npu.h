#pragma once
// pto.tile of a matmul on an NPU (a config whose memories play the roles
// l0a, l0b and l0c: sim/config/npu_config.h): the tiles travel the DaVinci
// data path, GM -> L1 -> L0A/L0B -> cube -> L0C -> UB -> GM, in buffers
// double-buffered where two fit, so that the `npu` core model can overlap
// its engines as a kernel with ping-pong buffers does (docs/EXEC.md,
// "pto.tile on an NPU").
#include "sim/exec/matmul_internal.h"

namespace ptosim::exec::detail {

// Whether the config has a cube: memories with the roles l0a, l0b and l0c.
bool npu_cube(const ExecContext& c);

void matmul_tiled_npu_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate);

}  // namespace ptosim::exec::detail
