#include "models/tlm/cache_module.h"

#include "sim/common/time.h"

#include <cmath>

namespace ptosim {

using sc_core::sc_time;

CacheModule::CacheModule(sc_core::sc_module_name name, const CacheConfig& config, double clock_hz, bool data)
    : sc_module(name), up("up"), down("down"), logic_(make_cache_level(config, data)), data_(data), clock_hz_(clock_hz) {
  up.bind(*this);
  down.bind(*this);
  set_timing(*logic_);
  logic_->connect_below(this);
}

void CacheModule::set_timing(CacheLevel& l) const {
  const CacheConfig& config = l.config();
  l.set_timing(uint64_t(std::llround(1e15 / clock_hz_ * config.latency)), 1e15 / clock_hz_ / config.bandwidth,
               uint64_t(std::llround(1e15 / clock_hz_ * config.set_fill_cycles)),
               uint64_t(std::llround(1e15 / clock_hz_ * config.writeback_spacing())));
}

void CacheModule::add_core_instance() {
  others_.push_back(make_cache_level(logic_->config(), data_));
  set_timing(*others_.back());
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

void CacheModule::flush(const sc_time& at) {
  for (size_t c = 0; c < instances(); ++c) instance(c).flush_at(sc_core::sc_time_stamp().value() + at.value());
}

void CacheModule::report(StatsNode& parent, const TagNames& names, double seconds) const {
  // One level however many instances: their counters summed (with one, its own).
  LevelStats s = logic_->stats();
  LevelTimingStats t = logic_->timing_stats();
  PrefetchStats p = logic_->prefetch_stats();
  for (auto& o : others_) {
    s.add(o->stats());
    const LevelTimingStats& u = o->timing_stats();
    t.busy_fs += u.busy_fs, t.latency_sum_fs += u.latency_sum_fs, t.requests += u.requests;
    t.merges += u.merges, t.mshr_stalls += u.mshr_stalls, t.set_fill_stalls += u.set_fill_stalls;
    const PrefetchStats& q = o->prefetch_stats();
    p.requests += q.requests, p.issued += q.issued, p.useful += q.useful, p.late += q.late;
    p.useless += q.useless, p.bytes += q.bytes;
  }
  StatsNode& n = add_level_stats(parent, name(), NodeKind::Cache, s, names, true);
  const double bytes = double(s.bytes_read + s.bytes_written);
  // A sliced level: a port per slice, each moving `bandwidth`.
  const uint32_t slices = logic_->config().slices;
  const double peak = logic_->config().bandwidth * clock_hz_ * slices;
  n.set("bandwidth_bytes_per_s", seconds > 0 ? bytes / seconds : 0.0);
  n.set("peak_bandwidth_bytes_per_s", peak);
  if (slices > 1) n.set("slices", uint64_t(slices));
  // Of one instance's port (one slice's), on average over the cores (the slices).
  n.set("utilization", seconds > 0 ? fs_to_seconds(t.busy_fs) / seconds / double(instances() * slices) : 0.0);
  n.set("avg_latency_cycles", t.requests ? fs_to_seconds(t.latency_sum_fs) * clock_hz_ / double(t.requests) : 0.0);
  n.set("hit_latency_cycles", uint64_t(logic_->config().latency));
  n.set("mshr_merges", t.merges);
  n.set("mshr_stalls", t.mshr_stalls);
  // The traffic the demand misses stand for: one fetch unit each (the line,
  // or the sub-block where lines have them).
  const CacheConfig& cc = logic_->config();
  n.set("demand_miss_bytes", n.u64("demand_misses") * (cc.has_subblocks() ? cc.subblock : cc.line));
  uint64_t dirty = 0;
  for (size_t c = 0; c < instances(); ++c) dirty += instance(c).dirty_count();
  n.set("dirty_lines_at_end", dirty);
  if (logic_->config().set_fill_cycles) n.set("set_fill_stalls", t.set_fill_stalls);  // only where spaced
  if (logic_->has_prefetcher()) {  // keys only for levels that prefetch (docs/REPORTS.md)
    n.set("prefetch_requests", p.requests).set("prefetches_issued", p.issued);
    n.set("prefetch_useful", p.useful).set("prefetch_late", p.late).set("prefetch_useless", p.useless);
    n.set("prefetch_bytes", p.bytes);
  }
  if (others_.empty()) return;
  // A private level of several cores: the fourth C and each core's instance.
  n.set("coherence_misses", s.coherence).set("coherence_invalidations", s.coherence_invalidations);
  StatsNode& list = n.child("per_core", NodeKind::List);
  for (size_t c = 0; c < instances(); ++c) {
    const LevelStats& k = instance(c).stats();
    list.child("core" + std::to_string(c), NodeKind::Row)
        .set("accesses", k.accesses())
        .set("misses", k.misses())
        .set("miss_rate", k.miss_rate())
        .set("coherence_misses", k.coherence)
        .set("coherence_invalidations", k.coherence_invalidations)
        .set("bytes_read", k.bytes_read)
        .set("bytes_written", k.bytes_written);
  }
}

}  // namespace ptosim
