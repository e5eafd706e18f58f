#include "models/tlm/memory_module.h"

#include "models/tlm/fill_extension.h"
#include "models/tlm/sc_fs.h"
#include "models/tlm/stride_extension.h"

namespace ptosim {

namespace {
NodeKind node_kind(MemoryKind k) {
  switch (k) {
    case MemoryKind::Register: return NodeKind::Register;
    case MemoryKind::Constant: return NodeKind::Constant;
    case MemoryKind::Scratchpad: break;
  }
  return NodeKind::Scratchpad;
}
}  // namespace

MemoryModule::MemoryModule(sc_core::sc_module_name name, const MemoryConfig& config, double clock_hz)
    : sc_module(name),
      up("up"),
      config_(config),
      period_(period_fs(clock_hz)),
      latency_(cycles_to_fs(config.latency, period_)),
      port_(fs_divided(period_, config.bandwidth), config.role != BufferRole::None),
      banks_(config.banks, config.bank_width, config.bandwidth),
      clock_hz_(clock_hz) {
  up.bind(*this);
}

bool MemoryModule::admit(tlm::tlm_generic_payload& trans, Fs arrive, bool hit, Fs* port_done) {
  const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
  const uint64_t bytes = trans.get_data_length();
  if (write && config_.read_only) {
    if (!is_fill(trans)) {
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return false;
    }
    ++fills_;
    fill_bytes_ += bytes;
  }
  const AccessTags& tags = tags_of(trans);
  stats_.count(write, hit, bytes, tags.tensor, tags.region);
  // Whole cycles lost to conflicts on top of the contiguous occupancy, so a
  // conflict-free strided pattern costs exactly what a contiguous one does.
  double occupancy = double(bytes);
  const StrideExtension* s = trans.get_extension<StrideExtension>();
  if (s && s->elem_bytes && s->stride_bytes != int64_t(s->elem_bytes)) {
    const uint64_t count = (bytes + s->elem_bytes - 1) / s->elem_bytes;
    const BankCost c = banks_.strided(trans.get_address(), s->elem_bytes, count, s->stride_bytes);
    conflict_cycles_ += c.conflict_cycles;
    bank_conflicts_ += c.conflicted_waves;
    occupancy += double(c.conflict_cycles) * config_.bandwidth;
  }
  const uint64_t occupancy_bytes = uint64_t(occupancy + 0.5);
  const Fs start = port_.reserve(arrive, occupancy_bytes);
  *port_done = start + port_.transfer(occupancy_bytes);
  return true;
}

void MemoryModule::move_data(tlm::tlm_generic_payload& trans) {
  unsigned char* data = trans.get_data_ptr();
  if (!data) return;
  const bool write = trans.get_command() == tlm::TLM_WRITE_COMMAND;
  const uint64_t addr = trans.get_address(), bytes = trans.get_data_length();
  const StrideExtension* s = trans.get_extension<StrideExtension>();
  const bool strided = s && s->elem_bytes && s->stride_bytes != int64_t(s->elem_bytes);
  const uint64_t piece = strided ? s->elem_bytes : bytes;
  for (uint64_t off = 0, k = 0; off < bytes; off += piece, ++k) {
    const uint64_t a = strided ? addr + uint64_t(int64_t(k) * s->stride_bytes) : addr;
    if (write) store_.write(a, std::min(piece, bytes - off), data + off);
    else store_.read(a, std::min(piece, bytes - off), data + off);
  }
}

unsigned int MemoryModule::transport_dbg(tlm::tlm_generic_payload& trans) {
  if (trans.get_command() != tlm::TLM_WRITE_COMMAND || !trans.get_data_ptr()) return 0;
  store_.write(trans.get_address(), trans.get_data_length(), trans.get_data_ptr());
  return trans.get_data_length();
}

void MemoryModule::complete(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay, Fs now, Fs arrive, Fs done) {
  delay = to_sc_time(done - now);
  latency_sum_ += done - arrive;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

StatsNode& MemoryModule::report_common(StatsNode& parent, const TagNames& names, double seconds) const {
  StatsNode& n = add_level_stats(parent, name(), node_kind(config_.kind), stats_, names, false);
  const double bytes = double(stats_.bytes_read + stats_.bytes_written);
  n.set("bandwidth_bytes_per_s", seconds > 0 ? bytes / seconds : 0.0);
  n.set("peak_bandwidth_bytes_per_s", config_.bandwidth * clock_hz_);
  n.set("utilization", seconds > 0 ? fs_to_seconds(port_.busy_total()) / seconds : 0.0);
  const uint64_t requests = stats_.accesses();
  n.set("avg_latency_cycles", requests ? fs_to_seconds(latency_sum_) * clock_hz_ / double(requests) : 0.0);
  n.set("conflict_cycles", conflict_cycles_).set("bank_conflicts", bank_conflicts_);
  if (config_.read_only) n.set("fills", fills_).set("fill_bytes", fill_bytes_);
  return n;
}

}  // namespace ptosim
