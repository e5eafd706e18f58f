#include "models/attribution/attribution.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "sim/common/error.h"

namespace ptosim {

Attribution::Attribution(const AttributionOptions& options, double period_fs, std::vector<ProbedLevel> levels,
                         std::vector<std::string> spaces, size_t cores, const TagNames* names)
    : opts_(options), period_fs_(period_fs), levels_(std::move(levels)), spaces_(std::move(spaces)), names_(names) {
  before_.resize(levels_.size());
  after_.resize(levels_.size());
  epoch_base_.resize(levels_.size());
  in_use_.assign(spaces_.size(), 0);
  epoch_peak_.assign(spaces_.size(), 0);
  tracks_.resize(cores);
  uint64_t cycles = opts_.epoch_cycles;
  if (!cycles && !opts_.epoch_accesses && opts_.timeline) cycles = kTimelineEpochCycles;
  time_epochs_ = cycles != 0;
  count_epochs_ = !time_epochs_ && opts_.epoch_accesses != 0;
  epoch_fs_ = uint64_t(double(cycles) * period_fs_ + 0.5);
  if (time_epochs_ && epoch_fs_ == 0) epoch_fs_ = 1;
  next_fs_ = epoch_fs_;
}

void Attribution::name_site(SiteId id, uint32_t line) {
  if (id >= site_lines_.size()) site_lines_.resize(size_t(id) + 1, 0);
  site_lines_[id] = line;
}

void Attribution::name_op(uint16_t id, const std::string& name) {
  if (id >= op_names_.size()) op_names_.resize(size_t(id) + 1);
  op_names_[id] = name;
}

void Attribution::op_mark(uint16_t id, bool begin, CoreId core, uint64_t t) {
  if (!opts_.timeline || core >= tracks_.size()) return;
  Track& k = tracks_[core];
  if (begin) {
    k.ops.emplace_back(id, t);
    return;
  }
  if (k.ops.empty() || k.ops.back().first != id) return;  // (a mark lost to an error)
  const uint64_t from = k.ops.back().second;
  k.ops.pop_back();
  if (t > from)
    push(TraceEvent{'X', 2, 1, uint16_t(core), from, t - from, id < op_names_.size() ? op_names_[id] : "op", ""});
}

void Attribution::read(std::vector<Counts>& into) const {
  for (size_t i = 0; i < levels_.size(); ++i) {
    Counts c{0, 0, 0};
    for (const LevelStats* s : levels_[i].stats) {
      c.accesses += s->accesses();
      c.misses += s->misses();
      c.bytes += s->bytes_read + s->bytes_written;
    }
    into[i] = c;
  }
}

void Attribution::begin(SiteId site, TagId region, CoreId core, uint64_t from, uint64_t requests) {
  requests_ = requests;
  site_ = site;
  region_ = region;
  core_ = core;
  from_ = from;
  read(before_);
  if (opts_.timeline && core < tracks_.size()) {
    Track& k = tracks_[core];
    region_change(k, region, from);
    if (k.site_open && k.site != site) close_site(k, core);
    if (!k.site_open) {
      k.site_open = true;
      k.site = site;
      k.site_from = from;
    }
  }
}

void Attribution::end(uint64_t to, uint64_t requests, uint64_t events, uint64_t flops) {
  read(after_);
  const uint64_t fs = to > from_ ? to - from_ : 0;
  if (opts_.by_line) {
    if (site_ >= lines_.size()) lines_.resize(size_t(site_) + 1);
    Line& l = lines_[site_];
    if (l.levels.empty()) l.levels.resize(levels_.size());
    l.requests += requests - requests_;
    l.flops += flops;
    l.fs += fs;
    for (size_t i = 0; i < levels_.size(); ++i) {
      l.levels[i].accesses += after_[i].accesses - before_[i].accesses;
      l.levels[i].misses += after_[i].misses - before_[i].misses;
      l.levels[i].bytes += after_[i].bytes - before_[i].bytes;
    }
  }
  epoch_events_ += events;
  epoch_flops_ += flops;
  if (region_ >= region_events_.size()) region_events_.resize(size_t(region_) + 1, 0);
  region_events_[region_] += events + (events == 0);  // a compute run counts too
  if (opts_.timeline && core_ < tracks_.size()) tracks_[core_].site_to = std::max(tracks_[core_].site_to, to);
  if (count_epochs_ && epoch_events_ >= opts_.epoch_accesses) close_epoch(to);
}

void Attribution::close_epochs(uint64_t t) {
  while (time_epochs_ && t >= next_fs_) close_epoch(next_fs_);
}

void Attribution::close_epoch(uint64_t end_fs) {
  if (epochs_.size() >= kMaxEpochs)
    throw InputError("more than " + std::to_string(kMaxEpochs) + " epochs: choose a longer --epoch or --epoch-accesses");
  Epoch e;
  e.start_fs = epoch_start_fs_;
  e.end_fs = end_fs;
  e.events = epoch_events_;
  e.flops = epoch_flops_;
  std::vector<Counts> now(levels_.size());
  read(now);
  e.levels.resize(levels_.size());
  for (size_t i = 0; i < levels_.size(); ++i) {
    e.levels[i] = Counts{now[i].accesses - epoch_base_[i].accesses, now[i].misses - epoch_base_[i].misses,
                         now[i].bytes - epoch_base_[i].bytes};
  }
  epoch_base_ = now;
  tensor_base_.resize(levels_.size());
  e.tensors.resize(levels_.size());
  for (size_t i = 0; i < levels_.size(); ++i) {
    std::vector<TagCounters> rows = levels_[i].stats[0]->by_tensor().rows();
    for (size_t k = 1; k < levels_[i].stats.size(); ++k) {  // a private level's other cores
      const std::vector<TagCounters>& more = levels_[i].stats[k]->by_tensor().rows();
      if (rows.size() < more.size()) rows.resize(more.size());
      for (size_t t = 1; t < more.size(); ++t) rows[t] += more[t];
    }
    std::vector<TagCounters>& base = tensor_base_[i];
    if (base.size() < rows.size()) base.resize(rows.size());
    for (size_t t = 1; t < rows.size(); ++t) {  // row 0 (untagged) is derived: not a tensor
      if (rows[t].accesses == base[t].accesses && rows[t].misses == base[t].misses && rows[t].bytes == base[t].bytes)
        continue;
      e.tensors[i].emplace_back(TagId(t), TagCounters{rows[t].accesses - base[t].accesses,
                                                      rows[t].misses - base[t].misses, rows[t].bytes - base[t].bytes});
      base[t] = rows[t];
    }
  }
  if (rows_) {
    const DramRowCounts r = rows_();
    e.rows = DramRowCounts{r.hits - rows_base_.hits, r.misses - rows_base_.misses, r.conflicts - rows_base_.conflicts};
    rows_base_ = r;
  }
  // The region that issued the most events in the epoch ("" when it issued none).
  size_t best = region_events_.size();
  for (size_t r = 0; r < region_events_.size(); ++r)
    if (region_events_[r] && (best == region_events_.size() || region_events_[r] > region_events_[best])) best = r;
  if (best < region_events_.size())
    e.region = best == 0 ? std::string("(untagged)")
               : best < names_->regions.size() ? names_->regions[best] : "#" + std::to_string(best);
  std::fill(region_events_.begin(), region_events_.end(), 0);
  e.footprint_peak = epoch_peak_;
  epoch_peak_ = in_use_;
  if (opts_.timeline) {
    // Counter tracks, stamped at the epoch's start with its figures (a
    // counter holds its value until the next sample).
    const double secs = double(end_fs - e.start_fs) * 1e-15;
    for (size_t i = 0; i < levels_.size(); ++i) {
      const Counts& c = e.levels[i];
      char buf[160];
      std::snprintf(buf, sizeof buf, "{\"GB/s\": %.6g}", secs > 0 ? double(c.bytes) / secs / 1e9 : 0.0);
      push(TraceEvent{'C', 3, 0, 0, e.start_fs, 0, levels_[i].name + " bandwidth", buf});
      if (levels_[i].kind == "cache") {
        std::snprintf(buf, sizeof buf, "{\"miss rate\": %.6g}", c.accesses ? double(c.misses) / double(c.accesses) : 0.0);
        push(TraceEvent{'C', 3, 0, 0, e.start_fs, 0, levels_[i].name + " miss rate", buf});
      }
    }
    if (rows_) {
      const uint64_t n = e.rows.hits + e.rows.misses + e.rows.conflicts;
      char buf[96];
      std::snprintf(buf, sizeof buf, "{\"hit rate\": %.6g}", n ? double(e.rows.hits) / double(n) : 0.0);
      push(TraceEvent{'C', 3, 0, 0, e.start_fs, 0, "DRAM row-buffer hit rate", buf});
    }
  }
  epochs_.push_back(std::move(e));
  epoch_start_fs_ = end_fs;
  epoch_events_ = 0;
  epoch_flops_ = 0;
  if (time_epochs_) next_fs_ = end_fs + epoch_fs_;
}

void Attribution::footprint(SpaceId space, uint64_t bytes, uint64_t t) {
  if (space >= in_use_.size()) return;
  in_use_[space] = bytes;
  epoch_peak_[space] = std::max(epoch_peak_[space], bytes);
  if (opts_.timeline) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "{\"bytes\": %llu}", (unsigned long long)bytes);
    push(TraceEvent{'C', 3, 0, 0, t, 0, "footprint " + spaces_[space], buf});
  }
}

