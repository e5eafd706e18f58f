#pragma once
// Line number -> small value, for lines that are resident somewhere (a wide
// set's ways, the 3C shadow's lines). Unlike a map of every line ever seen,
// its size is fixed by the number of resident lines, so memory does not
// grow with the trace and a probe stays in a table the size of the cache.
// Open addressing with linear probing at a load of at most 1/4 (at 1/2 an
// erase, with its backward shift, cost ~80 instructions on a fully
// associative level's every miss; the table stays the cache's size times
// 64 B at most), and backward-shift erase (no tombstones: probe chains
// never lengthen over a long run). Keys are stored +1 so that 0 marks an empty slot.
// The table starts small and doubles as lines come (up to the size
// `capacity` asks for): a 2^24-way fully associative level used to build a
// 1 GiB table before its first access, whatever the trace would put in it;
// now its memory follows the lines it holds (the rehash of a doubling is
// paid once per doubling, during the level's warm-up).
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <vector>

namespace ptosim {

class ResidentMap {
 public:
  // Room for `capacity` entries at once.
  explicit ResidentMap(uint64_t capacity) {
    uint64_t n = 16;
    while (n < 4 * capacity) n <<= 1;
    max_slots_ = n;
    resize(std::min<uint64_t>(n, kFirstSlots));
  }

  // The value of `line`, or nullptr if absent.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  uint32_t*
  find(uint64_t line) {
    const uint64_t key = line + 1;
    for (size_t i = home(line);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.key == key) return &s.value;
      if (s.key == 0) return nullptr;
    }
  }
  // Inserts `line` (absent) with `value`.
  void insert(uint64_t line, uint32_t value) {
    if (4 * (size_ + 1) > slots_.size() && slots_.size() < max_slots_) grow();
    ++size_;
    size_t i = home(line);
    while (slots_[i].key) i = (i + 1) & mask_;
    slots_[i] = Slot{line + 1, value};
  }
  // f(line, value) for every entry, in no particular order (the table's
  // size is at most 4 times the entries held, or 1024).
  template <class F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_)
      if (s.key) f(s.key - 1, s.value);
  }
  // Removes `line` if present.
  void erase(uint64_t line) {
    const uint64_t key = line + 1;
    size_t i = home(line);
    for (;; i = (i + 1) & mask_) {
      if (slots_[i].key == key) break;
      if (slots_[i].key == 0) return;
    }
    --size_;
    // Backward shift: move each later entry of the chain into the hole if
    // its home does not lie cyclically in (hole, its slot].
    for (size_t j = (i + 1) & mask_;; j = (j + 1) & mask_) {
      const Slot& s = slots_[j];
      if (s.key == 0) break;
      const size_t h = home(s.key - 1);
      if (((j - h) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = s;
        i = j;
      }
    }
    slots_[i] = Slot{};
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t value = 0;
  };
  // 1024 slots (16 KiB): what a 256-line level needs, so that levels of
  // ordinary sizes never grow.
  static constexpr uint64_t kFirstSlots = 1024;
  size_t home(uint64_t line) const { return size_t((line * 0x9E3779B97F4A7C15ull) >> shift_) & mask_; }
  void resize(uint64_t n) {
    slots_.assign(n, Slot{});
    mask_ = n - 1;
    shift_ = 64;
    for (uint64_t m = n; m > 1; m >>= 1) --shift_;
  }
  // Doubles the table and puts every entry back (their homes change).
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    resize(old.size() * 2);
    for (const Slot& s : old) {
      if (!s.key) continue;
      size_t i = home(s.key - 1);
      while (slots_[i].key) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  unsigned shift_ = 64;
  uint64_t size_ = 0;       // entries held
  uint64_t max_slots_ = 0;  // the table for `capacity` entries: it grows no further
};

}  // namespace ptosim
