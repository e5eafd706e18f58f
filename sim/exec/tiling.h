#pragma once
// Tile lowering (tiling.cpp, tiled_reductions.cpp): the tiles of a shape and
// the tiled schedules of elementwise ops, reductions and softmax under pto.tile.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/exec/emit.h"

namespace ptosim::exec::detail {

// Tile lowering (tiling.cpp): the slice [a, a + n) of one axis.
inline IndexItem range(int64_t a, int64_t n) { return IndexItem::slice(a, a + n); }
// The tile of `shape` at t0 (edge tiles are smaller): its view into the whole
// tensor and the matching corner of a tile-sized buffer; returns its elements.
int64_t tile_at(const Shape& shape, const Shape& tile, const std::vector<int64_t>& t0, std::vector<IndexItem>* view,
                std::vector<IndexItem>* local);

// Tile a tensor view through pto.reuse if it applies: returns the tensor the
// computation should read (a resident tile, or `buffer` after a normal load).
// `buffer` is a scratch view of the same shape in the tile space.
Tensor tile_load(ExecContext& c, const Tensor& view, const Tensor& buffer);

// The hint appended to a matmul tile buffer that does not fit: the largest
// square tile (halving M = N, K kept) whose A and B buffers fit `room` bytes
// of the tile space, or another space. `need(t)` is what the lowering
// allocates for a t x t tile (packed panels round rows up to the
// micro-kernel's MR and NR: a hint sized without them named a tile that then
// failed too).
std::string what_fits(const ExecContext& c, uint64_t room, int64_t TM, int64_t TN, int64_t TK,
                      const std::function<uint64_t(int64_t)>& need);

// True when the innermost pto.tile names dim_* sizes: elementwise ops,
// reductions and softmax then use their tiled schedules (outside pto.fuse).
bool dim_tiling(const ExecContext& c);

// Elementwise / reduction / softmax lowering under pto.tile (events only;
// values are computed by the untiled kernel so they are identical).
// On a CPU (cpu_tile_lowering) a tile is only loop blocking: `in_place`
// (the untiled element-mode events) runs on each tile's views, no buffer.
using ElementwiseEvents = void (*)(ExecContext&, OpKind, const std::vector<Tensor>&, const Tensor&);
void tiled_elementwise_events(ExecContext& c, OpKind op, const std::vector<Tensor>& inputs, const Tensor& out,
                              ElementwiseEvents in_place);
void tiled_reduce_events(ExecContext& c, OpKind op, const Tensor& x, std::optional<int> axis, bool keepdims,
                         const Tensor& out);
void tiled_softmax_events(ExecContext& c, const Tensor& x, int axis, const Tensor& out);

}  // namespace ptosim::exec::detail
