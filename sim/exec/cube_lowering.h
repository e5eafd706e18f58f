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

// The tile of a conv2d on the cube: N images, F filters, H x W output
// pixels, C input channels per step.
struct ConvTiles {
  int64_t N, F, H, W, C;
};
// conv2d as the cube runs it: per output tile and channel block, the input
// tile with its halo and the weight tile into `l1`, the input unfolded
// (img2col) into l0a and the weights into l0b, the cube into l0c.
// `directive`: the tiles are pto.tile's (a buffer that does not fit is the
// user's to shrink) rather than conv2d's own choice.
void conv_npu_events(ExecContext& c, const ConvShape& g, const ConvTiles& t, SpaceId l1, const Tensor& in,
                     const Tensor& w, const Tensor& out, bool directive);
// The tiles pto.tile's N, F, H, W, C name (missing = whole), and its `into`.
ConvTiles conv_directive_tiles(const ExecContext& c, const ConvShape& g);
// An untiled conv2d on the cube: the tile a compiler would pick, the
// largest whose buffers fit twice (ping-pong; else once) in what is free of
// l0a, l0b, l0c (and of l1 and ub for the operands staged there) — whole
// filters and output rows first, then as many channels per step as fit.
ConvTiles conv_npu_tiles(const ExecContext& c, const ConvShape& g, SpaceId l1, const Tensor& in, const Tensor& w,
                         const Tensor& out);
// Where an untiled conv2d stages its operands: the l1 buffer (the config's
// memory in that role, else `shared`).
SpaceId npu_l1(const ExecContext& c);

}  // namespace ptosim::exec::detail
