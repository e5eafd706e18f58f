#pragma once
// DRAM as one pipe: fixed latency plus serialisation on the peak bandwidth.
#include "models/dram/dram_timing.h"
#include "models/memory/busy_calendar.h"

namespace ptosim {

class SimpleDram : public DramTiming {
 public:
  explicit SimpleDram(const DramConfig& c) : latency_(fs_from_seconds(c.latency_ns * 1e-9)), bandwidth_(c.bandwidth) {}
  Fs access(Fs arrive, uint64_t /*addr*/, uint64_t bytes, bool /*write*/) override {
    const Fs transfer = fs_from_seconds(double(bytes) / bandwidth_);
    Fs start;
    if (in_time_order_) [[unlikely]] {
      start = calendar_.reserve(arrive, transfer);
    } else {
      start = arrive > busy_until_ ? arrive : busy_until_;
      busy_until_ = start + transfer;
    }
    busy_ += transfer;
    return start + transfer + latency_;
  }
  double peak_bandwidth() const override { return bandwidth_; }
  Fs busy() const override { return busy_; }
  Fs idle_miss() const override { return latency_; }
  void serve_in_time_order() override { in_time_order_ = true; }
  // No rows: the row-buffer counters read zero, so that a report has the
  // same keys whichever model produced it.
  void report(StatsNode& node, double) const override {
    for (const char* k : {"row_hits", "row_misses", "row_conflicts"}) node.set(k, uint64_t(0));
  }

 private:
  Fs latency_;
  double bandwidth_;
  Fs busy_until_ = 0;
  Fs busy_ = 0;
  bool in_time_order_ = false;  // serve_in_time_order(): the bus's calendar instead of busy_until_
  BusyCalendar calendar_;
};

}  // namespace ptosim
