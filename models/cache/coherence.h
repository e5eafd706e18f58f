#pragma once
// Coherence among the private cache levels of several cores: a MESI
// directory at the first shared level (docs/CACHES.md, "Several cores").
// It exists only when core.cores > 1 and a level is private; a one-core
// run has none and its levels never look for one (a null pointer).
//
// Each core's last private level sends what it cannot serve to its port
// here (port(c)): a fill asks for the line shared (GetS) or, when the
// demand that missed is a write (MemRequest::rfo), exclusive (GetM); a
// demand write at any private level asks write permission (write()), an
// upgrade S -> M when the core holds the line shared. The directory keeps,
// per line held by any private level, the cores that hold it and whether
// one holds it exclusively (E or M; the level's dirty bit tells M). Taking
// a line exclusive invalidates the other holders' copies in all their
// private levels (a dirty one is written to the shared level: a snoop
// writeback); reading a line another core holds exclusive is an
// intervention (the owner keeps it shared, clean, its dirty bytes written
// below). Either costs the requester `latency` and occupies the
// directory's port with two messages per core reached. A fill that finds
// another core holding the line exclusive (E or M) gets the line from that
// core's private copy (a cache-to-cache transfer: the round trip, then the
// line over the directory's port), not from the shared level.
//
// Exact and deterministic: the counts depend only on the order of the
// requests, as a cache level's do (tests/models/cache/coherence_test.cpp
// checks them against a reference model on random traces).
#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/cache/mem_port.h"
#include "models/memory/recycling_allocator.h"
#include "models/memory/busy_port.h"
#include "sim/common/ids.h"

namespace ptosim {

class CacheLevel;

// One core's coherence counters (the report's coherence.per_core rows).
// The directory's counts, one row each (field, report key): the struct,
// its sum (+=, Coherence::total) and the report (System::report_coherence)
// are written from this one list, so a count added here is summed and
// reported without another edit.
#define PTOSIM_COHERENCE_COUNTS(X)                                                                 \
  X(invalidations_sent, "invalidations_sent")         /* copies of other cores this core's requests invalidated */ \
  X(invalidations_received, "invalidations_received") /* copies of this core invalidated by another's */ \
  X(interventions, "interventions")       /* reads of this core that found another core's exclusive copy */ \
  X(upgrades, "upgrades")                 /* writes to a line this core held shared (S -> M) */ \
  X(snoop_writebacks, "snoop_writebacks") /* dirty copies of this core written below because of another core */ \
  X(cache_to_cache, "cache_to_cache_transfers") /* fills served by another core's private copy, not the shared level */ \
  X(requests, "directory_requests")       /* fills and writes that reached the directory */ \
  X(bytes_below, "bytes_below")           /* bytes this core's private levels moved to and from the shared level */

struct CoherenceCounters {
#define PTOSIM_COHERENCE_FIELD(field, key) uint64_t field = 0;
  PTOSIM_COHERENCE_COUNTS(PTOSIM_COHERENCE_FIELD)
#undef PTOSIM_COHERENCE_FIELD
  uint64_t stall_fs = 0;  // time its requests waited for the directory (port and round trips); reported in cycles

  CoherenceCounters& operator+=(const CoherenceCounters& o) {
#define PTOSIM_COHERENCE_ADD(field, key) field += o.field;
    PTOSIM_COHERENCE_COUNTS(PTOSIM_COHERENCE_ADD)
#undef PTOSIM_COHERENCE_ADD
    stall_fs += o.stall_fs;
    return *this;
  }
};

// A line whose invalidations came from false sharing: the writer and the
// core it invalidated had touched disjoint bytes of it.
struct SharedLine {
  uint64_t line = 0;
  uint64_t false_invalidations = 0;  // the cores' bytes were disjoint
  uint64_t true_invalidations = 0;   // they overlapped
  std::vector<TagId> tensors;        // tensors of the accesses involved (up to 4)
  std::vector<SiteId> sites;         // program sites of the accesses involved (up to 4)
};

// The bytes [addr, addr + bytes) of their line as a 64-bit mask (a bit per
// line / 64 bytes; a 64 B line: a bit per byte).
uint64_t touch_mask(uint64_t addr, uint64_t bytes, uint32_t line_shift);

class Coherence {
 public:
  // line_bytes: the directory's unit, at least every private level's line.
  // latency_fs: a round trip to other cores; fs_per_byte: the directory's port.
  Coherence(uint32_t cores, uint32_t line_bytes, uint64_t latency_fs, uint64_t fs_per_byte, uint32_t message_bytes);
  ~Coherence();
  // Core c's private levels, nearest first (each attached to this).
  void add_level(CoreId c, CacheLevel* level);
  // Where the directory sends fills, writes and snoop writebacks: the first shared level or the DRAM.
  void set_below(MemPort* below) { below_ = below; }
  // --check-data: the private levels keep bytes (their lines are the
  // directory's): snoop writebacks carry the owner's bytes, and a fill
  // served cache to cache gets them (docs/CACHES.md, "Data-integrity mode").
  void keep_data() { line_buf_.assign(line_bytes_, 0); }
  // What core c's last private level sends below.
  MemPort& port(CoreId c);