std::string Attribution::line_name(SiteId s) const {
  const uint32_t line = s < site_lines_.size() ? site_lines_[s] : 0;
  return line ? "line " + std::to_string(line) : std::string("(no line)");
}

void Attribution::push(TraceEvent e) {
  if (e.ph == 'E' || trace_.size() < kMaxTraceEvents) trace_.push_back(std::move(e));
  else ++dropped_;
}

void Attribution::close_site(Track& k, CoreId core) {
  if (k.site_open && k.site_to > k.site_from)
    push(TraceEvent{'X', 2, 0, uint16_t(core), k.site_from, k.site_to - k.site_from, line_name(k.site), ""});
  k.site_open = false;
}

// Region paths nest ("conv/fblock"): the slices of the components that
// differ close (innermost first) and open (outermost first).
void Attribution::region_change(Track& k, TagId region, uint64_t t) {
  std::vector<std::string> path;
  if (region) {
    const std::string name = region < names_->regions.size() ? names_->regions[region] : "#" + std::to_string(region);
    size_t at = 0;
    for (;;) {
      const size_t slash = name.find('/', at);
      path.push_back(name.substr(at, slash == std::string::npos ? std::string::npos : slash - at));
      if (slash == std::string::npos) break;
      at = slash + 1;
    }
  }
  size_t same = 0;
  while (same < path.size() && same < k.open.size() && path[same] == k.open[same]) ++same;
  if (same == path.size() && same == k.open.size()) return;
  const CoreId core = CoreId(&k - tracks_.data());
  close_site(k, core);
  while (k.open.size() > same) {
    push(TraceEvent{'E', 0, 0, uint16_t(core), t, 0, k.open.back(), ""});
    k.open.pop_back();
  }
  for (size_t i = same; i < path.size(); ++i) {
    if (trace_.size() >= kMaxTraceEvents) {  // no room for a pair: leave the rest unopened
      ++dropped_;
      break;
    }
    push(TraceEvent{'B', 1, 0, uint16_t(core), t, 0, path[i], ""});
    k.open.push_back(path[i]);
  }
}

