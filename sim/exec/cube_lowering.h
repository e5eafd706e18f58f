#pragma once
// pto.tile of a matmul or a conv2d on an NPU (a config whose memories play the roles
// l0a, l0b and l0c: sim/config/npu_config.h): the tiles travel the DaVinci
// data path, GM -> L1 -> L0A/L0B -> cube -> L0C -> UB -> GM, in buffers
// double-buffered where two fit, so that the `npu` core model can overlap
// its engines as a kernel with ping-pong buffers does (docs/EXEC.md,
// "pto.tile on an NPU").
#include "sim/exec/conv_vector.h"
#include "sim/exec/matmul_internal.h"

namespace ptosim::exec::detail {

// Whether the config has a cube: memories with the roles l0a, l0b and l0c.
bool npu_cube(const ExecContext& c);

void matmul_tiled_npu_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate);
// conv2d as the cube runs it: per output tile and channel block, the input
// tile with its halo and the weight tile into l1, the input unfolded
// (img2col) into l0a and the weights into l0b, the cube into l0c.
void conv_tiled_npu_events(ExecContext& c, const ConvShape& g, const Tensor& in, const Tensor& w, const Tensor& out);

}  // namespace ptosim::exec::detail
