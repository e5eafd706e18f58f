// Maps a config's `replacement:` name to a cache level compiled with that
// policy. Adding a policy: write its header next to this file and add one
// line here.
#include <functional>
#include <map>
#include <stdexcept>

#include "models/cache/cache_level_impl.h"
#include "models/cache/replacement/fifo.h"
#include "models/cache/replacement/lru.h"
#include "models/cache/replacement/plru.h"
#include "models/cache/replacement/random.h"
#include "models/cache/replacement/srrip.h"

namespace ptosim {
namespace {

using Factory = std::function<std::unique_ptr<CacheLevel>(const CacheConfig&)>;

template <class P>
Factory factory() {
  return [](const CacheConfig& c) { return std::make_unique<CacheLevelImpl<P>>(c); };
}

const std::map<std::string, Factory>& registry() {
  static const std::map<std::string, Factory> r = {
      {"lru", factory<replacement::Lru>()},       {"fifo", factory<replacement::Fifo>()},
      {"random", factory<replacement::Random>()}, {"plru", factory<replacement::Plru>()},
      {"srrip", factory<replacement::Srrip>()},
  };
  return r;
}

}  // namespace

std::unique_ptr<CacheLevel> make_cache_level(const CacheConfig& config) {
  auto it = registry().find(config.replacement);
  if (it == registry().end()) throw std::invalid_argument("unknown replacement policy '" + config.replacement + "'");
  return it->second(config);
}

}  // namespace ptosim