void Attribution::finish(uint64_t end_fs) {
  if (time_epochs_) {
    close_epochs(end_fs);
    if (end_fs > epoch_start_fs_ || epochs_.empty()) close_epoch(end_fs);
  } else if (count_epochs_ && (epoch_events_ || epochs_.empty())) {
    close_epoch(end_fs);
  }
  if (opts_.timeline) {
    for (size_t c = 0; c < tracks_.size(); ++c) {
      Track& k = tracks_[c];
      close_site(k, CoreId(c));
      while (!k.open.empty()) {
        push(TraceEvent{'E', 0, 0, uint16_t(c), std::max(end_fs, k.site_to), 0, k.open.back(), ""});
        k.open.pop_back();
      }
    }
  }
}

void Attribution::report(StatsNode& root) const {
  if (opts_.by_line) {
    StatsNode& t = root.child("by_line", NodeKind::Table);
    for (size_t s = 0; s < lines_.size(); ++s) {
      const Line& l = lines_[s];
      if (l.levels.empty()) continue;
      const uint32_t line = s < site_lines_.size() ? site_lines_[s] : 0;
      StatsNode& r = t.child(line ? std::to_string(line) : "(no line)", NodeKind::Row);
      r.set("line", uint64_t(line));
      r.set("accesses", l.requests).set("flops", l.flops).set("cycles", double(l.fs) / period_fs_);
      uint64_t dram = 0;
      for (size_t i = 0; i < levels_.size(); ++i)
        if (levels_[i].kind == "dram") dram += l.levels[i].bytes;
      r.set("dram_bytes", dram);
      StatsNode& lv = r.child("levels", NodeKind::Table);
      for (size_t i = 0; i < levels_.size(); ++i)
        lv.child(levels_[i].name, NodeKind::Row)
            .set("accesses", l.levels[i].accesses)
            .set("misses", l.levels[i].misses)
            .set("bytes", l.levels[i].bytes);
    }
  }
  if (time_epochs_ || count_epochs_) {
    // What --epoch asked for: epoch_fs_ is it rounded to the femtosecond, which
    // read back in cycles is 20000.000001 at some clocks.
    if (time_epochs_) root.set("epoch_cycles", double(opts_.epoch_cycles));
    else root.set("epoch_accesses", opts_.epoch_accesses);
    StatsNode& t = root.child("epochs", NodeKind::Table);
    for (size_t n = 0; n < epochs_.size(); ++n) {
      const Epoch& e = epochs_[n];
      StatsNode& r = t.child(std::to_string(n), NodeKind::Row);
      const double secs = double(e.end_fs - e.start_fs) * 1e-15;
      r.set("start_cycles", double(e.start_fs) / period_fs_).set("end_cycles", double(e.end_fs) / period_fs_);
      r.set("accesses", e.events).set("flops", e.flops).set("region", e.region);
      const uint64_t rows = e.rows.hits + e.rows.misses + e.rows.conflicts;
      r.set("dram_row_hits", e.rows.hits).set("dram_row_hit_rate", rows ? double(e.rows.hits) / double(rows) : 0.0);
      StatsNode& lv = r.child("levels", NodeKind::Table);
      for (size_t i = 0; i < levels_.size(); ++i) {
        const Counts& c = e.levels[i];
        lv.child(levels_[i].name, NodeKind::Row)
            .set("accesses", c.accesses)
            .set("misses", c.misses)
            .set("miss_rate", c.accesses ? double(c.misses) / double(c.accesses) : 0.0)
            .set("bytes", c.bytes)
            .set("bandwidth_bytes_per_s", secs > 0 ? double(c.bytes) / secs : 0.0);
        StatsNode* tt = nullptr;
        for (const auto& [id, tc] : e.tensors[i]) {
          if (!tt) tt = &lv.children.back().child("tensors", NodeKind::Table);
          const std::string name = id < names_->tensors.size() && !names_->tensors[id].empty()
                                       ? names_->tensors[id] : "#" + std::to_string(id);
          tt->child(name, NodeKind::Row).set("accesses", tc.accesses).set("misses", tc.misses).set("bytes", tc.bytes);
        }
      }
      StatsNode& fp = r.child("footprint", NodeKind::Table);
      for (size_t s = 0; s < spaces_.size(); ++s) fp.child(spaces_[s], NodeKind::Row).set("peak_bytes", e.footprint_peak[s]);
    }
  }
}

