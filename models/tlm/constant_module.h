#pragma once
// Constant memory: read-only (host fills aside), a sibling of the scratchpad
// with two extras. Broadcast: a read of the same address and size as the
// immediately preceding read (every lane of a vector reading one constant) is
// served by that read: it costs no port time and completes with it. Backing:
// when the config names a cache in `backing:`, the constants live in DRAM
// behind a private constant cache with that cache's geometry (exact hits /
// misses, CacheLevel logic); a read that misses adds what one line costs an
// idle DRAM (DramTiming::idle_miss). Backing by the DRAM itself
// means every read that is not a broadcast pays that cost.
// With --check-data (`data`) the constant cache keeps its lines' bytes and
// fills them from this memory's store; a host fill updates the copy it
// holds (write-update: a host write reaches every copy).
#include <memory>

#include "models/cache/cache_level.h"
#include "models/tlm/memory_module.h"

namespace ptosim {

class ConstantModule : public MemoryModule {
 public:
  // `cache` is the geometry of the constant cache (null = none); `miss_time`
  // is what a read that misses it (or any read, when `backed` without a cache) adds.
  ConstantModule(sc_core::sc_module_name name, const MemoryConfig& config, double clock_hz, const CacheConfig* cache,
                 bool backed, Fs miss_time, bool data = false);
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;
  void report(StatsNode& parent, const TagNames& names, double seconds) const override;
  uint64_t broadcasts() const { return broadcasts_; }
  const CacheLevel* cache() const { return cache_.get(); }

 private:
  // Below the constant cache: counts the line fills that come from DRAM
  // (their time is the flat miss cost added by b_transport), with their
  // bytes from the memory's store when they carry data.
  struct Backing : MemPort {
    uint64_t reads = 0, bytes = 0;
    ByteStore* store = nullptr;
    uint64_t access(const MemRequest& r, uint64_t at) override {
      ++reads;
      bytes += r.bytes;
      if (r.data) store->read(r.addr, r.bytes, r.data);
      return at;
    }
    void poke(uint64_t addr, uint64_t n, const uint8_t* data) override { store->write(addr, n, data); }
  };

  Backing backing_;
  std::unique_ptr<CacheLevel> cache_;
  bool backed_;
  Fs miss_time_;
  bool have_last_ = false;
  uint64_t last_addr_ = 0, last_bytes_ = 0;
  Fs last_done_ = 0;
  uint64_t broadcasts_ = 0;
};

}  // namespace ptosim
