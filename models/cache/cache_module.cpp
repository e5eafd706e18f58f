#include "models/cache/cache_module.h"

#include <cmath>

namespace ptosim {

using sc_core::sc_time;

CacheModule::CacheModule(sc_core::sc_module_name name, const CacheConfig& config, double clock_hz)
    : sc_module(name),
      up("up"),
      down("down"),
      logic_(make_cache_level(config)),
      latency_fs_(uint64_t(std::llround(1e15 / clock_hz * config.latency))),
      fs_per_byte_(1e15 / clock_hz / config.bandwidth),
      ready_(config.sets() * config.ways, 0),
      mshrs_(config.mshrs),
      clock_hz_(clock_hz) {
  up.bind(*this);
  down.bind(*this);
  logic_->connect_below(this);
}

uint64_t CacheModule::access_at(const MemRequest& r, uint64_t arrive, uint64_t now) {
  const uint64_t start = arrive > busy_until_ ? arrive : busy_until_;
  const uint64_t busy = busy_for(r.bytes);
  busy_until_ = start + busy;
  busy_total_ += busy;
  uint64_t done = start + latency_fs_;
  now_ = now;
  issue_ = done;
  fill_done_ = 0;
  // Misses wait for a free MSHR before their fills go below.
  mshrs_.retire(start);
  logic_->request(r);
  const CacheLevel::LastRequest& last = logic_->last();
  if (last.misses && fill_done_ > done) done = fill_done_;
  for (uint32_t i = 0; i < last.recorded; ++i) {
    const uint64_t slot = last.slot[i];
    if (last.hit[i]) {
      // A hit on a line still being filled merges into that fill.
      if (ready_[slot] > done) {
        done = ready_[slot];
        ++merges_;
      }
    } else if (slot != CacheLevel::kNoSlot) {
      ready_[slot] = fill_done_;
    }
  }
  latency_sum_ += done - arrive;
  ++requests_;
  return done;
}

void CacheModule::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  const AccessTags& tags = tags_of(trans);
  const uint64_t done = access_at(MemRequest{trans.get_address(), trans.get_data_length(),
                                             trans.get_command() == tlm::TLM_WRITE_COMMAND, tags.tensor, tags.region},
                                  now + delay.value(), now);
  delay = sc_time::from_value(done - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Sends `r` below at absolute time `at`; returns when it is done there.
uint64_t CacheModule::send(const MemRequest& r, uint64_t at) {
  if (direct_below_) return direct_below_->access_at(r, at, now_);
  tlm::tlm_generic_payload& t = below_.set(r.addr, r.bytes, r.write, r.tensor, r.region);
  sc_time delay = sc_time::from_value(at - now_);
  down->b_transport(t, delay);
  return now_ + delay.value();
}

void CacheModule::request(const MemRequest& r) {
  if (r.write) {  // posted
    send(r, issue_);
    return;
  }
  // A fill needs an MSHR for as long as it is on its way.
  uint64_t at = issue_;
  if (mshrs_.full()) {
    if (mshrs_.earliest() > at) {
      at = mshrs_.earliest();
      ++mshr_stalls_;
    }
    mshrs_.pop();
  }
  const uint64_t done = send(r, at);
  mshrs_.push(done);
  if (done > fill_done_) fill_done_ = done;
}

void CacheModule::flush(const sc_time& at) {
  now_ = sc_core::sc_time_stamp().value();
  issue_ = now_ + at.value();
  logic_->flush();
}

void CacheModule::report(StatsNode& parent, const TagNames& names, double seconds) const {
  StatsNode& n = add_level_stats(parent, name(), "cache", logic_->stats(), names, true);
  const LevelStats& s = logic_->stats();
  const double bytes = double(s.bytes_read + s.bytes_written);
  const double peak = logic_->config().bandwidth * clock_hz_;
  n.set("bandwidth_bytes_per_s", seconds > 0 ? bytes / seconds : 0.0);
  n.set("peak_bandwidth_bytes_per_s", peak);
  n.set("utilization", seconds > 0 ? double(busy_total_) * 1e-15 / seconds : 0.0);
  n.set("avg_latency_cycles", requests_ ? double(latency_sum_) * 1e-15 * clock_hz_ / double(requests_) : 0.0);
  n.set("mshr_merges", merges_);
  n.set("mshr_stalls", mshr_stalls_);
}

}  // namespace ptosim