std::string Attribution::timeline_json(const std::string& source, const std::vector<std::string>& lines) const {
  using nlohmann::ordered_json;
  std::vector<const TraceEvent*> order;
  order.reserve(trace_.size());
  for (const TraceEvent& e : trace_) order.push_back(&e);
  // Sorted by time; at one time a slice ends before the next begins, a
  // region's slice begins before the line slices inside it, and a line's
  // slice before the op slices inside it (longer first, then by depth).
  std::stable_sort(order.begin(), order.end(), [](const TraceEvent* a, const TraceEvent* b) {
    if (a->ts_fs != b->ts_fs) return a->ts_fs < b->ts_fs;
    if (a->order != b->order) return a->order < b->order;
    if (a->dur_fs != b->dur_fs) return a->dur_fs > b->dur_fs;
    return a->depth < b->depth;
  });
  ordered_json events = ordered_json::array();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"tid", 0}, {"ts", 0},
                    {"args", {{"name", "pto-sim " + source}}}});
  for (size_t c = 0; c < tracks_.size(); ++c)
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", c}, {"ts", 0},
                      {"args", {{"name", "core" + std::to_string(c)}}}});
  for (const TraceEvent* e : order) {
    std::string name = e->name;
    if (e->ph == 'X' && name.rfind("line ", 0) == 0) {  // "line 19: C[i, j] += A[i, k] * B[k, j]"
      const size_t n = std::strtoul(name.c_str() + 5, nullptr, 10);
      if (n >= 1 && n <= lines.size()) {
        std::string text = lines[n - 1];
        const size_t lead = text.find_first_not_of(" \t");
        text = lead == std::string::npos ? "" : text.substr(lead);
        if (text.size() > 80) text = text.substr(0, 77) + "...";
        if (!text.empty()) name += ": " + text;
      }
    }
    ordered_json j = {{"name", name}, {"ph", std::string(1, e->ph)}, {"pid", 1}, {"tid", e->tid},
                      {"ts", double(e->ts_fs) * 1e-9}};  // microseconds
    if (e->ph == 'X') j["dur"] = double(e->dur_fs) * 1e-9;
    if (e->ph == 'C') j["args"] = ordered_json::parse(e->args);
    if (e->ph == 'B' || e->ph == 'E' || e->ph == 'X') j["cat"] = e->ph != 'X' ? "region" : e->depth ? "op" : "line";
    events.push_back(std::move(j));
  }
  ordered_json o;
  o["traceEvents"] = std::move(events);
  o["displayTimeUnit"] = "ns";
  o["otherData"] = {{"source", source}, {"dropped_events", dropped_}};
  return o.dump(1, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace ptosim
