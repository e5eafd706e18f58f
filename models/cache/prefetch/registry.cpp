// The name -> factory table behind PrefetcherRegistrar. `none` is the one
// entry that is not a prefetcher: the level then has none and pays nothing.
#include <map>
#include <stdexcept>

#include "models/cache/prefetch/prefetcher.h"

namespace ptosim {
namespace {

std::map<std::string, PrefetcherFactory>& table() {
  static std::map<std::string, PrefetcherFactory> t;  // built on first use: safe from any static initialiser
  return t;
}

std::unique_ptr<Prefetcher> make_none(const PrefetchConfig&) { return nullptr; }
const PrefetcherRegistrar none("none", make_none);

}  // namespace

PrefetcherRegistrar::PrefetcherRegistrar(const char* name, PrefetcherFactory factory) { table()[name] = factory; }

bool prefetcher_exists(const std::string& name) { return table().count(name) != 0; }

std::vector<std::string> prefetcher_names() {
  std::vector<std::string> names = {"none"};
  for (const auto& [name, f] : table())
    if (name != "none") names.push_back(name);
  return names;
}

std::unique_ptr<Prefetcher> make_prefetcher(const PrefetchConfig& config) {
  auto it = table().find(config.name);
  if (it == table().end()) throw std::invalid_argument("unknown prefetcher '" + config.name + "'");
  return it->second(config);
}

}  // namespace ptosim
