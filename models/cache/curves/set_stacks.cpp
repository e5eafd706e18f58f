// Per-set LRU stacks of one set count (see set_stacks.h).
#include "models/cache/curves/set_stacks.h"

namespace ptosim::curves {

SetStacks::SetStacks(uint64_t sets, uint32_t depth)
    : sets_(sets), depth_(depth), pow2_((sets & (sets - 1)) == 0), keys_(sets * depth, 0) {}

void SetStacks::clear() { keys_.assign(keys_.size(), 0); }

}  // namespace ptosim::curves
