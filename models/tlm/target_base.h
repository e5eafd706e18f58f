#pragma once
// The forward interface every memory module implements; only b_transport
// carries meaning here (loosely timed), the rest answer "not supported".
#include <tlm>

namespace ptosim {

class LtTarget : public tlm::tlm_fw_transport_if<> {
 public:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase&, sc_core::sc_time&) override {
    t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
};

// Initiators ignore the backward path (no DMI, no non-blocking protocol).
class LtInitiator : public tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) override {
    return tlm::TLM_COMPLETED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
};

}  // namespace ptosim

namespace ptosim {
// Targets accept any number of initiators: several spaces may map to one
// module, and the core may talk to a level that a level above also feeds.
using TargetSocket = tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 0, sc_core::SC_ZERO_OR_MORE_BOUND>;
}  // namespace ptosim
