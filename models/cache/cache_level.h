#pragma once
// The exact logic of one cache level, in time, free of SystemC: splits
// requests into lines, looks them up, applies the write policy, sends fills,
// write-throughs and writebacks to the level below (in that order, as Dinero
// IV and a writeback buffer do), back-invalidates the
// levels above when it is inclusive, and counts everything (with 3C
// classification of misses).
//
// Time (integer femtoseconds, see mem_port.h): a request waits for the port
// ("busy until"), pays the hit latency, and a miss adds the time of its fill
// from below. MSHRs: a request for a line whose fill is still on its way
// waits for that fill (a merge: nothing goes below twice), and a miss that
// finds every MSHR busy waits for the earliest to free. Writebacks and
// write-throughs are posted. A level without set_timing() takes no time.
//
// This is the interface; cache_level_impl.h implements it once per
// replacement policy (so the per-line path is compiled with the policy
// inlined), and make_cache_level() picks the implementation by name. A level
// made for --check-data (`data`) is a second instantiation that keeps the
// bytes of its lines and moves them with its fills, writebacks and
// write-throughs; the normal one has no data path at all.
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "sim/report/level_stats.h"
#include "models/cache/mem_port.h"
#include "models/memory/busy_calendar.h"
#include "models/cache/prefetch/prefetcher.h"
#include "models/core/core_clock.h"
#include "sim/config/hw_config.h"

namespace ptosim {

struct LevelTimingStats {
  uint64_t busy_fs = 0;         // port occupancy
  uint64_t latency_sum_fs = 0;  // over requests: completion - arrival
  uint64_t requests = 0;
  uint64_t merges = 0;          // hits on a line whose fill was still on its way
  uint64_t mshr_stalls = 0;     // misses that waited for a free MSHR
  uint64_t set_fill_stalls = 0; // fills that arrived later for their set's previous one (set_fill_cycles)
};

// What a level's prefetcher did (docs/CACHES.md, "Prefetchers"). A
// prefetched line ends as exactly one of useful (a demand hit it), useless
// (evicted or invalidated unused) or still resident unused at the end.
class Coherence;

struct PrefetchStats {
  uint64_t requests = 0;  // lines proposed and looked up (Dinero IV's "prefetch fetches")
  uint64_t issued = 0;    // of them missing, so fetched from below (Dinero's "prefetch misses")
  uint64_t useful = 0;    // prefetched lines hit by a demand request before leaving
  uint64_t late = 0;      // of the useful: the demand came while the fill was on its way
  uint64_t useless = 0;   // prefetched lines evicted or invalidated without a demand hit
  uint64_t bytes = 0;     // fetched from below for prefetches
};

class CacheLevel : public MemPort {
 public:
  ~CacheLevel() override = default;

  void connect_below(MemPort* below) { below_ = below; }
  // Levels above this one (nearest first); an inclusive level invalidates their copies.
  void set_levels_above(std::vector<CacheLevel*> above) { above_ = std::move(above); }
  // Hit latency and port time per byte, in femtoseconds.
  // set_fill_fs: the spacing of fills into one set (0: none);
  // set_writeback_fs: what a dirty victim adds to it.
  void set_timing(uint64_t latency_fs, double fs_per_byte, uint64_t set_fill_fs = 0, uint64_t set_writeback_fs = 0) {
    set_fill_fs_ = set_fill_fs;
    set_writeback_fs_ = set_writeback_fs;
    set_filled_.assign(set_fill_fs ? sets_ : 0, 0);
    latency_fs_ = latency_fs;
    fs_per_byte_ = fs_per_byte;
    busy_bytes_ = ~0ull;
  }

