#include "models/tlm/dram_module.h"

#include "models/tlm/sc_fs.h"

namespace ptosim {

DramModule::DramModule(sc_core::sc_module_name name, const DramConfig& config, double clock_hz)
    : sc_module(name), up("up"), timing_(make_dram_timing(config)), clock_hz_(clock_hz) {
  up.bind(*this);
}

void DramModule::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
  const AccessTags& tags = tags_of(trans);
  stats_.count(write, true, trans.get_data_length(), tags.tensor, tags.region);
  const Fs now = now_fs();
  const Fs arrive = now + to_fs(delay);
  const Fs done = timing_->access(arrive, trans.get_address(), trans.get_data_length(), write);
  latency_sum_ += done - arrive;
  delay = to_sc_time(done - now);
  if (unsigned char* data = trans.get_data_ptr()) {
    if (write) store_.write(trans.get_address(), trans.get_data_length(), data);
    else store_.read(trans.get_address(), trans.get_data_length(), data);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int DramModule::transport_dbg(tlm::tlm_generic_payload& trans) {
  if (trans.get_command() != tlm::TLM_WRITE_COMMAND || !trans.get_data_ptr()) return 0;
  store_.write(trans.get_address(), trans.get_data_length(), trans.get_data_ptr());
  return trans.get_data_length();
}

void DramModule::report(StatsNode& parent, const TagNames& names, double seconds) const {
  StatsNode& n = add_level_stats(parent, name(), NodeKind::Dram, stats_, names, false);
  const double bytes = double(stats_.bytes_read + stats_.bytes_written);
  n.set("bandwidth_bytes_per_s", seconds > 0 ? bytes / seconds : 0.0);
  n.set("peak_bandwidth_bytes_per_s", timing_->peak_bandwidth());
  n.set("utilization", seconds > 0 ? fs_to_seconds(timing_->busy()) / seconds : 0.0);
  const uint64_t requests = stats_.accesses();
  n.set("avg_latency_cycles", requests ? fs_to_seconds(latency_sum_) * clock_hz_ / double(requests) : 0.0);
  timing_->report(n, seconds);
}

}  // namespace ptosim
