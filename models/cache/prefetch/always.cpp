// Dinero IV's `always` (-lN-Tfetch a): every demand read prefetches.
#include "models/cache/prefetch/dinero_fetch.h"

namespace ptosim::prefetch {

PTOSIM_REGISTER(PrefetcherConcept, Always, "always", 1, "Dinero IV -lN-Tfetch a: line + distance on every read",
                make_dinero_fetch<every_read>);

}  // namespace ptosim::prefetch
