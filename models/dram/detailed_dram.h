#pragma once
// DRAM with channels, ranks, banks and a row buffer per bank (`timing:
// detailed`). Loosely timed: every bank and every channel's data bus keeps a
// "busy until" time and a request is served as a sequence of bursts, each
// paying row-hit / row-miss / row-conflict timing. With several cores
// (serve_in_time_order) banks and buses keep calendars of busy intervals
// instead, while the rows stay in arrival order. docs/TIMING.md gives the
// formulas, the address mapping and what is approximated.
#include <cstdint>
#include <vector>

#include "models/dram/address_map.h"
#include "models/dram/dram_timing.h"
#include "models/memory/busy_calendar.h"

namespace ptosim {

struct DramChannelStats {
  uint64_t row_hits = 0, row_misses = 0, row_conflicts = 0;
  uint64_t bursts = 0, bytes = 0;
  uint64_t refreshes = 0;
  Fs busy = 0;  // time the data bus moved data
  // The one place the fields are summed (totals(), row_counts(), busy()).
  DramChannelStats& operator+=(const DramChannelStats& o) {
    row_hits += o.row_hits, row_misses += o.row_misses, row_conflicts += o.row_conflicts;
    bursts += o.bursts, bytes += o.bytes, refreshes += o.refreshes, busy += o.busy;
    return *this;
  }
};

class DetailedDram : public DramTiming {
 public:
  explicit DetailedDram(const DramConfig& config);

  Fs access(Fs arrive, uint64_t addr, uint64_t bytes, bool write) override;
  double peak_bandwidth() const override { return peak_; }
  // An activate, the column access and one burst.
  Fs idle_miss() const override { return t_rcd_ + t_cl_ + t_burst_; }
  // Sum of the channels' bus time divided by the channel count, so that
  // busy / elapsed is the utilisation of the whole interface (<= 1).
  Fs busy() const override;
  void report(StatsNode& node, double seconds) const override;

  const std::vector<DramChannelStats>& channels() const { return channel_stats_; }
  RowCounts row_counts() const override {
    const DramChannelStats t = totals();
    return {t.row_hits, t.row_misses, t.row_conflicts};
  }
  DramChannelStats totals() const;
  void serve_in_time_order() override;
  uint32_t burst_bytes() const { return burst_bytes_; }
  const DramAddressMap& address_map() const { return map_; }

 private:
  static constexpr uint64_t kNoRow = ~uint64_t(0);
  struct Bank {
    uint64_t open_row = kNoRow;
    Fs ready = 0;      // earliest next command (column or precharge)
    Fs activated = 0;  // last ACT, for tRAS
  };
  struct Rank {
    uint64_t refresh_epoch = 0;  // refreshes [1, epoch] have happened
  };

  uint64_t burst_index(uint64_t addr) const {
    return burst_shift_ != kNotPow2 ? addr >> burst_shift_ : addr / burst_bytes_;
  }
  // One burst; returns the end of its data transfer.
  Fs burst(Fs arrive, const DramCoord& at, bool close_after);
  Fs refresh(Fs cmd, uint32_t channel, uint32_t rank);

  DramAddressMap map_;
  bool close_page_;
  uint32_t ranks_, banks_;
  uint32_t burst_bytes_;
  static constexpr uint32_t kNotPow2 = 64;
  uint32_t burst_shift_ = 0;  // kNotPow2: divide
  Fs t_cl_, t_rcd_, t_rp_, t_ras_, t_refi_, t_rfc_, t_burst_;
  Fs controller_fs_ = 0;  // dram.controller_latency
  double peak_;
  std::vector<Bank> bank_;           // [channel][rank][bank]
  std::vector<Rank> rank_;           // [channel][rank]
  std::vector<Fs> bus_free_;         // per channel
  // serve_in_time_order(): per bank and per channel's bus, the busy
  // intervals (in place of Bank::ready and bus_free_); empty: busy until.
  std::vector<BusyCalendar> bank_time_, bus_time_;
  std::vector<DramChannelStats> channel_stats_;
};

}  // namespace ptosim
