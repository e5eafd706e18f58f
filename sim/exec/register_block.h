#pragma once
// What compiled vector code issues for a contraction (matmul, an implicit-GEMM
// conv2d): a register block of MR x NR accumulators (NR a whole number of
// vectors; both chosen from the config's vector width and register count, as
// BLIS and oneDNN do) is all of the result the register file holds; per k
// step the block takes NR / lanes vector loads of B and MR broadcast loads of
// A, and C is loaded and stored a vector at a time where it lives. Operands
// are address tables, so a packed panel, a strided view or a conv input seen
// as a matrix are read by the same code. docs/EXEC.md, "Lowering per target".
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/exec/emit.h"

namespace ptosim::exec::detail {

// A matrix operand: element (i, j) at base + (offset + tab[0][i] + tab[1][j]) * es;
// run[j] is the length of the unit-stride run of columns starting at j.
// Rows may be clipped to the columns [lo[i], hi[i]) (a conv input's padding:
// the elements outside are zeros no load fetches); empty lo/hi = no clipping.
struct Operand {
  Indexer ix;
  std::vector<int64_t> run;
  std::vector<int64_t> lo, hi;
  SpaceId space = 0;
  TagId tag = 0;
  Tensor t;  // its space decides coalescing (Coalescer)
};
// A 2-D view (transposed: rows are the view's columns).
Operand operand(const Tensor& t2d, bool transposed = false);
// A buffer seen as a matrix with element (i, j) at prow[i] + pcol[j].
Operand packed(const Tensor& buf, std::vector<int64_t> prow, std::vector<int64_t> pcol);
// Recomputes run[] after the column table changed.
void note_runs(Operand& o);

// Register blocking for one element size and a tile's extent.
struct MicroKernel {
  int64_t lanes = 1;  // elements per vector
  int64_t MR = 1;     // rows of the block
  int64_t NR = 1;     // columns of the block: nv vectors
  int64_t nv = 1;
};
int64_t vector_lanes(const ExecContext& c, uint32_t es);
// Vector registers of the config: register space bytes / vector bytes,
// clamped to [8, 32] (every vector ISA has 8 to 32); 16 without a register file.
int64_t vector_registers(const ExecContext& c);
// Outer-product form: nv = min(2, vectors of n); MR = min(m, (registers -
// nv - 1) / nv): MR x nv accumulators, nv B vectors, one broadcast register.
MicroKernel outer_kernel_shape(const ExecContext& c, uint32_t es, int64_t m, int64_t n);

// True when pto.tile lowers to register blocks with the result in place: the
// tile space is cache-backed (a CPU), or the result tile (acc_bytes) does not
// fit the register file (a scratchpad target then keeps only a block there).
bool cpu_tile_lowering(const ExecContext& c, uint64_t acc_bytes);

struct Block {
  int64_t i0, mr, j0, nr, k0, kn;
};
// Blocks over [0, m) x [0, n) of one k range: B panels outer (BLIS's jr
// loop), A panels inner (ir).
template <class F>
void for_blocks(int64_t m, int64_t n, int64_t MR, int64_t NR, int64_t k0, int64_t kn, F&& fn) {
  for (int64_t j = 0; j < n; j += NR)
    for (int64_t i = 0; i < m; i += MR) fn(Block{i, std::min(MR, m - i), j, std::min(NR, n - j), k0, kn});
}

// Row i, columns [j0, j0 + n) (clipped): vector-width loads or stores from
// the segment's start where contiguous, else coalesced elements (a gather).
// False when clipping left nothing to load.
bool segment(ExecContext& c, const Operand& o, int64_t i, int64_t j0, int64_t n, AccessKind kind);
// C rows of a block, read or written.
void c_rows(ExecContext& c, const Operand& C, const Block& b, AccessKind kind);
// Outer-product form: [C loaded]; per k the B row's vectors, then one
// broadcast load of A per row (none where B's row is all padding); one
// Compute of the block's MACs; C stored.
void outer_block(ExecContext& c, const Operand& A, const Operand& B, const Operand& C, const Block& b, bool load_c,
                 OpKind op);
// Dot-product form (B^T rows contiguous along k): per vector of k, one A
// vector per row and one B^T vector per column; horizontal sums in registers.
void dot_block(ExecContext& c, const Operand& A, const Operand& Bt, const Operand& C, const Block& b, bool load_c);
// Copies `view` (2-D) into the packed operand's buffer (elements outside the
// view, up to `elems`, are zero padding; `dst` places the view's elements at
// distinct positions below `elems`, as a panel layout does) and emits what a packing routine
// issues: vector reads along the view's contiguous dimension and the packed
// bytes as consecutive vector stores, interleaved line by line.
void pack(ExecContext& c, const Tensor& view, const Tensor& buf, const Operand& dst, int64_t elems);

}  // namespace ptosim::exec::detail
