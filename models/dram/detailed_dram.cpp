#include "models/dram/detailed_dram.h"

#include <algorithm>
#include <cmath>
#include <string>

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
  Bank& k = bank_[(size_t(at.channel) * ranks_ + at.rank) * banks_ + at.bank];
  DramChannelStats& s = channel_stats_[at.channel];
  Fs cmd = std::max(arrive, k.ready);
  if (t_refi_ > 0) cmd = refresh(cmd, at.channel, at.rank);
  Fs data;  // earliest time the data could be on the bus
  if (k.open_row == at.row) {
    ++s.row_hits;
    data = cmd + t_cl_;
  } else if (k.open_row == kNoRow) {
    ++s.row_misses;
    k.activated = cmd;
    data = cmd + t_rcd_ + t_cl_;
  } else {
    ++s.row_conflicts;
    const Fs precharge = std::max(cmd, k.activated + t_ras_);
    k.activated = precharge + t_rp_;
    data = k.activated + t_rcd_ + t_cl_;
  }
  // The bus serves bursts in arrival order (no FR-FCFS reordering).
  Fs& bus = bus_free_[at.channel];
  const Fs start = std::max(data, bus);
  const Fs end = start + t_burst_;
  bus = end;
  ++s.bursts;
  s.busy += t_burst_;
  // Column commands to an open row pipeline one burst apart (tCCD = burst).
  k.open_row = at.row;
  k.ready = start - t_cl_ + t_burst_;
  if (close_after) {  // auto-precharge once tRAS has passed and the data is out
    k.open_row = kNoRow;
    k.ready = std::max(k.activated + t_ras_, end) + t_rp_;
  }
  return end;
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

}  // namespace ptosim
