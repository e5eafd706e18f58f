#pragma once
// Where a level sends what it cannot serve: the next cache level, a DRAM
// model, or a SystemC socket adapter. One request = one contiguous range.
//
// Time travels with the request as integer femtoseconds: `at` is when it
// arrives, the result when its data is there. Writes below a cache are
// posted (the sender does not wait for the result). Callers that only count
// (tests, CacheHierarchy) pass 0 and ignore the result.
//
// With --check-data the requests also carry bytes (`data`: a read fills it
// in, a write takes it; null otherwise, and levels built without a data
// store never look at it), and poke() is the host writing memory outside
// the timing model (a tensor's initial values): every copy of those bytes,
// at every level and in the memory below, takes them, and nothing is
// counted. See docs/CACHES.md, "Data-integrity mode".
#include <cstdint>

#include "sim/trace/event.h"

namespace ptosim {

struct MemRequest {
  uint64_t addr = 0;
  uint64_t bytes = 0;
  bool write = false;
  TagId tensor = 0;
  TagId region = 0;
  uint8_t* data = nullptr;  // --check-data only (see above)
  // A dirty line leaving the level above (an eviction or a copyback), not a
  // demand: counted apart so that a level's demand miss ratio leaves it out.
  bool writeback = false;
  // Several cores (coherence.h), set only where a level has a directory
  // below: a fill for a write (read for ownership), the demand's program
  // site, and the bytes of the line the demand touched (touch_mask).
  bool rfo = false;
  SiteId site = 0;
  uint64_t touch = 0;
};

class MemPort {
 public:
  virtual ~MemPort() = default;
  virtual uint64_t access(const MemRequest& r, uint64_t at) = 0;
  // A Copyback or Invalidate record (see AccessKind), passed on level by
  // level after this one has done its part. Memory holds no lines: by
  // default nothing happens.
  virtual void control(AccessKind kind, uint64_t addr, uint64_t bytes, uint64_t at) {
    (void)kind, (void)addr, (void)bytes, (void)at;
  }
  void request(const MemRequest& r) { access(r, 0); }
  // Functional warming (run --sample, docs/SAMPLING.md): the request
  // changes what the levels hold (tags, replacement order, dirty bits, the
  // 3C shadow) as access() would, but takes no time, counts nothing and
  // trains no prefetcher. Memory holds no lines: by default nothing happens.
  virtual void warm(const MemRequest& r) { (void)r; }
  virtual void poke(uint64_t addr, uint64_t bytes, const uint8_t* data) { (void)addr, (void)bytes, (void)data; }
};

}  // namespace ptosim
