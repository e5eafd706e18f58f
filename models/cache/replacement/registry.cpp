// The replacement policies compiled into this build: one include each (a
// policy's header registers itself in its last line). Adding a policy:
// write its header next to this file (the contract: policy.h), end it with
// its PTOSIM_REGISTER line, and include it here (docs/ARCHITECTURE.md, "Add a replacement policy").
#include "models/cache/replacement/fifo.h"
#include "models/cache/replacement/lru.h"
#include "models/cache/replacement/plru.h"
#include "models/cache/replacement/random.h"
#include "models/cache/replacement/srrip.h"

#include <cstdlib>

namespace ptosim {

namespace {

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

}  // namespace

std::unique_ptr<CacheLevel> make_cache_level(const CacheConfig& config, bool data) {
  std::unique_ptr<CacheLevel> level =
      Registry<CacheLevelFactory>::instance().at(config.replacement, config.pos, "replacement")(config, data);
  if (data) level->set_fault(test_fault(config.name));
  return level;
}

}  // namespace ptosim
