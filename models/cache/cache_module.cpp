#include "models/cache/cache_module.h"

namespace ptosim {

using sc_core::sc_time;

CacheModule::CacheModule(sc_core::sc_module_name name, const CacheConfig& config, double clock_hz)
    : sc_module(name),
      up("up"),
      down("down"),
      logic_(config),
      latency_(sc_time(1.0 / clock_hz, sc_core::SC_SEC) * double(config.latency)),
      port_(sc_time(1.0 / clock_hz, sc_core::SC_SEC) / config.bandwidth),
      clock_hz_(clock_hz) {
  up.bind(*this);
  down.bind(*this);
  logic_.connect_below(this);
}

void CacheModule::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time arrive = now + delay;
  const sc_time start = port_.reserve(arrive, trans.get_data_length());
  delay = start - now + latency_;
  const AccessTags& tags = tags_of(trans);
  delay_ = &delay;
  logic_.request(MemRequest{trans.get_address(), trans.get_data_length(),
                            trans.get_command() == tlm::TLM_WRITE_COMMAND, tags.tensor, tags.region});
  delay_ = nullptr;
  latency_sum_ += now + delay - arrive;
  ++requests_;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void CacheModule::request(const MemRequest& r) {
  tlm::tlm_generic_payload& t = below_.set(r.addr, r.bytes, r.write, r.tensor, r.region);
  if (r.write || !delay_) {
    sc_time posted = delay_ ? *delay_ : sc_core::SC_ZERO_TIME;
    down->b_transport(t, posted);
  } else {
    down->b_transport(t, *delay_);  // the requester waits for the fill
  }
}

void CacheModule::flush(const sc_time& at) {
  sc_time d = at;
  delay_ = &d;
  logic_.flush();
  delay_ = nullptr;
}

void CacheModule::report(StatsNode& parent, const TagNames& names, double seconds) const {
  StatsNode& n = add_level_stats(parent, name(), "cache", logic_.stats(), names, true);
  const LevelStats& s = logic_.stats();
  const double bytes = double(s.bytes_read + s.bytes_written);
  const double peak = logic_.config().bandwidth * clock_hz_;
  n.set("bandwidth_bytes_per_s", seconds > 0 ? bytes / seconds : 0.0);
  n.set("peak_bandwidth_bytes_per_s", peak);
  n.set("utilization", seconds > 0 ? port_.busy_total().to_seconds() / seconds : 0.0);
  n.set("avg_latency_cycles", requests_ ? latency_sum_.to_seconds() * clock_hz_ / double(requests_) : 0.0);
}

}  // namespace ptosim
