// Dinero IV's `load_forward` (-lN-Tfetch l; d4prefetch_loadforw): every
// demand read prefetches the sub-block `prefetch_distance` after its own,
// unless that lies in the next line: it loads the rest of a line forward,
// never into another. Without sub-blocks (one per line) it never
// prefetches, as in Dinero IV.
#include "models/cache/prefetch/dinero_fetch.h"

namespace ptosim::prefetch {
namespace {
bool same_line(uint64_t from, uint64_t* target, uint32_t per_line) { return *target / per_line == from / per_line; }
}  // namespace

PTOSIM_REGISTER(PrefetcherConcept, LoadForward, "load_forward", 4,
                "Dinero IV -lN-Tfetch l: sub-block + distance on every read, within the read's line only "
                "(never, without sub-blocks)",
                (make_dinero_fetch<every_read, same_line>), traits::kWithinLine);

}  // namespace ptosim::prefetch
