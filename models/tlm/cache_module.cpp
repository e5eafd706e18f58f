#include "models/tlm/cache_module.h"

#include "sim/common/time.h"

#include <cmath>

namespace ptosim {

using sc_core::sc_time;

CacheModule::CacheModule(sc_core::sc_module_name name, const CacheConfig& config, double clock_hz, bool data)
    : sc_module(name), up("up"), down("down"), logic_(make_cache_level(config, data)), clock_hz_(clock_hz) {
  up.bind(*this);
  down.bind(*this);
  logic_->set_timing(uint64_t(std::llround(1e15 / clock_hz * config.latency)), 1e15 / clock_hz / config.bandwidth,
                     uint64_t(std::llround(1e15 / clock_hz * config.set_fill_cycles)),
                     uint64_t(std::llround(1e15 / clock_hz * config.writeback_spacing())));
  logic_->connect_below(this);
}

void CacheModule::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  const AccessTags& tags = tags_of(trans);
  const uint64_t done = logic_->access(MemRequest{trans.get_address(), trans.get_data_length(),
                                                  trans.get_command() == tlm::TLM_WRITE_COMMAND, tags.tensor,
                                                  tags.region, trans.get_data_ptr()},
                                       now + delay.value());
  delay = sc_time::from_value(done - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

// The caller keeps the kernel's time at or before `at` (temporal decoupling).
uint64_t CacheModule::access(const MemRequest& r, uint64_t at) {
  const uint64_t now = sc_core::sc_time_stamp().value();
  tlm::tlm_generic_payload& t = below_.set(r.addr, r.bytes, r.write, r.tensor, r.region);
  t.set_data_ptr(r.data);
  sc_time delay = sc_time::from_value(at - now);
  down->b_transport(t, delay);
  return now + delay.value();
}

void CacheModule::poke(uint64_t addr, uint64_t bytes, const uint8_t* data) {
  tlm::tlm_generic_payload& t = below_.set(addr, bytes, true, 0, 0);
  t.set_data_ptr(const_cast<uint8_t*>(data));
  down->transport_dbg(t);
  t.set_data_ptr(nullptr);
}

void CacheModule::flush(const sc_time& at) { logic_->flush_at(sc_core::sc_time_stamp().value() + at.value()); }

void CacheModule::report(StatsNode& parent, const TagNames& names, double seconds) const {
  StatsNode& n = add_level_stats(parent, name(), NodeKind::Cache, logic_->stats(), names, true);
  const LevelStats& s = logic_->stats();
  const LevelTimingStats& t = logic_->timing_stats();
  const double bytes = double(s.bytes_read + s.bytes_written);
  const double peak = logic_->config().bandwidth * clock_hz_;
  n.set("bandwidth_bytes_per_s", seconds > 0 ? bytes / seconds : 0.0);
  n.set("peak_bandwidth_bytes_per_s", peak);
  n.set("utilization", seconds > 0 ? fs_to_seconds(t.busy_fs) / seconds : 0.0);
  n.set("avg_latency_cycles", t.requests ? fs_to_seconds(t.latency_sum_fs) * clock_hz_ / double(t.requests) : 0.0);
  n.set("hit_latency_cycles", uint64_t(logic_->config().latency));
  n.set("mshr_merges", t.merges);
  n.set("mshr_stalls", t.mshr_stalls);
  if (logic_->config().set_fill_cycles) n.set("set_fill_stalls", t.set_fill_stalls);  // only where spaced
  if (logic_->has_prefetcher()) {  // keys only for levels that prefetch (docs/REPORTS.md)
    const PrefetchStats& p = logic_->prefetch_stats();
    n.set("prefetch_requests", p.requests).set("prefetches_issued", p.issued);
    n.set("prefetch_useful", p.useful).set("prefetch_late", p.late).set("prefetch_useless", p.useless);
    n.set("prefetch_bytes", p.bytes);
  }
}

}  // namespace ptosim
