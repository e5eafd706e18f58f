// The replacement policies compiled into this build: one include each (a
// policy's header registers itself in its last line). Adding a policy:
// write its header next to this file, end it with PTOSIM_REPLACEMENT_POLICY,
// and include it here (docs/ARCHITECTURE.md, "Add a replacement policy").
#include "models/cache/replacement/fifo.h"
#include "models/cache/replacement/lru.h"
#include "models/cache/replacement/plru.h"
#include "models/cache/replacement/random.h"
#include "models/cache/replacement/srrip.h"

namespace ptosim {

std::unique_ptr<CacheLevel> make_cache_level(const CacheConfig& config) {
  return Registry<CacheLevelFactory>::instance().at(config.replacement, config.pos, "replacement")(config);
}

}  // namespace ptosim