  // access() (from MemPort) serves a read or write of any size.
  // The core's entry: a request within one line, issued at *t by a core
  // whose misses in flight are `window`. A hit never waits for the window;
  // anything else (a miss, a write-through write) first waits for a free
  // slot if the window is full (moving *t, counted in `stalls`), and holds
  // one until its data is there if it takes longer than a hit. Returns when
  // the data is there.
  virtual uint64_t issue(const MemRequest& r, uint64_t* t, CompletionWindow& window, WindowStalls& stalls) = 0;
  // issue() of a read (no write-back) of the line the level's last issue()
  // found on a one-core level, when that hit left nothing a repeat of it
  // would change (no replacement, 3C or prefetcher update: a register
  // block's broadcasts of one packed line): the port, the counts and the
  // fill's merge, without the lookup. False, and nothing done, otherwise.
  bool issue_again(uint64_t addr, uint64_t bytes, TagId tensor, TagId region, uint64_t at, uint64_t* done) {
    if (addr >> line_shift_ != again_line_) return false;
    const uint64_t issue = occupy_port<true>(at, bytes, addr) + latency_fs_;
    stats_.count(false, true, bytes ? bytes : 1, tensor, region);
    uint64_t d = issue;
    if (again_ready_ > issue) {  // its fill is still on its way: merge
      ++timing_.merges;
      d = again_ready_;
    }
    timing_.latency_sum_fs += d - at;
    ++timing_.requests;
    *done = d;
    return true;
  }
  // Issues accesses a[0..n) for the core, as the core would one by one,
  // while they are in `space`, are the clock's core's, fit in one line of
  // this level and are due before clock.sync_at; returns how many it issued
  // (the core takes the next one itself).
  virtual size_t run(const Access* a, size_t n, SpaceId space, CoreClock& clock) = 0;
  // Functional warming (MemPort::warm, run --sample) of accesses a[0..n),
  // as warm() of each in turn, in one call: while they are in `space` and
  // no control record, until `budget` line requests of this level are
  // warmed (the access that reaches it included). Returns how many it
  // warmed and adds their line requests (the sample schedule's weight) to
  // *lines. Between units this is every access's path, so it is one loop
  // here rather than a virtual call and a route lookup per access.
  virtual size_t warm_run(const Access* a, size_t n, SpaceId space, uint64_t budget, uint64_t* lines) = 0;
  // Writes every dirty line below at time `at`, counted as writebacks, in
  // Dinero IV's order (see SetAssocArray::dirty_lines). Only this level:
  // control(Copyback, ..., 0) flushes it and then the levels below.
  virtual void flush_at(uint64_t at) = 0;
  // control() (from MemPort): a Copyback or Invalidate record at this level,
  // then passed below.
  void flush() { flush_at(0); }
  virtual bool contains(uint64_t addr) const = 0;
  // The line numbers (address >> log2 line) of the dirty lines here now: what
  // a flush would write back (the report's dirty_bytes_at_end).
  virtual std::vector<uint64_t> dirty_lines() const = 0;
  virtual uint64_t dirty_count() const = 0;  // dirty_lines().size(), kept as the run goes
  virtual std::vector<uint64_t> dirty_lines_unordered() const = 0;  // dirty_lines() in no order: cheaper
  // The fills of addr's set by loads and prefetches (not stores) so far,
  // counted from the first call on (the cpu core's store_request: rfo asks:
  // what evicts a waiting store's line natively is the loads running ahead).
  uint64_t read_fills(uint64_t addr) {
    if (read_fills_.empty()) read_fills_.assign(sets_, 0);
    return read_fills_[(addr >> line_shift_) % sets_];
  }
  // Several cores on a shared level: a core whose clock lags reaches a port
  // that a core far ahead already took, so each port (each slice's) keeps
  // its recent busy intervals and serves the late request in a free gap of
  // its own time (busy_calendar.h). Not with one core: its requests arrive
  // in time order, where the calendar would give the same starts slower.
  // Likewise a line whose fill a core far ahead asked for: a request from
  // before that (in time) waits as long as the fill took, not until it ends.
  void keep_port_calendar() {
    calendars_.resize(slice_busy_.empty() ? 1 : slice_busy_.size());
    fill_from_.assign(sets_ * config_.ways, 0);
  }
  // Several cores: this level is core `core`'s private instance, kept
  // coherent by `c` (coherence.h): its demand writes ask c for write
  // permission, its fills say whether they are for a write, and its
  // evictions tell c when the core lets a line go.
  void attach_coherence(Coherence* c, CoreId core) {
    coherence_ = c;
    core_ = core;
  }
  // The directory's actions on this level's copy of `line`: remove it
  // (true if it was here; *was_dirty whether it was dirty), counted as a
  // coherence invalidation, the next miss on it a coherence miss; or keep
  // it clean (true if it was dirty).
  virtual bool coherence_invalidate(uint64_t line, bool* was_dirty) = 0;
  virtual bool coherence_clean(uint64_t line) = 0;
  // With data: the bytes [addr, addr + bytes) of the lines held here take
  // `in` (this level only; poke() also passes them below). An
  // intervention gives the owner's every copy its newest bytes, so that a
  // stale copy further from the core cannot serve a later miss.
  virtual void overwrite(uint64_t addr, uint64_t bytes, const uint8_t* in) = 0;
  // Whether this level keeps the bytes of its lines (--check-data).
  virtual bool keeps_data() const = 0;
  // With data: the byte at `addr` if its line is here (tests check that the
  // nearest level holding a byte holds its newest value).
  virtual bool peek(uint64_t addr, uint8_t* out) const = 0;

