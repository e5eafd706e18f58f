#pragma once
// The unit the event pipe hands from producer to consumer: a chunk of
// Access objects in the order produced, plus the compute and name records
// with their places between them. The consumer hands each stretch of
// accesses to EventSink::accesses where it lies, without copying; the
// producer writes each access once.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace/event.h"

namespace ptosim::pipe {

constexpr uint32_t kAccesses = 2048;  // per chunk: 80 KiB
constexpr size_t kDataBytes = 1 << 20;  // --check-data: a chunk is handed over once its bytes reach this

// A compute or name record, delivered after the chunk's first `after`
// accesses.
struct Other {
  enum Kind : uint8_t {
    Compute, TensorName, RegionName, Barrier, SiteName, Footprint, HostWrite, Expect, Position, OpName, OpMark
  };
  uint32_t after;
  Kind kind;
  // Compute: flops, op | region << 16 | core << 32 | dtype << 40 | scalar << 48;
  // names (also OpName): index into names, id; SiteName: line, id; Footprint:
  // bytes, space; HostWrite / Expect: offset of the Access and its bytes in
  // `host`; Position: index of the file in names, line | col << 32; OpMark:
  // begin | core << 8, id.
  uint64_t a, b;
  uint64_t deps = 0;  // Compute: dep[0] | dep[1] << 32
  SiteId site = 0;    // Compute: its statement's site id
  uint32_t masked = 0;  // Compute: flops of masked-off lanes
};

struct alignas(64) Chunk {
  Access accesses[kAccesses];
  uint32_t count = 0;               // accesses used
  std::vector<Other> others;        // in order
  std::vector<std::string> names;   // TensorName / RegionName / Position text
  std::vector<uint8_t> data;        // --check-data: the bytes of the chunk's writes, in order
  std::vector<uint8_t> host;        // --check-data: HostWrite / Expect records (an Access, then its bytes)
};

}  // namespace ptosim::pipe
