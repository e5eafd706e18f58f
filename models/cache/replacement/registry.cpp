// Maps a config's `replacement:` name to a tag store compiled with that policy.
// Adding a policy: write its header next to this file and add one line here.
#include <functional>
#include <map>
#include <stdexcept>

#include "models/cache/replacement/fifo.h"
#include "models/cache/replacement/lru.h"
#include "models/cache/replacement/plru.h"
#include "models/cache/replacement/random.h"
#include "models/cache/replacement/srrip.h"
#include "models/cache/set_assoc.h"

namespace ptosim {
namespace {

using Factory = std::function<std::unique_ptr<CacheArray>(uint64_t, uint32_t, uint64_t)>;

template <class P>
Factory factory() {
  return [](uint64_t sets, uint32_t ways, uint64_t seed) { return std::make_unique<SetAssocArray<P>>(sets, ways, seed); };
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

std::unique_ptr<CacheArray> make_cache_array(const std::string& policy, uint64_t sets, uint32_t ways, uint64_t seed) {
  auto it = registry().find(policy);
  if (it == registry().end()) throw std::invalid_argument("unknown replacement policy '" + policy + "'");
  return it->second(sets, ways, seed);
}

std::vector<std::string> replacement_policy_names() {
  std::vector<std::string> names;
  for (auto& [name, f] : registry()) names.push_back(name);
  return names;
}

}  // namespace ptosim
