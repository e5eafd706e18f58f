// Maps a config's `replacement:` name to a cache level compiled with that
// policy. Adding a policy: write its header next to this file and add one
// line here.
#include <cstdlib>
#include <functional>
#include <map>
#include <stdexcept>

#include "models/cache/cache_level_impl.h"
#include "models/cache/replacement/fifo.h"
#include "models/cache/replacement/lru.h"
#include "models/cache/replacement/plru.h"
#include "models/cache/replacement/random.h"
#include "models/cache/replacement/srrip.h"
#include "sim/common/error.h"

namespace ptosim {
namespace {

using Factory = std::function<std::unique_ptr<CacheLevel>(const CacheConfig&, bool data)>;

template <class P>
Factory factory() {
  return [](const CacheConfig& c, bool data) -> std::unique_ptr<CacheLevel> {
    if (data) return std::make_unique<CacheLevelImpl<P, true>>(c);
    return std::make_unique<CacheLevelImpl<P>>(c);
  };
}

// PTOSIM_TEST_CACHE_FAULT=KIND[@LEVEL] (test-only, see CacheLevel::Fault).
CacheLevel::Fault test_fault(const std::string& level) {
  const char* env = std::getenv("PTOSIM_TEST_CACHE_FAULT");
  if (!env || !*env) return CacheLevel::Fault::None;
  const std::string v = env;
  const size_t at = v.find('@');
  const std::string kind = v.substr(0, at);
  CacheLevel::Fault f;
  if (kind == "drop-writeback") f = CacheLevel::Fault::DropWriteback;
  else if (kind == "stale-fill") f = CacheLevel::Fault::StaleFill;
  else
    throw InputError("PTOSIM_TEST_CACHE_FAULT: unknown fault '" + kind +
                     "' (test-only: drop-writeback or stale-fill, optionally @LEVEL)");
  return at == std::string::npos || v.substr(at + 1) == level ? f : CacheLevel::Fault::None;
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

std::unique_ptr<CacheLevel> make_cache_level(const CacheConfig& config, bool data) {
  auto it = registry().find(config.replacement);
  if (it == registry().end()) throw std::invalid_argument("unknown replacement policy '" + config.replacement + "'");
  std::unique_ptr<CacheLevel> level = it->second(config, data);
  if (data) level->set_fault(test_fault(config.name));
  return level;
}

}  // namespace ptosim
