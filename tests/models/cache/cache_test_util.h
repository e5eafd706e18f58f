#pragma once
#include <cstdio>
#include <string>
#include <vector>

#include "models/cache/hierarchy.h"

namespace ptosim::test {

inline CacheConfig cache(const std::string& name, uint64_t size, uint32_t ways, uint32_t line,
                         const std::string& policy = "lru") {
  CacheConfig c;
  c.name = name;
  c.size = size;
  c.ways = ways;
  c.line = line;
  c.replacement = policy;
  return c;
}

inline MemRequest rd(uint64_t addr, uint64_t bytes = 4) { return MemRequest{addr, bytes, false, 0, 0}; }
inline MemRequest wr(uint64_t addr, uint64_t bytes = 4) { return MemRequest{addr, bytes, true, 0, 0}; }

// Records every request that reaches it, as "r 0x100 64" / "w 0x40 4" (" wb"
// for a writeback): the order of what a level sends below.
struct BelowRecorder : MemPort {
  std::vector<std::string> seen;
  uint64_t access(const MemRequest& r, uint64_t at) override {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%c 0x%llx %llu%s", r.write ? 'w' : 'r', (unsigned long long)r.addr,
                  (unsigned long long)r.bytes, r.writeback ? " wb" : "");
    seen.push_back(buf);
    return at;
  }
};

using Seq = std::vector<std::string>;

}  // namespace ptosim::test
