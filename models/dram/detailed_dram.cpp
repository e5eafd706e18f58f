#include "models/dram/detailed_dram.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <string>

#include "sim/config/params.h"

namespace ptosim {

namespace {

uint32_t burst_bytes_of(const DramConfig& c) {
  if (c.bus_width % 8 != 0)
    throw InputError(c.pos, "dram.bus_width", "bus width " + std::to_string(c.bus_width) + " bits is not a whole number of bytes");
  return c.bus_width / 8 * c.burst_length;
}

bool same_row(const DramCoord& a, const DramCoord& b) {
  return a.channel == b.channel && a.rank == b.rank && a.bank == b.bank && a.row == b.row;
}

}  // namespace

DetailedDram::DetailedDram(const DramConfig& c)
    : map_(c, burst_bytes_of(c)),
      close_page_(c.page_policy == PagePolicy::Closed),
      ranks_(c.ranks),
      banks_(c.banks),
      burst_bytes_(burst_bytes_of(c)),
      t_cl_(fs_from_seconds(c.tCL * 1e-9)),
      t_rcd_(fs_from_seconds(c.tRCD * 1e-9)),
      t_rp_(fs_from_seconds(c.tRP * 1e-9)),
      t_ras_(fs_from_seconds(c.tRAS * 1e-9)),
      t_refi_(fs_from_seconds(c.tREFI * 1e-9)),
      t_rfc_(fs_from_seconds(c.tRFC * 1e-9)),
      t_burst_(fs_from_seconds(double(c.burst_length) / c.data_rate)),
      peak_(double(c.channels) * (c.bus_width / 8.0) * c.data_rate),
      bank_(size_t(c.channels) * c.ranks * c.banks),
      rank_(size_t(c.channels) * c.ranks),
      bus_free_(c.channels, 0),
      channel_stats_(c.channels) {
  controller_fs_ = fs_from_seconds(c.controller_latency * 1e-9);
  if (!(burst_bytes_ & (burst_bytes_ - 1)))
    while ((1u << burst_shift_) < burst_bytes_) ++burst_shift_;
  else
    burst_shift_ = kNotPow2;
  if (t_refi_ > 0 && t_rfc_ >= t_refi_)
    throw InputError(c.pos, "dram.tRFC", "refresh takes longer (tRFC) than its interval (tREFI)");
}

Fs DetailedDram::access(Fs arrive, uint64_t addr, uint64_t bytes, bool /*write*/) {
  if (bytes == 0) bytes = 1;
  arrive += controller_fs_;  // to the controller and back, before the banks see it
  const uint64_t end_addr = addr + bytes;
  const uint64_t first = burst_index(addr);
  const uint64_t last = burst_index(end_addr - 1);
  DramCoord cur = map_.decode(first * burst_bytes_);
  Fs done = arrive;
  for (uint64_t b = first;; ++b) {
    // A closed-page controller still keeps the row open while the same
    // request has more bursts for it: it closes once nothing is pending.
    bool close = close_page_;
    DramCoord next;
    if (b != last) {
      next = map_.decode((b + 1) * burst_bytes_);
      if (close && same_row(cur, next)) close = false;
    }
    const uint64_t lo = std::max(addr, b * burst_bytes_);
    const uint64_t hi = std::min(end_addr, (b + 1) * burst_bytes_);
    channel_stats_[cur.channel].bytes += hi - lo;
    done = std::max(done, burst(arrive, cur, close));
    if (b == last) break;
    cur = next;
  }
  return done;
}

Fs DetailedDram::burst(Fs arrive, const DramCoord& at, bool close_after) {
  const size_t bank = (size_t(at.channel) * ranks_ + at.rank) * banks_ + at.bank;
  Bank& k = bank_[bank];
  DramChannelStats& s = channel_stats_[at.channel];
  const bool calendars = !bank_time_.empty();
  // With calendars the bank's first free moment at or after the arrival:
  // in time order that is max(arrive, ready) as below; a late request (a
  // lagging core's) finds its own time's gap, and `ready` is not kept.
  Fs cmd = calendars ? bank_time_[bank].first_fit(arrive, t_burst_) : std::max(arrive, k.ready);
  if (t_refi_ > 0) cmd = refresh(cmd, at.channel, at.rank);
  // The row state is the latest arrival's, whatever its time: a request
  // from a lagging core finds the row the leading core left open (keeping
  // each bank's row history to answer "which row was open then" is not
  // worth it). An activation later than `cmd` is a leading core's, so
  // tRAS does not hold this request back, and the latest one is kept.
  // In time order (one core) cmd is always past the last activation.
  Fs data;                                        // earliest time the data could be on the bus
  Fs act = k.activated > cmd ? cmd : k.activated;  // this request's row's activation
  if (k.open_row == at.row) {
    ++s.row_hits;
    data = cmd + t_cl_;
  } else if (k.open_row == kNoRow) {
    ++s.row_misses;
    act = cmd;
    data = cmd + t_rcd_ + t_cl_;
  } else {
    ++s.row_conflicts;
    const Fs precharge = k.activated > cmd ? cmd : std::max(cmd, k.activated + t_ras_);
    act = precharge + t_rp_;
    data = act + t_rcd_ + t_cl_;
  }
  k.activated = std::max(k.activated, act);
  // The bus serves bursts in arrival order (no FR-FCFS reordering); with
  // calendars, in the first gap at or after its data is ready.
  Fs start;
  if (calendars) {
    start = bus_time_[at.channel].reserve(data, t_burst_);
  } else {
    Fs& bus = bus_free_[at.channel];
    start = std::max(data, bus);
    bus = start + t_burst_;
  }
  const Fs end = start + t_burst_;
  ++s.bursts;
  s.busy += t_burst_;
  // Column commands to an open row pipeline one burst apart (tCCD = burst).
  k.open_row = at.row;
  Fs ready = start - t_cl_ + t_burst_;
  if (close_after) {  // auto-precharge once tRAS has passed and the data is out
    k.open_row = kNoRow;
    ready = std::max(act + t_ras_, end) + t_rp_;
  }
  if (calendars) bank_time_[bank].take(cmd, ready);
  else k.ready = ready;
  return end;
}

void DetailedDram::serve_in_time_order() {
  // A bank's calendar holds fewer intervals than a bus's: there are many
  // banks, and a request further behind than that finds the past free.
  bank_time_.assign(bank_.size(), BusyCalendar(256));
  bus_time_.assign(bus_free_.size(), BusyCalendar());
}

Fs DetailedDram::refresh(Fs cmd, uint32_t channel, uint32_t rank) {
  Rank& r = rank_[size_t(channel) * ranks_ + rank];
  if (cmd < (r.refresh_epoch + 1) * t_refi_) return cmd;
  // One or more all-bank refreshes happened since this rank was last used:
  // they closed every row, and a command inside the last one waits for it.
  const uint64_t epoch = cmd / t_refi_;
  channel_stats_[channel].refreshes += epoch - r.refresh_epoch;
  r.refresh_epoch = epoch;
  Bank* banks = &bank_[(size_t(channel) * ranks_ + rank) * banks_];
  for (uint32_t b = 0; b < banks_; ++b) banks[b].open_row = kNoRow;
  const Fs refresh_end = epoch * t_refi_ + t_rfc_;
  return std::max(cmd, refresh_end);
}

Fs DetailedDram::busy() const { return totals().busy / channel_stats_.size(); }

DramChannelStats DetailedDram::totals() const {
  DramChannelStats t;
  for (const DramChannelStats& s : channel_stats_) t += s;
  return t;
}

void DetailedDram::report(StatsNode& node, double seconds) const {
  const DramChannelStats t = totals();
  node.set("row_hits", t.row_hits).set("row_misses", t.row_misses).set("row_conflicts", t.row_conflicts);
  node.set("bursts", t.bursts);
  if (t_refi_ > 0) node.set("refreshes", t.refreshes);
  StatsNode& table = node.child("channels", NodeKind::Table);
  for (size_t i = 0; i < channel_stats_.size(); ++i) {
    const DramChannelStats& s = channel_stats_[i];
    table.child("ch" + std::to_string(i), NodeKind::Row)
        .set("row_hits", s.row_hits)
        .set("row_misses", s.row_misses)
        .set("row_conflicts", s.row_conflicts)
        .set("utilization", seconds > 0 ? fs_to_seconds(s.busy) / seconds : 0.0)
        .set("bytes", s.bytes);
  }
}

PTOSIM_REGISTER(DramModelConcept, Detailed, "detailed", 1,
                "channels, ranks, banks and row buffers with DDR timing parameters", make_dram<DetailedDram>,
                traits::kBanked);

// The keys only this model reads (sim/config/params.h); `timing:` itself and
// the simple model's latency and bandwidth are declared elsewhere.
namespace {

double parse_data_rate(const std::string& s) {
  auto [v, unit] = std::pair<double, std::string>{};
  std::istringstream in(s);
  if (!(in >> v) || v <= 0) throw std::invalid_argument("expected a data rate such as '2933 MT/s', got '" + s + "'");
  in >> unit;
  double rate = 0;
  if (unit == "MT/s") rate = v * 1e6;
  else if (unit == "GT/s") rate = v * 1e9;
  else if (unit == "T/s") rate = v;
  else throw std::invalid_argument("bad unit '" + unit + "' in '" + s + "' (expected MT/s or GT/s)");
  time_limits::check_step(2e15 / rate, "at '" + s + "' one DRAM clock");
  return rate;
}

uint32_t parse_bus_width(const std::string& s) {
  std::istringstream in(s);
  double v = 0;
  std::string unit;
  if (!(in >> v) || v <= 0 || v != std::floor(v) || v > 4096)
    throw std::invalid_argument("expected a bus width of 1 to 4096 bits, got '" + s + "'");
  in >> unit;
  if (!unit.empty() && unit != "bit" && unit != "bits") throw std::invalid_argument("bad unit '" + unit + "' (expected bits)");
  return uint32_t(v);
}

std::string parse_mapping(const std::string& s) {
  std::set<std::string> seen;
  std::stringstream in(s);
  std::string f;
  while (std::getline(in, f, '-')) {
    if (f != "ro" && f != "ba" && f != "ra" && f != "ch" && f != "co")
      throw std::invalid_argument("mapping field '" + f + "' is not one of ro ba ra ch co");
    if (!seen.insert(f).second) throw std::invalid_argument("mapping field '" + f + "' appears twice");
  }
  if (seen.size() != 5) throw std::invalid_argument("mapping '" + s + "' must name each of ro ba ra ch co once");
  return s;
}

// A DRAM timing: a plain number counts DRAM clocks (tCK = 2 / data_rate,
// so data_rate is read first), "13.75 ns" is absolute. Written back as the
// clocks it was given in when the time in ns would be a long decimal (21
// clocks at 2933 MT/s = 14.319809... ns), with the time rounded in a comment.
Param<DramConfig> dram_clocks(const char* key, double DramConfig::*field, int rank, const char* doc, const char* example) {
  auto parse = [field](DramConfig& d, const std::string& s, const ParamContext&) {
    std::istringstream in(s);
    double v = 0;
    std::string unit;
    if (!(in >> v) || v < 0) throw std::invalid_argument("expected a number of DRAM clocks or a time, got '" + s + "'");
    in >> unit;
    const double ns = unit.empty() || unit == "cycles" || unit == "clk" ? v * 2e9 / d.data_rate : units::parse_time_ns(s);
    time_limits::check_step(ns * 1e6, "'" + s + "'", true);
    d.*field = ns;
  };
  auto format = [field](const DramConfig& d) {
    const double v = d.*field;
    const std::string t = units::format_time_ns(v);
    if (v <= 0 || t.size() <= 10) return t;
    const double clocks = std::round(v * d.data_rate / 2e9);
    if (clocks < 1 || clocks * 2e9 / d.data_rate != v) return t;
    char rounded[32];
    std::snprintf(rounded, sizeof rounded, "%.3g", v);
    return units::format_number(clocks) + "  # " + rounded + " ns";
  };
  return param::custom<DramConfig>(key, "DRAM clocks or time", "DRAM clocks", "", parse, format)
      .about(concepts::kDramTiming, "detailed", doc, example, rank);
}

Param<DramConfig> detailed(Param<DramConfig> p, int rank, const char* doc, const char* example) {
  return std::move(p).about(concepts::kDramTiming, "detailed", doc, example, rank);
}

Param<DramConfig> data_rate_param() {
  return param::custom<DramConfig>(
      "data_rate", "data rate", "MT/s", "",
      [](DramConfig& d, const std::string& s, const ParamContext&) { d.data_rate = parse_data_rate(s); },
      [](const DramConfig& d) { return units::format_number(d.data_rate / 1e6) + " MT/s"; });
}

Param<DramConfig> bus_width_param() {
  return param::custom<DramConfig>(
      "bus_width", "bits", "bits", "1..4096",
      [](DramConfig& d, const std::string& s, const ParamContext&) { d.bus_width = parse_bus_width(s); },
      [](const DramConfig& d) { return std::to_string(d.bus_width) + " bits"; });
}

Param<DramConfig> mapping_param() {
  return param::custom<DramConfig>(
      "mapping", "address fields", "", "ro ba ra ch co, each once",
      [](DramConfig& d, const std::string& s, const ParamContext&) { d.mapping = parse_mapping(s); },
      [](const DramConfig& d) { return d.mapping; });
}

using param::bytes;
using param::choice;
using param::count;
using param::time;

PTOSIM_PARAMS(DramConfig, DetailedDram,
  detailed(count("channels", &DramConfig::channels, 1, 256), 10, "channels, each with its own data bus", "2"),
  detailed(count("ranks", &DramConfig::ranks, 1, 64), 20, "ranks per channel", "2"),
  detailed(count("banks", &DramConfig::banks, 1, 1024), 30,
           "banks per rank (channels x ranks x banks at most 65536)", "16"),
  detailed(bytes("row_size", &DramConfig::row_size), 40,
           "bytes per row of a bank (a power of two, at most 1 MiB)", "2 KiB"),
  detailed(bus_width_param(), 50, "bits per channel (a whole number of bytes)", "32 bits"),
  detailed(data_rate_param(), 60, "transfers per second (MT/s or GT/s); sets tCK = 2 / data_rate", "2933 MT/s"),
  detailed(count("burst_length", &DramConfig::burst_length, 1, 1024), 70, "transfers per burst", "16"),
  dram_clocks("tCL", &DramConfig::tCL, 80, "CAS latency: a column read's data after its command", "24"),
  dram_clocks("tRCD", &DramConfig::tRCD, 81, "activate to column command", "21"),
  dram_clocks("tRP", &DramConfig::tRP, 82, "precharge to activate", "20"),
  dram_clocks("tRAS", &DramConfig::tRAS, 83, "activate to precharge", "40 ns"),
  dram_clocks("tREFI", &DramConfig::tREFI, 84, "refresh interval (0 = no refresh)", "7.8 us"),
  dram_clocks("tRFC", &DramConfig::tRFC, 85, "refresh cycle time (0 = no refresh)", "350 ns"),
  detailed(time("controller_latency", &DramConfig::controller_latency), 90,
           "interconnect and controller time added to every request (the path from the last cache to the "
           "channel and back)", "20 ns"),
  detailed(choice("page_policy", &DramConfig::page_policy, kPagePolicies), 100,
           "when a bank's row closes: `open` keeps it until another row is needed, `closed` precharges it once "
           "no pending burst needs it", "closed"),
  detailed(mapping_param(), 110, "how an address splits into row, bank, rank, channel and column, most "
           "significant field first", "ro-ra-ba-ch-co"));

}  // namespace

}  // namespace ptosim
