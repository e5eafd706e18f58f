// Dinero IV's `subblock` (-lN-Tfetch s; d4prefetch_subblock): every demand
// read prefetches the sub-block `prefetch_distance` after its own, wrapping
// around within the read's line instead of going into the next one. Without
// sub-blocks (one per line) that is the read's own line, always present
// after the read: a lookup that hits, as in Dinero IV.
#include "models/cache/prefetch/dinero_fetch.h"

namespace ptosim::prefetch {
namespace {
bool wrap_in_line(uint64_t from, uint64_t* target, uint32_t per_line) {
  if (*target / per_line != from / per_line) *target -= per_line;
  return true;
}
}  // namespace

PTOSIM_REGISTER(PrefetcherConcept, Subblock, "subblock", 5,
                "Dinero IV -lN-Tfetch s: sub-block + distance on every read, wrapping around within the read's line "
                "(without sub-blocks: the read's own line, a hit)",
                (make_dinero_fetch<every_read, wrap_in_line>), traits::kWithinLine);

}  // namespace ptosim::prefetch