  // A fault that only tests switch on (PTOSIM_TEST_CACHE_FAULT), so that
  // they can show --check-data catches a cache that loses data:
  // DropWriteback: a dirty line leaves without its bytes reaching below;
  // StaleFill: a fill keeps what the way held before instead of the bytes
  // fetched. Counts and timing stay those of a correct cache.
  enum class Fault : uint8_t { None, DropWriteback, StaleFill };
  void set_fault(Fault f) { fault_ = f; }

  const CacheConfig& config() const { return config_; }
  // The slice that serves `line` (a line number) on a sliced level: the
  // line number's bits XOR-folded 8 at a time, modulo the slice count
  // (docs/CACHES.md, "Slices"). Timing only: no count depends on it.
  uint32_t slice_of(uint64_t line) const {
    const uint64_t x = line ^ (line >> 8) ^ (line >> 16) ^ (line >> 24) ^ (line >> 32);
    return uint32_t(x % slice_busy_.size());
  }
  const LevelStats& stats() const { return stats_; }
  // Compulsory misses of requests from above that are no write-back (the
  // first demand for each line), counted alike by the detailed path and by
  // functional warming (MemPort::warm): a sampled run knows their total over
  // the whole stream exactly and samples only the rest (docs/SAMPLING.md,
  // "First touches are counted, not sampled").
  uint64_t demand_compulsory() const { return demand_compulsory_; }
  const LevelTimingStats& timing_stats() const { return timing_; }
  bool has_prefetcher() const { return prefetcher_ != nullptr; }
  const PrefetchStats& prefetch_stats() const { return prefetch_; }

 protected:
  explicit CacheLevel(const CacheConfig& config);
  // Removes `line` if present (true); when it was dirty and `dirty_data` is
  // not null, a level that keeps data copies the line's bytes there.
  virtual bool invalidate_line(uint64_t line, bool* was_dirty, uint8_t* dirty_data) = 0;
  // Invalidates the copies above of this level's `line`; true if one was
  // dirty. `victim` (null without data) holds the line's bytes here and
  // takes the bytes of the dirty copies above, which are newer.
  bool invalidate_above(uint64_t line, uint8_t* victim = nullptr);

  // Takes the port for `bytes` from `arrive` on; returns when the request
  // starts. A sliced level (`slices:`) has one port per slice, the slice
  // chosen by the line of `addr` (slice_of).
  // `Plain`: the caller knows this level has one port and no calendar
  // (plain(): the one-core first level), so neither is tested.
  template <bool Plain = false>
  uint64_t occupy_port(uint64_t arrive, uint64_t bytes, uint64_t addr) {
    if (bytes != busy_bytes_) {  // sizes repeat: keep the last answer
      busy_bytes_ = bytes;
      busy_fs_ = uint64_t(double(bytes) * fs_per_byte_);
    }
    timing_.busy_fs += busy_fs_;
    if (!Plain && !calendars_.empty()) [[unlikely]] return occupy_calendar(arrive, addr);
    uint64_t& busy_until = Plain || slice_busy_.empty() ? busy_until_ : slice_busy_[slice_of(addr >> line_shift_)];
    const uint64_t start = arrive > busy_until ? arrive : busy_until;
    busy_until = start + busy_fs_;
    return start;
  }
  // One port, no calendar, no directory: what a one-core run's levels are,
  // whose hot loop (CacheLevelImpl::run) is then compiled without the
  // several-cores tests (docs/PERFORMANCE.md, "Several cores").
  bool plain() const { return calendars_.empty() && slice_busy_.empty() && !coherence_; }
  // occupy_port() with keep_port_calendar(), out of line: the one-core
  // path inlined into the core's loop stays as small as it was.
  uint64_t occupy_calendar(uint64_t arrive, uint64_t addr);
  // keep_port_calendar(): the fill of `slot` asked for at `from`.
  void fill_asked(uint64_t slot, uint64_t from) {
    if (!fill_from_.empty()) [[unlikely]] fill_from_[slot] = from;
  }
  // When a request at `issue` has the data of `slot`, whose fill is here at
  // `ready` (> issue): then, a merge; or, on a shared level of several
  // cores where the fill was asked for after `issue`, as long after `issue`
  // as the fill took (the request came first: it would have fetched it).
  uint64_t merged(uint64_t slot, uint64_t issue, uint64_t ready) const {
    if (fill_from_.empty() || fill_from_[slot] <= issue) return ready;
    return issue + (ready - fill_from_[slot]);
  }
  // A fill holds an MSHR while it is on its way; returns when it is here.
  // With set_fill_cycles, a set takes one fill every that many cycles: a
  // fill arrives no sooner than that after the set's previous one (measured
  // on AMD Zen 4's L1D: independent loads that all fall into one set, a
  // column walk at a 4 KiB stride, complete one every 11 cycles whether the
  // lines come from L2 or beyond; docs/CACHES.md, "Fills per set").
  uint64_t fill_below(const MemRequest& r, uint64_t at) {
    if (mshrs_.full()) {
      if (mshrs_.earliest() > at) {
        at = mshrs_.earliest();
        ++timing_.mshr_stalls;
      }
      mshrs_.pop();
    }
    uint64_t done = below_->access(r, at);
    if (!set_filled_.empty()) [[unlikely]] {
      uint64_t& last = set_filled_[(r.addr >> line_shift_) % sets_];
      if (last && last + set_fill_fs_ > done) {
        done = last + set_fill_fs_;
        ++timing_.set_fill_stalls;
      }
      last = done;
    }
    mshrs_.push(done);
    return done;
  }
  // A dirty victim leaving set_filled_'s set takes a spacing of its own
  // (set_writeback_cycles): the next fill of that set arrives that much
  // later. Measured on the Zen 4 L1D with the column walk at one set:
  // 14.5-16.3 cycles a store (a fill and a dirty victim a row) against
  // 10.2-11.7 a load: 4-7 more, not a whole fill (docs/CACHES.md).
  void writeback_leaves_set(uint64_t line, uint64_t at) {
    uint64_t& last = set_filled_[line % sets_];
    last = (last > at ? last : at) + set_writeback_fs_;
  }
  void post_below(uint64_t addr, uint64_t bytes, TagId tensor, TagId region, uint64_t at, bool writeback,
                  const uint8_t* data) {
    below_->access(MemRequest{addr, bytes, true, tensor, region, const_cast<uint8_t*>(data), writeback}, at);
  }

