// Dinero IV's `miss` (-lN-Tfetch m): a demand read that misses prefetches.
#include "models/cache/prefetch/dinero_fetch.h"

namespace ptosim::prefetch {
namespace {
bool on_miss(const DemandRead& r) { return r.miss; }
const PrefetcherRegistrar reg("miss", make_dinero_fetch<on_miss>);
}  // namespace
}  // namespace ptosim::prefetch
