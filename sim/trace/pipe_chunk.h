#pragma once
// The unit the event pipe hands from producer to consumer: a chunk of 16-byte
// slots plus one code byte per slot. An untagged access (every din record)
// takes one slot, {addr, bytes}, and its code is its kind; the consumer
// rebuilds the Access. Any other access is an Access object in three slots,
// which the consumer passes on where it lies. Keeping the common record at
// 16 bytes keeps a chunk small enough to stay in the caches between the two
// threads.
#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "sim/trace/event.h"

namespace ptosim::pipe {

struct Slot {
  uint64_t a, b;
};

// An enum, not uint8_t: stores of a char type would alias every other
// object and force the producer's cursor out of registers.
enum class Code : uint8_t {
  Read = 0, Write = 1, Fetch = 2, Fill = 3,  // untagged access: Slot{addr, bytes}
  Access,      // an Access object, kAccessSlots long
  Compute,     // Slot{flops, op | region << 16}
  TensorName,  // Slot{index into names, id}
  RegionName,
  End,  // after the last record: the consumer's loop needs no count check
};

constexpr uint32_t kSlots = 2048;  // 34 KiB of records per chunk
constexpr uint32_t kAccessSlots = 3;
static_assert(sizeof(Access) <= kAccessSlots * sizeof(Slot) && alignof(Access) <= alignof(Slot));

struct alignas(64) Chunk {
  // Storage for slot i; records are created there with placement new.
  void* at(uint32_t i) { return storage_ + i * sizeof(Slot); }
  const void* at(uint32_t i) const { return storage_ + i * sizeof(Slot); }
  Code& code(uint32_t i) { return codes_[i]; }
  Code code(uint32_t i) const { return codes_[i]; }

  std::vector<std::string> names;  // TensorName / RegionName text

 private:
  // A record may start at any index below kSlots, so the longest one may run
  // kAccessSlots - 1 slots past it; then comes the End code.
  static constexpr uint32_t kCapacity = kSlots + kAccessSlots;
  alignas(Slot) unsigned char storage_[kCapacity * sizeof(Slot)];
  Code codes_[kCapacity];
};

inline bool is_plain(const Access& a) {
  return (a.space | a.tensor | a.region | a.elem_bytes) == 0 && a.stride == 0;
}

}  // namespace ptosim::pipe
