#pragma once
// What a replacement policy is, in one place: the contract every policy
// header of this folder meets, the check that makes the compiler hold it
// to that contract, and how a cache level is built around one. A policy's
// header ends with this include and its PTOSIM_REGISTER line
// (docs/ARCHITECTURE.md, "Add a replacement policy").
//
// Contract:
//   Policy(uint64_t sets, uint32_t ways, uint64_t seed)
//       one per level; `seed` is the config's (a random policy repeats).
//   void on_hit(uint64_t set, uint32_t way)    a demand hit on a valid way.
//   void on_fill(uint64_t set, uint32_t way)   a line installed in the way
//       (after victim() when the set was full, else in its first free way).
//   uint32_t victim(uint64_t set)              the way to evict (it may age
//       or draw: random, srrip); asked only when every way of the set holds
//       a line, and never for one way.
//   static constexpr bool kRepeatHitIsNoop     a second hit on the way hit
//       last changes nothing (the tag store then skips on_hit for runs).
//   static constexpr bool kKnowsMru            the policy can say the most
//       recent way: uint32_t mru(uint64_t set) const (ways or more when it
//       does not know), which the tag store looks at first.
// Optional:
//   template <class F> void oldest_first(uint64_t set, F&& f) const
//       every way from the next victim on (flushes and the 3C mirror).
//   static constexpr bool kShadowInFillOrder   the 3C shadow keeps fill
//       order (Dinero IV: the shadow uses the level's own policy); LRU else.
//   static constexpr bool kVictimIsShadowOldest  a full set's victim is the
//       shadow's oldest: a fully associative level is its own 3C shadow.
// Every policy also has a twin in the reference model
// (tests/models/cache/reference_cache.h), which the differential tests compare.
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "models/cache/cache_level_impl.h"
#include "sim/common/registry.h"

namespace ptosim {

// `data`: the instantiation that keeps its lines' bytes (--check-data).
using CacheLevelFactory = std::unique_ptr<CacheLevel> (*)(const CacheConfig&, bool data);

// The concept's tag for PTOSIM_REGISTER (sim/common/registry.h).
struct ReplacementConcept {
  using Factory = CacheLevelFactory;
  static constexpr const char* kKind = concepts::kReplacement;
};

namespace replacement {

template <class P, class = void>
struct HasHitFillVictim : std::false_type {};
template <class P>
struct HasHitFillVictim<P, std::void_t<decltype(std::declval<P&>().on_hit(uint64_t(0), uint32_t(0))),
                                       decltype(std::declval<P&>().on_fill(uint64_t(0), uint32_t(0))),
                                       decltype(uint32_t(std::declval<P&>().victim(uint64_t(0))))>>
    : std::true_type {};
template <class P, class = void>
struct HasFlags : std::false_type {};
template <class P>
struct HasFlags<P, std::void_t<decltype(bool(P::kRepeatHitIsNoop)), decltype(bool(P::kKnowsMru))>> : std::true_type {};
template <class P, class = void>
struct HasMru : std::false_type {};
template <class P>
struct HasMru<P, std::void_t<decltype(uint32_t(std::declval<const P&>().mru(uint64_t(0))))>> : std::true_type {};

// The contract above, checked where a level is built around the policy:
// a policy that misses a part fails to compile with the part named.
template <class P>
constexpr bool check_policy() {
  static_assert(std::is_constructible_v<P, uint64_t, uint32_t, uint64_t>,
                "a replacement policy is built from (sets, ways, seed)");
  static_assert(HasHitFillVictim<P>::value,
                "a replacement policy has on_hit(set, way), on_fill(set, way) and victim(set)");
  static_assert(HasFlags<P>::value, "a replacement policy says kRepeatHitIsNoop and kKnowsMru");
  if constexpr (HasFlags<P>::value) static_assert(!P::kKnowsMru || HasMru<P>::value, "kKnowsMru needs mru(set) const");
  return true;
}

}  // namespace replacement

// The instantiations of a level around one policy: with sub-blocks (the
// whole-line one has no sub-block test), keeping data (--check-data), or
// neither; the two do not combine.
template <class Policy>
std::unique_ptr<CacheLevel> make_level_with(const CacheConfig& c, bool data) {
  static_assert(replacement::check_policy<Policy>());
  if (c.has_subblocks()) {
    if (data)
      throw InputError(c.pos, "subblock",
                       "cache " + c.name + ": --check-data does not model sub-blocks (drop subblock: or --check-data)");
    return std::make_unique<SubblockedLevel<Policy>>(c);
  }
  if (data) return std::make_unique<DataKeepingLevel<Policy>>(c);
  return std::make_unique<CacheLevelImpl<Policy>>(c);
}

}  // namespace ptosim
