#pragma once
// What a cache level asks of a prefetcher, and the registry that maps a
// config's `prefetcher:` name to one. A prefetcher only proposes lines: the
// level looks each one up, fetches the ones it lacks from below like a fill
// (an MSHR, the port below, never counted as demand) and keeps the
// statistics (docs/CACHES.md, "Prefetchers").
//
// Each prefetcher lives in its own file and registers itself by name
// (PrefetcherRegistrar); this library is linked whole, so a registration
// cannot be dropped by the linker. The config loader asks the registry
// whether a name exists and for the list of names in its error.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/config/hw_config.h"

namespace ptosim {

// The most lines one demand read may ask for (prefetch_degree's maximum).
constexpr uint32_t kMaxPrefetchDegree = 64;

// A demand read seen by the level's prefetcher.
struct DemandRead {
  uint64_t line;    // line number at this level
  bool miss;        // it missed
  bool first_use;   // it hit a line that a prefetch brought in, unused by demand until now
};

class Prefetcher {
 public:
  virtual ~Prefetcher() = default;
  // Proposes lines to prefetch after demand read `r` (the level has
  // already served it); writes them to out[0..] (room for
  // kMaxPrefetchDegree) in the order to fetch them; returns how many.
  virtual uint32_t on_read(const DemandRead& r, uint64_t* out) = 0;
};

using PrefetcherFactory = std::unique_ptr<Prefetcher> (*)(const PrefetchConfig& config);

// Registers a prefetcher under `name` at static initialisation.
struct PrefetcherRegistrar {
  PrefetcherRegistrar(const char* name, PrefetcherFactory factory);
};

// nullptr for `none`; throws std::invalid_argument for a name not registered.
std::unique_ptr<Prefetcher> make_prefetcher(const PrefetchConfig& config);
bool prefetcher_exists(const std::string& name);
// Every registered name, `none` first, then alphabetical.
std::vector<std::string> prefetcher_names();

}  // namespace ptosim
