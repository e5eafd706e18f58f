#pragma once
// Where the misses come from and when: per source line, per epoch of time
// (or of accesses) and as a trace-event timeline. The core tells it where a
// run of events of one (line, region, core) begins and ends; it reads every
// level's counters there and keeps the differences. So the per-access path of
// the levels is untouched — the cost is per run of events, and nothing at all
// when no attribution is asked for (the core then holds no Attribution).
//
// Exactness: the hierarchy answers each request synchronously (L1 -> L2 ->
// DRAM are calls), so everything a level counts between begin() and end() —
// misses, fills, writebacks, DRAM bytes — is caused by that run's events.
// Cycles are the issuing core's issue time spent in the run (its window
// stalls and compute included; misses still in flight at its end are
// counted where the core waits for them).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/report/level_report.h"
#include "sim/report/level_stats.h"
#include "models/dram/dram_timing.h"
#include "sim/report/stats.h"
#include "sim/trace/event.h"

namespace ptosim {

struct AttributionOptions {
  bool by_line = false;         // per source line
  uint64_t epoch_cycles = 0;    // epochs of this many core cycles (0 = none)
  uint64_t epoch_accesses = 0;  // or of this many core accesses (0 = none)
  bool timeline = false;        // trace-event slices and counters
  bool any() const { return by_line || epoch_cycles || epoch_accesses || timeline; }
};

// A level whose counters are read: its name and kind as the report has them.
struct ProbedLevel {
  std::string name, kind;
  // The level's counters; several for a private level of several cores (one per core, summed).
  std::vector<const LevelStats*> stats;
};

class Attribution {
 public:
  // A timeline with no epoch length of its own uses this one for its counters.
  static constexpr uint64_t kTimelineEpochCycles = 10000;
  // The most epochs one run may record (a 1-cycle epoch on a long run would
  // take the machine's memory); past it the run stops with an InputError.
  static constexpr size_t kMaxEpochs = 1'000'000;
  // The most trace events a timeline records; later slices are left out
  // (and counted), pairs stay matched.
  static constexpr size_t kMaxTraceEvents = 2'000'000;

  using DramRowCounts = DramTiming::RowCounts;
  Attribution(const AttributionOptions& options, double period_fs, std::vector<ProbedLevel> levels,
              std::vector<std::string> spaces, size_t cores, const TagNames* names);
  // The DRAM's row-buffer counters, read at each epoch (null: none).
  void set_row_counter(std::function<DramRowCounts()> f) { rows_ = std::move(f); }

  void name_site(SiteId id, uint32_t line);
  void name_op(uint16_t id, const std::string& name);
  // An op's events begin / end on `core` at time t (fs): the timeline's op
  // slices, nested in the slice of the statement that called the op.
  void op_mark(uint16_t id, bool begin, CoreId core, uint64_t t);

  // Epochs of time: the first boundary after `t` (fs), or ~0 when epochs are
  // not by time; the core's runs stop there so that close_epochs() is exact.
  uint64_t next_boundary_fs() const { return time_epochs_ ? next_fs_ : ~0ull; }
  bool epoch_due(uint64_t t) const { return time_epochs_ && t >= next_fs_; }
  // Closes every epoch whose end is at or before t.
  void close_epochs(uint64_t t);
  // Epochs of accesses: how many more events the open epoch takes.
  uint64_t events_left() const { return count_epochs_ ? opts_.epoch_accesses - epoch_events_ : ~0ull; }

  // A run of `events` events of one site / region / core, issued from `from`
  // to `to` (fs) on that core, which issued `requests` line requests (its
  // counter, read at begin and end). begin() reads the levels' counters,
  // end() adds the differences.
  void begin(SiteId site, TagId region, CoreId core, uint64_t from, uint64_t requests);
  void end(uint64_t to, uint64_t requests, uint64_t events, uint64_t flops);
  // Bytes in use in a space now (at time t).
  void footprint(SpaceId space, uint64_t bytes, uint64_t t);
  // The run is over at `end_fs`.
  void finish(uint64_t end_fs);

  // by_line and epochs into the run's stats tree.
  void report(StatsNode& root) const;
  // The Chrome / Perfetto trace-event JSON of the run.
  // `lines`: the program's source lines, to name line slices by their text.
  std::string timeline_json(const std::string& source, const std::vector<std::string>& lines) const;

 private:
  struct Counts {
    uint64_t accesses = 0, misses = 0, bytes = 0;
  };
  struct Line {
    uint32_t line = 0;
    uint64_t requests = 0, flops = 0, fs = 0;
    std::vector<Counts> levels;
  };
  struct Epoch {
    uint64_t start_fs = 0, end_fs = 0, events = 0, flops = 0;
    std::string region;
    std::vector<Counts> levels;
    DramRowCounts rows;
    std::vector<uint64_t> footprint_peak;  // per space
    // per level: the tensors with traffic in the epoch (heatmaps); sparse,
    // since a run may have thousands of epochs and a table 64 rows or more
    std::vector<std::vector<std::pair<TagId, TagCounters>>> tensors;
  };
  struct TraceEvent {
    char ph;           // B, E, X, C
    uint8_t order;     // among events of one timestamp: E, B, X, C
    uint8_t depth;     // X: 0 a line, 1 an op inside it (at one time and length, the line first)
    uint16_t tid;
    uint64_t ts_fs, dur_fs;
    std::string name;
    std::string args;  // the JSON object's members, for C events
  };
  struct Track {  // per core
    std::vector<std::string> open;  // region path components, outermost first
    SiteId site = 0;
    uint64_t site_from = 0, site_to = 0;
    bool site_open = false;
    std::vector<std::pair<uint16_t, uint64_t>> ops;  // open ops: id, begin (fs)
  };

  void read(std::vector<Counts>& into) const;
  void close_epoch(uint64_t end_fs);
  void region_change(Track& k, TagId region, uint64_t t);
  void close_site(Track& k, CoreId core);
  void push(TraceEvent e);
  std::string line_name(SiteId s) const;

  AttributionOptions opts_;
  double period_fs_;
  std::vector<ProbedLevel> levels_;
  std::vector<std::string> spaces_;
  std::function<DramRowCounts()> rows_;
  const TagNames* names_;  // the core's: region paths

  // the open run
  SiteId site_ = 0;
  TagId region_ = 0;
  CoreId core_ = 0;
  uint64_t from_ = 0, requests_ = 0;
  std::vector<Counts> before_, after_;

  std::vector<uint32_t> site_lines_;  // by site id
  std::vector<std::string> op_names_;  // by op id
  std::vector<Line> lines_;            // by site id

  bool time_epochs_ = false, count_epochs_ = false;
  uint64_t epoch_fs_ = 0, next_fs_ = 0, epoch_start_fs_ = 0, epoch_events_ = 0, epoch_flops_ = 0;
  std::vector<Counts> epoch_base_;
  std::vector<std::vector<TagCounters>> tensor_base_;  // per level
  DramRowCounts rows_base_;
  std::vector<uint64_t> region_events_;  // this epoch, by region id
  std::vector<uint64_t> in_use_, epoch_peak_;  // per space
  std::vector<Epoch> epochs_;

  std::vector<Track> tracks_;
  std::vector<TraceEvent> trace_;
  uint64_t dropped_ = 0;
};

}  // namespace ptosim
