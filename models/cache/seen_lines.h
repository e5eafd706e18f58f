#pragma once
// The set of lines a level has ever been asked for (what makes a miss
// compulsory), as pages of bits: 1 bit per line touched, like Dinero IV's
// bitmap, instead of a map entry per line. A page whose every line has been
// seen gives its bits back and stays as a "full" mark, so a stream that keeps
// touching new lines (the worst case for a per-line structure) costs a few
// bytes per 4096 lines.
//
// Pages are found through a radix table: a directory of 2^12 pages (2^24
// lines) per hash-map entry, the last directory kept at hand, so a random
// miss over a working set of up to 2^24 lines costs two array indexings and
// no hash lookup.
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace ptosim {

class SeenLines {
 public:
  // Marks `line` seen; true if it was not before.
#if defined(__GNUC__)
  __attribute__((always_inline))
#endif
  bool
  insert(uint64_t line) {
    const uint64_t dir_id = line >> (kPageShift + kDirShift);
    if (dir_id != last_dir_id_ || !last_dir_) {
      last_dir_ = &dirs_[dir_id];
      if (!last_dir_->pages) last_dir_->pages.reset(new Page[kDirPages]());
      last_dir_id_ = dir_id;
    }
    Page& p = last_dir_->pages[(line >> kPageShift) & (kDirPages - 1)];
    if (p.count == kPageLines) return false;  // full: every line seen
    if (!p.bits) p.bits = new uint64_t[kWords]();
    const uint64_t i = line & (kPageLines - 1);
    uint64_t& w = p.bits[i >> 6];
    const uint64_t bit = 1ull << (i & 63);
    if (w & bit) return false;
    w |= bit;
    if (++p.count == kPageLines) {
      delete[] p.bits;
      p.bits = nullptr;
    }
    return true;
  }
  // Whether `line` has been seen (marks nothing).
  bool contains(uint64_t line) const {
    auto d = dirs_.find(line >> (kPageShift + kDirShift));
    if (d == dirs_.end() || !d->second.pages) return false;
    const Page& p = d->second.pages[(line >> kPageShift) & (kDirPages - 1)];
    if (p.count == kPageLines) return true;
    const uint64_t i = line & (kPageLines - 1);
    return p.bits && (p.bits[i >> 6] >> (i & 63) & 1);
  }
  // Forgets `line` (Dinero IV's one-block invalidate of a level with sub-blocks).
  void erase(uint64_t line) {
    auto d = dirs_.find(line >> (kPageShift + kDirShift));
    if (d == dirs_.end() || !d->second.pages) return;
    Page& p = d->second.pages[(line >> kPageShift) & (kDirPages - 1)];
    const uint64_t i = line & (kPageLines - 1);
    if (p.count == kPageLines) {  // a full mark gets its bits back
      p.bits = new uint64_t[kWords];
      for (uint64_t w = 0; w < kWords; ++w) p.bits[w] = ~0ull;
    } else if (!p.bits || !(p.bits[i >> 6] >> (i & 63) & 1)) {
      return;
    }
    p.bits[i >> 6] &= ~(1ull << (i & 63));
    --p.count;
  }
  // Forgets every line (Dinero IV's whole-cache invalidate).
  void clear() {
    dirs_.clear();
    last_dir_id_ = 0;
    last_dir_ = nullptr;
  }

 private:
  static constexpr unsigned kPageShift = 12, kDirShift = 12;
  static constexpr uint64_t kPageLines = 1ull << kPageShift, kDirPages = 1ull << kDirShift;
  static constexpr uint64_t kWords = kPageLines / 64;
  struct Page {
    uint64_t* bits = nullptr;  // null: none seen yet, or all (count says which)
    uint32_t count = 0;
    Page() = default;
    Page(const Page&) = delete;
    Page& operator=(const Page&) = delete;
    ~Page() { delete[] bits; }
  };
  struct Dir {
    std::unique_ptr<Page[]> pages;
  };
  std::unordered_map<uint64_t, Dir> dirs_;  // nodes do not move: last_dir_ stays valid
  uint64_t last_dir_id_ = 0;
  Dir* last_dir_ = nullptr;
};

}  // namespace ptosim
