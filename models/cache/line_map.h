#pragma once
// Open-addressing hash map from line number to a small int, for the per-access
// path of the 3C shadow (std::unordered_map allocates per node and chases
// pointers). Keys are stored +1 so that 0 marks an empty slot; no erase is needed.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ptosim {

class LineMap {
 public:
  LineMap() { slots_.resize(1024); }

  // Returns the value slot for `line`, inserting `init` if absent.
  int32_t& at(uint64_t line, int32_t init, bool* inserted) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    Slot* s = find(line);
    *inserted = s->key == 0;
    if (*inserted) {
      s->key = line + 1;
      s->value = init;
      ++size_;
    }
    return s->value;
  }
  int32_t* get(uint64_t line) {
    Slot* s = find(line);
    return s->key ? &s->value : nullptr;
  }
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t key = 0;
    int32_t value = 0;
  };
  Slot* find(uint64_t line) {
    const size_t mask = slots_.size() - 1;
    size_t i = (line * 0x9E3779B97F4A7C15ull) >> 20 & mask;
    for (;;) {
      Slot& s = slots_[i];
      if (s.key == 0 || s.key == line + 1) return &s;
      i = (i + 1) & mask;
    }
  }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.resize(old.size() * 2);
    for (const Slot& s : old) {
      if (!s.key) continue;
      Slot* d = find(s.key - 1);
      *d = s;
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace ptosim
