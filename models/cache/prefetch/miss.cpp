// Dinero IV's `miss` (-lN-Tfetch m): a demand read that misses prefetches.
#include "models/cache/prefetch/dinero_fetch.h"

namespace ptosim::prefetch {
namespace {
bool on_miss(const DemandRead& r) { return r.miss; }
}  // namespace

PTOSIM_REGISTER(PrefetcherConcept, Miss, "miss", 2, "Dinero IV -lN-Tfetch m: line + distance on a read miss", make_dinero_fetch<on_miss>);

}  // namespace ptosim::prefetch
