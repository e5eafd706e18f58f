#pragma once
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

}  // namespace ptosim::test
