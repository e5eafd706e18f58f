#pragma once
// What a cache level asks of a prefetcher, and the registry that maps a
// config's `prefetcher:` name to one. A prefetcher only proposes lines: the
// level looks each one up, fetches the ones it lacks from below like a fill
// (an MSHR, the port below, never counted as demand) and keeps the
// statistics (docs/CACHES.md, "Prefetchers").
//
// Each prefetcher lives in its own file and registers itself by name
// (PTOSIM_REGISTER(PrefetcherConcept, ...), sim/common/registry.h); the config loader validates
// `prefetcher:` against the same list (docs/ARCHITECTURE.md, "Add a
// prefetcher").
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/common/registry.h"
#include "sim/config/hw_config.h"

namespace ptosim {

// The most lines one demand read may ask for (prefetch_degree's maximum).
constexpr uint32_t kMaxPrefetchDegree = PrefetchConfig::kMaxDegree;

// A demand read seen by the level's prefetcher.
struct DemandRead {
  uint64_t line;   // line number at this level
  bool miss;       // it missed (at a level with sub-blocks: missed a sub-block it touches)
  bool first_use;  // it hit a line (sub-blocks) that a prefetch brought in, unused by demand until now
  // The number of its (first) sub-block at a level with sub-blocks
  // (address / sub-block size); its line number without.
  uint64_t subblock;
};

class Prefetcher {
 public:
  virtual ~Prefetcher() = default;
  // Proposes lines to prefetch after demand read `r` (the level has
  // already served it); writes them to out[0..] (room for
  // kMaxPrefetchDegree) in the order to fetch them; returns how many.
  virtual uint32_t on_read(const DemandRead& r, uint64_t* out) = 0;
  // Whether on_read() proposes sub-block numbers (Dinero IV's policies,
  // which fetch one sub-block) rather than lines (fetched whole). The same
  // without sub-blocks.
  virtual bool proposes_subblocks() const { return false; }
  // Whether a demand read of `line` (at a level without sub-blocks) would
  // change nothing and propose nothing now, so that the level need not
  // ask: a non-virtual test on every hit, where the call costs ~50
  // instructions (the stride prefetcher's repeat of its last line: a
  // packed panel's broadcasts read one line 16 times in a row).
  bool ignores(uint64_t line) const { return line == ignored_line_; }

 protected:
  // The line ignores() answers for (none: no line is this large).
  static constexpr uint64_t kIgnoresNothing = ~0ull;
  uint64_t ignored_line_ = kIgnoresNothing;
};

using PrefetcherFactory = std::unique_ptr<Prefetcher> (*)(const PrefetchConfig& config);

// The concept's tag for PTOSIM_REGISTER (sim/common/registry.h).
struct PrefetcherConcept {
  using Factory = PrefetcherFactory;
  static constexpr const char* kKind = concepts::kPrefetcher;
};

// The entry of a stream table to replace: the one used least recently
// (entries carry a `used` stamp, 0 = empty).
template <class Entry>
Entry& least_recently_used(std::vector<Entry>& table) {
  Entry* victim = &table[0];
  for (Entry& e : table)
    if (e.used < victim->used) victim = &e;
  return *victim;
}

// The factory of a prefetcher built from its config alone.
template <class T>
std::unique_ptr<Prefetcher> make_from_config(const PrefetchConfig& config) {
  return std::make_unique<T>(config);
}

// nullptr for `none`; an InputError at `pos` (the cache's config position)
// for a name that is not registered.
std::unique_ptr<Prefetcher> make_prefetcher(const PrefetchConfig& config, const SourcePos& pos = {});

}  // namespace ptosim
