#include "models/dram/dram_module.h"

#include <cstdint>

namespace ptosim {
namespace {

// sc_time's own conversions at the 1 fs resolution the system sets
// (system.cpp), without their per-call lookup of the simulation context:
// they were a tenth of a miss-heavy replay. The same arithmetic as
// sc_time(double, SC_SEC) and to_seconds(), so results are bit-identical.
double fs_to_seconds(uint64_t fs) { return double(fs) * 1.0 * 1e-15; }
uint64_t seconds_to_fs(double s) {
  if (s == 0) return 0;
  volatile double t = s * 1e15 + 0.5;  // as SystemC: keeps the value out of an extended-precision register
  return uint64_t(int64_t(t));
}

}  // namespace

double DramModule::seconds(const sc_core::sc_time& t) const {
  return femtoseconds_ ? fs_to_seconds(t.value()) : t.to_seconds();
}

sc_core::sc_time DramModule::time_of(double s) const {
  return femtoseconds_ ? sc_core::sc_time::from_value(seconds_to_fs(s)) : sc_core::sc_time(s, sc_core::SC_SEC);
}

DramModule::DramModule(sc_core::sc_module_name name, const DramConfig& config, double clock_hz)
    : sc_module(name),
      up("up"),
      timing_(make_dram_timing(config)),
      clock_hz_(clock_hz),
      femtoseconds_(sc_core::sc_get_time_resolution().to_seconds() == 1e-15) {
  up.bind(*this);
}

void DramModule::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
  const AccessTags& tags = tags_of(trans);
  stats_.count(write, true, trans.get_data_length(), tags.tensor, tags.region);
  const double now = seconds(sc_core::sc_time_stamp());
  const double arrive = now + seconds(delay);
  const double done = timing_->access(arrive, trans.get_address(), trans.get_data_length(), write);
  latency_sum_ += done - arrive;
  delay = time_of(done - now);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void DramModule::report(StatsNode& parent, const TagNames& names, double seconds) const {
  StatsNode& n = add_level_stats(parent, name(), "dram", stats_, names, false);
  const double bytes = double(stats_.bytes_read + stats_.bytes_written);
  n.set("bandwidth_bytes_per_s", seconds > 0 ? bytes / seconds : 0.0);
  n.set("peak_bandwidth_bytes_per_s", timing_->peak_bandwidth());
  n.set("utilization", seconds > 0 ? timing_->busy_seconds() / seconds : 0.0);
  const uint64_t requests = stats_.accesses();
  n.set("avg_latency_cycles", requests ? latency_sum_ * clock_hz_ / double(requests) : 0.0);
  timing_->report(n, seconds);
}

}  // namespace ptosim
