#pragma once
// A cache level in time, as a SystemC module: a TLM target above, an
// initiator below, and the CacheLevel inside, which does the work and keeps
// its own clock (see cache_level.h). The module turns TLM calls into that
// clock and back, sends what the level sends below through its socket, and
// reports.
#include <systemc>
#include <tlm>

#include "models/cache/cache_level.h"
#include "sim/report/level_report.h"
#include "models/tlm/access_tags.h"
#include "models/tlm/target_base.h"

namespace ptosim {

class CacheModule : public sc_core::sc_module, public LtTarget, public LtInitiator, private MemPort {
 public:
  TargetSocket up;
  tlm::tlm_initiator_socket<> down;

  // `data`: a level that keeps its lines' bytes (--check-data).
  CacheModule(sc_core::sc_module_name name, const CacheConfig& config, double clock_hz, bool data = false);

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  // The level below is a CacheModule too (bound to `down`): the levels call
  // each other directly, as the core calls L1, instead of converting times
  // for a TLM call on every miss.
  void set_direct_below(CacheModule* below) { logic_->connect_below(&below->logic()); }
  // The same for the last level and DRAM (DramModule::port(), bound to `down` too).
  void set_direct_below(MemPort& below) { logic_->connect_below(&below); }

  CacheLevel& logic() { return *logic_; }
  const CacheLevel& logic() const { return *logic_; }
  // Several cores, a private level: one more instance, core instances()'s
  // (logic() is core 0's). The report sums them and lists each core.
  void add_core_instance();
  size_t instances() const { return 1 + others_.size(); }
  CacheLevel& instance(size_t core) { return core == 0 ? *logic_ : *others_.at(core - 1); }
  const CacheLevel& instance(size_t core) const { return core == 0 ? *logic_ : *others_.at(core - 1); }
  // Writes back every dirty line; `at` is the offset from now at which it happens.
  void flush(const sc_core::sc_time& at);
  void report(StatsNode& parent, const TagNames& names, double seconds) const;

 private:
  uint64_t access(const MemRequest& r, uint64_t at) override;  // what the level sends through `down`
  void poke(uint64_t addr, uint64_t bytes, const uint8_t* data) override;  // a host write, as transport_dbg

  void set_timing(CacheLevel& l) const;

  std::unique_ptr<CacheLevel> logic_;
  std::vector<std::unique_ptr<CacheLevel>> others_;  // cores 1.. of a private level
  bool data_;
  TaggedPayload below_;
  double clock_hz_;
};

}  // namespace ptosim
