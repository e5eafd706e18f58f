#pragma once
// The state a `with` scope keeps while it is open (pto.fuse, pto.reuse,
// pto.auto_reuse): owned by ExecContext, read by the ops that behave
// differently inside the scope.
#include <map>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "sim/exec/exec_context.h"

namespace ptosim::exec {

struct ExecContext::FuseState {
  std::unordered_set<uint64_t> produced;  // alloc serials of results made inside
  std::unordered_set<uint64_t> read;      // outside inputs already read once
  // Alloc serials of results, in production order. Serials, not tensors:
  // holding a temporary here kept it allocated to the end of the block, so
  // the fused LayerNorm had a larger footprint than the unfused one.
  std::vector<uint64_t> results;
};

struct ExecContext::ReuseState {
  std::string tensor, scope;
  SpaceId space = 0;
  bool hint_only = false;
  std::map<std::string, Tensor> resident;  // view key -> resident copy
  size_t result_index = 0;                 // into result().reuse
  uint64_t loads = 0;                      // tiles of the tensor loaded inside, served or not (why 0 hits)
};

struct ExecContext::AutoReuseState {
  SourcePos pos;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // (space<<48 | addr, size) allocated inside
  uint64_t sum_sizes = 0;
};

}  // namespace ptosim::exec
