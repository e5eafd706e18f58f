#pragma once
// What an NPU config says beyond its memories: which buffer plays which part
// of the DaVinci data path (GM -> L1 -> L0A/L0B -> cube -> L0C -> UB -> GM),
// and how fast the engines that move data between them are. The executor
// lowers pto.tile along that path (docs/EXEC.md, "pto.tile on an NPU") and
// the `npu` core model times each engine (docs/TIMING.md, "The NPU core").
// Kept apart from hw_config.h so the two users include only this.
#include <cstdint>
#include <vector>

#include "sim/common/name_table.h"

namespace ptosim {

// A memory's part in the cube's data path (`memories[].role`).
enum class BufferRole : uint8_t { None, L1, L0A, L0B, L0C, UB };
inline constexpr NameTable<BufferRole, 6> kBufferRoles{{{
    {BufferRole::None, "none", "no part in the cube's data path"},
    {BufferRole::L1, "l1", "the staging buffer tiles come to from global memory (MTE2)"},
    {BufferRole::L0A, "l0a", "the cube's left operand buffer, filled from l1 (MTE1)"},
    {BufferRole::L0B, "l0b", "the cube's right operand buffer, filled from l1 (MTE1)"},
    {BufferRole::L0C, "l0c", "the cube's accumulators, drained by the fixpipe"},
    {BufferRole::UB, "ub", "the vector unit's buffer, written back to global memory (MTE3)"},
}}};

// One data-moving engine: a transfer of n bytes holds it setup + n /
// bandwidth cycles (PyPTO's A2/A3 simulator charges GM<->L1 as 100 +
// size/256 cycles).
struct PipeConfig {
  double bandwidth = 256;  // bytes / cycle
  uint32_t setup = 0;      // cycles per transfer
};

// The engines of an AI core (`core.pipes`), each working through its own
// queue; the `npu` core model overlaps them where the buffers allow.
enum class Pipe : uint8_t { Mte2, Mte1A, Mte1B, Cube, Fixpipe, Vector, Mte3, Count };
inline constexpr NameTable<Pipe, 7> kPipes{{{
    {Pipe::Mte2, "mte2", "global memory to l1 or ub"},
    {Pipe::Mte1A, "mte1_l0a", "l1 to l0a"},
    {Pipe::Mte1B, "mte1_l0b", "l1 to l0b (the same engine as mte1_l0a, at its own rate)"},
    {Pipe::Cube, "cube", "matrix multiply-accumulate, l0a x l0b into l0c (timed by flops_per_cycle)"},
    {Pipe::Fixpipe, "fixpipe", "l0c to ub or global memory"},
    {Pipe::Vector, "vector", "vector work in ub (timed by core.vector_flops_per_cycle)"},
    {Pipe::Mte3, "mte3", "ub to global memory"},
}}};

struct NpuConfig {
  // Defaults: PyPTO's calibration of the L0 tile search (L1->L0A about 200
  // B/cycle, L1->L0B about 132, "not the datasheet 2:1"; an L0C drain of 118
  // B/cycle after a 164-cycle fixed cost) and its A2/A3 simulator's GM<->L1
  // cost (100 + size/256 cycles). docs/CONFIG.md cites them.
  PipeConfig pipes[size_t(Pipe::Count)] = {
      {256, 100},  // mte2
      {200, 0},    // mte1_l0a
      {132, 0},    // mte1_l0b
      {0, 0},      // cube: flops, not bytes
      {118, 164},  // fixpipe
      {0, 0},      // vector: flops, not bytes
      {256, 100},  // mte3
  };
  double vector_flops_per_cycle = 128;  // the vector unit's peak (256 B/cycle of fp16 lanes)
  // Not keys: each space's role (index = SpaceId), resolved by the loader
  // from `spaces` and the memories' roles; empty outside NPU configs.
  std::vector<BufferRole> space_roles;

  const PipeConfig& pipe(Pipe p) const { return pipes[size_t(p)]; }
};

}  // namespace ptosim
