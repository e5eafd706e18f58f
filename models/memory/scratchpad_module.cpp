#include "models/memory/scratchpad_module.h"

namespace ptosim {

using sc_core::sc_time;

ScratchpadModule::ScratchpadModule(sc_core::sc_module_name name, const MemoryConfig& config, double clock_hz)
    : sc_module(name),
      up("up"),
      config_(config),
      latency_(sc_time(1.0 / clock_hz, sc_core::SC_SEC) * double(config.latency)),
      port_(sc_time(1.0 / clock_hz, sc_core::SC_SEC) / config.bandwidth),
      clock_hz_(clock_hz) {
  up.bind(*this);
}

void ScratchpadModule::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
  if (write && config_.read_only) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  const AccessTags& tags = tags_of(trans);
  stats_.count(write, true, trans.get_data_length(), tags.tensor, tags.region);
  const sc_time now = sc_core::sc_time_stamp();
  const sc_time arrive = now + delay;
  const sc_time start = port_.reserve(arrive, trans.get_data_length());
  delay = start - now + latency_ + port_.transfer(trans.get_data_length());
  latency_sum_ += now + delay - arrive;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void ScratchpadModule::report(StatsNode& parent, const TagNames& names, double seconds) const {
  StatsNode& n = add_level_stats(parent, name(), config_.kind, stats_, names, false);
  const double bytes = double(stats_.bytes_read + stats_.bytes_written);
  n.set("bandwidth_bytes_per_s", seconds > 0 ? bytes / seconds : 0.0);
  n.set("peak_bandwidth_bytes_per_s", config_.bandwidth * clock_hz_);
  n.set("utilization", seconds > 0 ? port_.busy_total().to_seconds() / seconds : 0.0);
  const uint64_t requests = stats_.accesses();
  n.set("avg_latency_cycles", requests ? latency_sum_.to_seconds() * clock_hz_ / double(requests) : 0.0);
}

}  // namespace ptosim
