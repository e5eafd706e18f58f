// `none`, the default: the level has no prefetcher and pays one pointer test
// per request. Also the one place that turns a config into a prefetcher.
#include "models/cache/prefetch/prefetcher.h"

namespace ptosim {
namespace {
std::unique_ptr<Prefetcher> make_none(const PrefetchConfig&) { return nullptr; }
}  // namespace

std::unique_ptr<Prefetcher> make_prefetcher(const PrefetchConfig& config, const SourcePos& pos) {
  return Registry<PrefetcherFactory>::instance().at(config.name, pos, "prefetcher")(config);
}

PTOSIM_REGISTER(PrefetcherConcept, None, "none", 0, "no prefetching (Dinero IV -lN-Tfetch d)", make_none,
                traits::kNoProposals);

}  // namespace ptosim
