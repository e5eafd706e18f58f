#pragma once
// Open-addressing hash map from line number to a small int, for the per-access
// path of the 3C shadow (std::unordered_map allocates per node and chases
// pointers). Keys are stored +1 so that 0 marks an empty slot; no erase is needed.
// Entries are also reachable by their slot index (a value's owner may keep it
// to skip a second lookup); a grow moves entries and reports every move.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ptosim {

class LineMap {
 public:
  LineMap() { resize(1024); }

  // Returns the index of the slot of `line`, inserting `init` if absent.
  // A grow first calls moved(value, new index) for every entry.
  // Inlined: it is on every miss of the level, and a call costs as much as the probe.
  template <class Moved>
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  size_t at(uint64_t line, int32_t init, bool* inserted, Moved&& moved) {
    if (size_ >= limit_) grow(moved);  // keeps the load factor at most 1/2
    const size_t i = find(line);
    Slot& s = slots_[i];
    *inserted = s.key == 0;
    if (*inserted) {
      s.key = line + 1;
      s.value = init;
      ++size_;
    }
    return i;
  }
  int32_t& value(size_t i) { return slots_[i].value; }
  size_t size() const { return size_; }
  // The value of `line`, or null if it was never inserted.
  int32_t* lookup(uint64_t line) {
    Slot& s = slots_[find(line)];
    return s.key ? &s.value : nullptr;
  }
  // Forgets every line.
  void clear() {
    slots_.assign(slots_.size(), Slot{});
    size_ = 0;
  }

 private:
  struct Slot {
    uint64_t key = 0;
    int32_t value = 0;
  };
  size_t find(uint64_t line) const {
    size_t i = (line * 0x9E3779B97F4A7C15ull) >> 20 & mask_;
    for (;;) {
      const Slot& s = slots_[i];
      if (s.key == 0 || s.key == line + 1) return i;
      i = (i + 1) & mask_;
    }
  }
  template <class Moved>
#if defined(__GNUC__)
  __attribute__((noinline))
#endif
  void grow(Moved& moved) {
    std::vector<Slot> old;
    old.swap(slots_);
    resize(old.size() * 2);
    for (const Slot& s : old) {
      if (!s.key) continue;
      const size_t i = find(s.key - 1);
      slots_[i] = s;
      moved(s.value, i);
    }
  }

  void resize(size_t n) {  // a power of two
    slots_.resize(n);
    mask_ = n - 1;
    limit_ = n / 2;
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  size_t mask_ = 0, limit_ = 0;
};

}  // namespace ptosim
