#pragma once
// An explicitly managed memory with no tags and no misses (register file,
// shared scratchpad, NPU buffers): latency plus the port. A contiguous
// transfer occupies the port for bytes / bandwidth cycles; a strided one
// (StrideExtension) adds the cycles its bank conflicts serialise. A read-only
// memory refuses writes except host fills (FillExtension). --check-data:
// MemoryModule::move_data.
#include "models/tlm/memory_module.h"

namespace ptosim {

class ScratchpadModule : public MemoryModule {
 public:
  using MemoryModule::MemoryModule;
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  void report(StatsNode& parent, const TagNames& names, double seconds) const override;
};

}  // namespace ptosim
