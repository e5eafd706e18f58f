#pragma once
// The bottom of a plain-C++ hierarchy: counts what reaches main memory and
// answers at once. Requests that carry bytes (--check-data) read and write
// its store.
#include "sim/report/level_stats.h"
#include "models/cache/mem_port.h"
#include "models/cache/byte_store.h"

namespace ptosim {

class MemoryCounter : public MemPort {
 public:
  uint64_t access(const MemRequest& r, uint64_t at) override {
    stats_.count(r.write, true, r.bytes, r.tensor, r.region);
    if (r.data) {
      if (r.write) store_.write(r.addr, r.bytes, r.data);
      else store_.read(r.addr, r.bytes, r.data);
    }
    return at;
  }
  void poke(uint64_t addr, uint64_t bytes, const uint8_t* data) override { store_.write(addr, bytes, data); }
  const LevelStats& stats() const { return stats_; }
  const ByteStore& store() const { return store_; }

 private:
  LevelStats stats_;
  ByteStore store_;
};

}  // namespace ptosim
