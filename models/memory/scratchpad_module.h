#pragma once
// An explicitly managed memory (register file, shared scratchpad, constant
// memory, NPU buffers): no tags, no misses; latency plus bandwidth.
#include <systemc>
#include <tlm>

#include "models/cache/level_report.h"
#include "sim/config/hw_config.h"
#include "models/system/access_tags.h"
#include "models/system/busy_port.h"
#include "models/system/target_base.h"

namespace ptosim {

class ScratchpadModule : public sc_core::sc_module, public LtTarget {
 public:
  TargetSocket up;
  ScratchpadModule(sc_core::sc_module_name name, const MemoryConfig& config, double clock_hz);
  // A write to a read-only memory answers TLM_COMMAND_ERROR_RESPONSE.
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  void report(StatsNode& parent, const TagNames& names, double seconds) const;
  const MemoryConfig& config() const { return config_; }

 private:
  MemoryConfig config_;
  sc_core::sc_time latency_;
  BusyPort port_;
  LevelStats stats_;
  sc_core::sc_time latency_sum_ = sc_core::SC_ZERO_TIME;
  double clock_hz_;
};

}  // namespace ptosim
