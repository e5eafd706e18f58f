// Dinero IV's `tagged` (-lN-Tfetch t; Smith, "Cache Memories", 1982): a
// demand read prefetches when it misses or is the first demand reference to
// a line that a prefetch brought in (Dinero's per-block "referenced" bit).
#include "models/cache/prefetch/dinero_fetch.h"

namespace ptosim::prefetch {
namespace {
bool miss_or_first_use(const DemandRead& r) { return r.miss || r.first_use; }
}  // namespace

PTOSIM_REGISTER(PrefetcherConcept, Tagged, "tagged", 3,
                "Dinero IV -lN-Tfetch t: line + distance on a miss or first use of a prefetched line",
                make_dinero_fetch<miss_or_first_use>);

}  // namespace ptosim::prefetch