  // A demand write by core c to [addr, addr + bytes) at a private level
  // that holds its line; returns when the core may write (`at` if it holds
  // the line exclusive).
  uint64_t write(CoreId c, uint64_t addr, uint64_t bytes, TagId tensor, SiteId site, uint64_t at);
  // A private level of core c let the line at `addr` go (evicted): the core
  // stops holding the directory's line when none of its levels holds any of it.
  void left(CoreId c, uint64_t addr);
  // A private level of core c allocated the line at `addr` from a dirty
  // line of its level above (a writeback, no fill): c holds it, modified.
  void kept(CoreId c, uint64_t addr);
  // The bytes [addr, addr + bytes) of the directory's line (touch_mask).
  uint64_t touch_of(uint64_t addr, uint64_t bytes) const { return touch_mask(addr, bytes, line_shift_); }

  uint32_t cores() const { return uint32_t(counters_.size()); }
  const CoherenceCounters& counters(CoreId c) const { return counters_[c]; }
  CoherenceCounters total() const;
  uint64_t busy_fs() const { return port_.busy_total(); }
  uint32_t line_bytes() const { return line_bytes_; }
  // Lines with false-sharing invalidations, most first (ties: lower address), at most n.
  std::vector<SharedLine> false_sharing(size_t n) const;
  // Lines the directory tracks now (tests: it forgets lines no core holds).
  size_t tracked_lines() const { return dir_.size(); }

 private:
  class Port;
  // What a core did to a line it holds: false sharing's evidence.
  struct Touch {
    uint64_t mask = 0;  // the bytes its fills and writes touched since it got the line
    TagId tensor = 0;
    SiteId site = 0;
    CoreId core = 0;
  };
  struct Entry {
    std::vector<Touch, RecyclingAllocator<Touch>> touches;  // per holder that touched it (few: kept beside the entry, no second lookup)
    std::bitset<kMaxCores> holders;
    bool exclusive = false;  // one holder, in E or M
    // When the line's last transfer between cores is over: one owner
    // change at a time (a line ping-pongs no faster than its round trips).
    uint64_t busy_until = 0;
  };
  uint64_t request(CoreId c, const MemRequest& r, uint64_t at);
  // Whether any private level of c holds any of `line` (the directory's
  // line: a private level with smaller lines may hold several of it).
  bool holds(CoreId c, uint64_t line) const;
  // f(level, its line number) for each of c's levels and each of its lines within `line`.
  template <class F>
  void each_copy(CoreId c, uint64_t line, F&& f) const;
  // A round trip for `e`'s line reaching `cores` other cores, from `at`
  // (or when the line's previous one is over); returns when it is back.
  uint64_t round_trip(CoreId c, Entry& e, uint32_t cores, uint64_t at);
  // With data, the bytes are line_buf_ (copy_line of the owner's copy).
  void snoop_writeback(CoreId d, uint64_t line, uint64_t at);
  // The line from a peer's private copy to core c, after the round trip
  // that ended at `at`: the data over the directory's port (with data,
  // line_buf_'s bytes into r.data); returns when it is there.
  uint64_t peer_transfer(CoreId c, const MemRequest& r, uint64_t at);
  // With data: core d's newest bytes of `line` (its nearest level holding
  // it) into line_buf_; false without data or when d holds none of it.
  bool copy_line(CoreId d, uint64_t line);
  // Adds to c's touch of e's line; returns a copy of it.
  static Touch touch(Entry& e, CoreId c, uint64_t mask, TagId tensor, SiteId site);
  // Removes c's touch of e's line (returns it, or an empty one).
  static Touch forget(Entry& e, CoreId c);
  // Invalidates every other holder of `line` (pruning cores that no longer
  // hold it); returns how many cores it reached.
  uint32_t invalidate_others(CoreId c, uint64_t line, Entry& e, const Touch& mine, uint64_t at);
  // Whether a core other than c holds `e`'s line exclusive (its copy can serve a fill).
  bool other_owner(CoreId c, const Entry& e) const { return e.exclusive && one_holder(e) && !e.holders.test(c); }
  // holders.count() == 1 without count(): on a build without -mpopcnt it calls libgcc's popcount once
  // per 64 cores, four calls a request (1 % of an 8-core run); the first two set bits decide it.
  static bool one_holder(const Entry& e) {
    const size_t first = e.holders._Find_first();
    return first < e.holders.size() && e.holders._Find_next(first) == e.holders.size();
  }
  void record_sharing(uint64_t line, bool false_sharing, const Touch& writer, const Touch& victim);

  uint32_t line_bytes_, line_shift_;
  uint64_t latency_fs_;
  uint32_t message_bytes_;
  MemPort* below_ = nullptr;
  std::vector<std::vector<CacheLevel*>> levels_;  // per core, nearest first
  std::vector<std::unique_ptr<Port>> ports_;
  std::vector<CoherenceCounters> counters_;
  // Lines come and go with every private fill and eviction: their nodes are recycled, not malloc'ed.
  std::unordered_map<uint64_t, Entry, std::hash<uint64_t>, std::equal_to<uint64_t>,
                     RecyclingAllocator<std::pair<const uint64_t, Entry>>>
      dir_;
  std::unordered_map<uint64_t, SharedLine> shared_lines_;
  BusyPort port_;
  std::vector<uint8_t> line_buf_;  // --check-data: a line's bytes between copies (empty: no data)
};

}  // namespace ptosim
