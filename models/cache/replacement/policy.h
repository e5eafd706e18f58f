#pragma once
// The one line a replacement policy's header ends with: it compiles a cache
// level around the policy (the per-line path has no virtual call) and
// registers that level's factory under the config name. The registration is
// an inline variable, so it runs once however many files include the header.
#include <memory>

#include "models/cache/cache_level_impl.h"
#include "sim/common/registry.h"

namespace ptosim {

// `data`: the instantiation that keeps its lines' bytes (--check-data).
using CacheLevelFactory = std::unique_ptr<CacheLevel> (*)(const CacheConfig&, bool data);

// A level with sub-blocks is its own instantiation (the whole-line one has no sub-block test),
// and so is one that keeps data (--check-data); the two do not combine.
template <class Policy>
std::unique_ptr<CacheLevel> make_level_with(const CacheConfig& c, bool data) {
  if (c.has_subblocks()) {
    if (data)
      throw InputError(c.pos, "subblock",
                       "cache " + c.name + ": --check-data does not model sub-blocks (drop subblock: or --check-data)");
    return std::make_unique<CacheLevelImpl<Policy, false, true>>(c);
  }
  if (data) return std::make_unique<CacheLevelImpl<Policy, true>>(c);
  return std::make_unique<CacheLevelImpl<Policy>>(c);
}

}  // namespace ptosim

// rank orders the choices in listings and errors (the default, lru, is 0).
#define PTOSIM_REPLACEMENT_POLICY(Type, name, rank, description)                        \
  namespace ptosim::replacement {                                                      \
  inline const bool Type##_registered = ::ptosim::Registry<::ptosim::CacheLevelFactory>:: \
      instance().add(::ptosim::concepts::kReplacement, {name, description, rank},      \
                     &::ptosim::make_level_with<Type>);                                \
  }