  CacheConfig config_;
  uint32_t line_shift_;
  MemPort* below_ = nullptr;
  std::vector<CacheLevel*> above_;
  LevelStats stats_;
  uint64_t demand_compulsory_ = 0;
  LevelTimingStats timing_;
  std::unique_ptr<Prefetcher> prefetcher_;  // null for `prefetcher: none`
  PrefetchStats prefetch_;
  uint64_t max_line_;                       // the highest line number an address can have
  uint32_t page_shift_;                     // line number >> this = its prefetch page (prefetch_page)
  uint64_t latency_fs_ = 0;
  double fs_per_byte_ = 0;
  uint64_t busy_until_ = 0;
  std::vector<uint64_t> slice_busy_;  // a sliced level: each slice's "busy until"; empty: one port (busy_until_)
  std::vector<BusyCalendar> calendars_;  // keep_port_calendar(): per port, its busy intervals; empty: busy until
  std::vector<uint64_t> fill_from_;       // keep_port_calendar(): per slot, when its latest fill was asked for
  uint64_t busy_bytes_ = ~0ull, busy_fs_ = 0;  // occupy_port()'s last answer (none yet)
  // issue_again()'s line (~0: none) and when its fill arrives; every other
  // way into the level forgets it first.
  uint64_t again_line_ = ~0ull, again_ready_ = 0;
  CompletionWindow mshrs_;
  uint64_t sets_ = 1;
  uint64_t set_fill_fs_ = 0, set_writeback_fs_ = 0;
  std::vector<uint64_t> set_filled_;  // per set: when its latest fill arrives; empty = no spacing
  std::vector<uint64_t> read_fills_;  // per set: loads' and prefetches' fills; empty = not asked for
  Fault fault_ = Fault::None;
  Coherence* coherence_ = nullptr;  // several cores, a private level: its directory
  CoreId core_ = 0;
  std::unordered_set<uint64_t> coherence_lost_;  // lines invalidated by another core, not missed since
  // --check-data: the bytes of a line on its way, which a lower level's
  // back-invalidation must see (CacheLevel::invalidate_above): a dirty
  // victim in this level's writeback buffer between leaving its way and
  // being written below (CacheLevelImpl::leave), and the fill this level
  // waits for (CacheLevelImpl::fill).
  struct InFlight {
    uint8_t* bytes = nullptr;  // null: none
    uint64_t addr = 0;
  };
  InFlight pending_, filling_;
  std::vector<uint8_t> up_line_;  // invalidate_above(): a dirty line from a level with larger lines
};

// Throws std::invalid_argument for an unknown replacement policy. `data`:
// the instantiation that keeps its lines' bytes (--check-data); it takes the
// test-only fault named by PTOSIM_TEST_CACHE_FAULT ("drop-writeback" or
// "stale-fill", optionally "@LEVEL" for one level only; InputError if
// unknown).
std::unique_ptr<CacheLevel> make_cache_level(const CacheConfig& config, bool data = false);

}  // namespace ptosim
