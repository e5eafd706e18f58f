#include "models/tlm/scratchpad_module.h"

#include "models/tlm/sc_fs.h"

namespace ptosim {

void ScratchpadModule::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const Fs now = now_fs();
  const Fs arrive = now + to_fs(delay);
  Fs port_done;
  if (!admit(trans, arrive, true, &port_done)) return;
  move_data(trans);
  complete(trans, delay, now, arrive, port_done + latency_);
}

void ScratchpadModule::report(StatsNode& parent, const TagNames& names, double seconds) const {
  report_common(parent, names, seconds);
}

}  // namespace ptosim
