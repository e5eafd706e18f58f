// Dinero IV's `always` (-lN-Tfetch a): every demand read prefetches.
#include "models/cache/prefetch/dinero_fetch.h"

namespace ptosim::prefetch {
namespace {
bool every_read(const DemandRead&) { return true; }
const PrefetcherRegistrar reg("always", make_dinero_fetch<every_read>);
}  // namespace
}  // namespace ptosim::prefetch
