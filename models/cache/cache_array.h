#pragma once
// The tag store of one cache level: which lines are present, which are
// dirty, who filled them. One virtual call per line request; the replacement
// policy is compiled into the implementation (see set_assoc.h).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/trace/event.h"

namespace ptosim {

struct LineOwner {
  TagId tensor = 0;
  TagId region = 0;
};

struct ArrayResult {
  bool hit = false;
  uint64_t slot = 0;         // hit: the line's slot; miss with allocate: the slot reserved for it
  bool evicted = false;      // a valid line was removed to make room
  bool victim_dirty = false;
  uint64_t victim = 0;       // line number (address / line size)
  LineOwner victim_owner;
};

class CacheArray {
 public:
  virtual ~CacheArray() = default;
  // Looks `line` up. Hit: updates the policy, sets dirty if `dirty`. Miss with
  // `allocate`: reserves a way (invalid way first, lowest index; else the
  // policy's victim, which is removed and returned). The caller writes the
  // victim back, fetches the line, then calls install(): so nothing that
  // happens below in between (back-invalidations) can touch the new line.
  virtual ArrayResult access(uint64_t line, bool dirty, bool allocate) = 0;
  virtual void install(uint64_t slot, uint64_t line, bool dirty, LineOwner owner) = 0;
  // Removes `line` if present; returns whether it was present, and its dirty bit.
  virtual bool invalidate(uint64_t line, bool* was_dirty) = 0;
  virtual bool contains(uint64_t line) const = 0;
  // Dirty lines in ascending line order (not cleaned).
  virtual std::vector<uint64_t> dirty_lines() const = 0;
  virtual uint64_t slots() const = 0;  // sets x ways
  // Clears the dirty bit of `line`; false if it is absent or clean.
  virtual bool clean(uint64_t line, LineOwner* owner) = 0;
};

// Builds the array for a replacement policy name (lru fifo random plru srrip).
// Throws std::invalid_argument for an unknown name.
std::unique_ptr<CacheArray> make_cache_array(const std::string& policy, uint64_t sets, uint32_t ways, uint64_t seed);
std::vector<std::string> replacement_policy_names();

}  // namespace ptosim
