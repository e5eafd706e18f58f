#pragma once
// The CPU lowering of matmul (docs/EXEC.md, "Lowering per target"): what
// compiled vector code issues, not an element-by-element walk. Register
// blocks (register_block.h) over the operands where they live; under
// pto.tile, cached operands are first packed into contiguous panels in the
// tile space, read along their contiguous dimension whatever the view's
// orientation, so a transposed operand costs its bytes, not one access per
// element.
#include "sim/exec/matmul_internal.h"

namespace ptosim::exec::detail {

// The untiled matmul when A, B and C are all in cached spaces (packed as a
// BLAS packs once they outgrow L1, else matmul_block_events).
void matmul_vector_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate);
// Register blocks over A, B and C where they lie, unpacked: also the untiled
// matmul with some operands in scratchpads and some cached (a cached operand
// is read once per block and k step, not once per output element).
void matmul_block_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate);
// pto.tile's matmul, CPU lowering: for m0, n0, k0: pack the A and B tiles
// (cached operands only), register blocks over the tile, C read (k0 > 0 or
// accumulate) and written in place a block at a time.
void matmul_tiled_cpu_events(ExecContext& c, const MatmulPlan& p, const Tensor& out, bool accumulate);

}  // namespace ptosim::exec::detail
