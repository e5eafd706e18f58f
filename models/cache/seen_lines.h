#pragma once
// The set of lines a level has ever been asked for (what makes a miss
// compulsory), as pages of bits: 1 bit per line touched, like Dinero IV's
// bitmap, instead of a map entry per line. A page whose every line has been
// seen gives its bits back and stays as a "full" mark, so a stream that keeps
// touching new lines (the worst case for a per-line structure) costs a few
// bytes per 4096 lines.
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace ptosim {

class SeenLines {
 public:
  // Marks `line` seen; true if it was not before.
  bool insert(uint64_t line) {
    const uint64_t id = line >> kPageShift;
    if (id != last_id_ || !last_) {
      last_ = &pages_[id];
      last_id_ = id;
    }
    Page& p = *last_;
    if (p.count == kPageLines) return false;  // full: every line seen
    if (!p.bits) p.bits.reset(new uint64_t[kWords]());
    const uint64_t i = line & (kPageLines - 1);
    uint64_t& w = p.bits[i >> 6];
    const uint64_t bit = 1ull << (i & 63);
    if (w & bit) return false;
    w |= bit;
    if (++p.count == kPageLines) p.bits.reset();
    return true;
  }
  // Pages holding bits (not full ones): what the set costs beyond its marks.
  size_t pages_with_bits() const {
    size_t n = 0;
    for (const auto& [id, p] : pages_) n += p.bits != nullptr;
    return n;
  }

 private:
  static constexpr unsigned kPageShift = 12;
  static constexpr uint64_t kPageLines = 1ull << kPageShift;
  static constexpr uint64_t kWords = kPageLines / 64;
  struct Page {
    std::unique_ptr<uint64_t[]> bits;
    uint32_t count = 0;
  };
  std::unordered_map<uint64_t, Page> pages_;  // nodes do not move: last_ stays valid
  uint64_t last_id_ = 0;
  Page* last_ = nullptr;
};

}  // namespace ptosim
