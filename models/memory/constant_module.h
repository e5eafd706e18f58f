#pragma once
// Constant memory: a read-only scratchpad (host fills aside) with two extras.
// Broadcast: a read of the same address and size as the immediately preceding
// read (every lane of a vector reading one constant) is served by that read:
// it costs no port time and completes with it. Backing: when the config names
// a cache in `backing:`, the constants live in DRAM behind a private constant
// cache with that cache's geometry (exact hits / misses, CacheLevel logic); a
// read that misses adds the DRAM latency (`dram.latency`). Backing by the
// DRAM itself means every read that is not a broadcast pays that latency.
// With --check-data (`data`) the constant cache keeps its lines' bytes and
// fills them from this memory's store; a host fill updates the copy it
// holds (write-update: a host write reaches every copy).
#include <memory>

#include "models/cache/cache_level.h"
#include "models/memory/scratchpad_module.h"

namespace ptosim {

class ConstantModule : public ScratchpadModule, private MemPort {
 public:
  // `cache` is the geometry of the constant cache (null = none); `miss_seconds`
  // is what a read that misses it (or any read, when `backed` without a cache) adds.
  ConstantModule(sc_core::sc_module_name name, const MemoryConfig& config, double clock_hz, const CacheConfig* cache,
                 bool backed, double miss_seconds, bool data = false);
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;
  void report(StatsNode& parent, const TagNames& names, double seconds) const override;
  uint64_t broadcasts() const { return broadcasts_; }
  const CacheLevel* cache() const { return cache_.get(); }

 private:
  uint64_t access(const MemRequest& r, uint64_t at) override;  // a constant-cache line fill from DRAM
  void poke(uint64_t addr, uint64_t bytes, const uint8_t* data) override { store_.write(addr, bytes, data); }

  std::unique_ptr<CacheLevel> cache_;
  bool backed_;
  sc_core::sc_time miss_time_;
  bool have_last_ = false;
  uint64_t last_addr_ = 0, last_bytes_ = 0;
  sc_core::sc_time last_done_ = sc_core::SC_ZERO_TIME;
  uint64_t broadcasts_ = 0, backing_reads_ = 0, backing_bytes_ = 0;
};

}  // namespace ptosim
