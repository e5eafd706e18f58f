#pragma once
// The CPU lowering of conv2d (docs/EXEC.md, "Lowering per target"): an
// implicit GEMM per output row, [F, C*KH*KW] x [C*KH*KW, OW], in register
// blocks (register_block.h) — MR filters x NR output columns of
// accumulators, per (c, kh, kw) one broadcast weight per filter and the
// input row's vectors, shifted by kw — as a compiled direct convolution
// vectorised along the output width issues. Padding costs no load.
#include <cstdint>

#include "sim/exec/emit.h"

namespace ptosim::exec::detail {

struct ConvShape {
  int64_t N, C, H, W, F, KH, KW, OH, OW, s, p;
};

// The input's width axis maps linearly to addresses (not a blocked layout):
// its rows can be read as vectors.
bool conv_vector_ok(const Tensor& in);
// Untiled conv2d with input, weight and output in cached spaces.
void conv_vector_events(ExecContext& c, const ConvShape& g, const Tensor& in, const Tensor& w, const Tensor& out);
// pto.tile's conv2d on a CPU: for n0, f0, h0, w0: for c0: the input tile
// with its halo loaded into the tile space (tile_load: pto.reuse applies),
// the weight tile packed, register blocks; the output updated in place.
void conv_tiled_cpu_events(ExecContext& c, const ConvShape& g, const Tensor& in, const Tensor& w, const Tensor& out);

}  // namespace ptosim::exec::detail
