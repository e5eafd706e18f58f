#pragma once
// The registered names of one open concept (sim/common/registry.h), in
// listing order: the suite derives every choice list from the registry, so
// that a new policy, prefetcher or model is tested without editing a list
// here, and a test never spells a whole list that goes stale.
#include <algorithm>
#include <string>
#include <vector>

#include "sim/common/registry.h"

namespace ptosim::test {

// Every name of `kind`; those registered with `without_trait` left out.
inline std::vector<std::string> registered(const std::string& kind, const std::string& without_trait = "") {
  std::vector<std::string> names;
  for (const Choice& c : ChoiceLists::of(kind))
    if (without_trait.empty() || std::find(c.traits.begin(), c.traits.end(), without_trait) == c.traits.end())
      names.push_back(c.name);
  return names;
}

}  // namespace ptosim::test
