#pragma once
// Hill & Smith's all-associativity simulation (1989) for one number of
// sets: an LRU stack per set, kept only as deep as the widest
// associativity asked for, gives in one pass the hit depth of every
// reference, so one pass answers every associativity with that set count
// (a line deeper than the stack misses them all). `pto-sim curves` keeps
// one of these per distinct set count.
#include <cstdint>
#include <vector>

namespace ptosim::curves {

class SetStacks {
 public:
  SetStacks(uint64_t sets, uint32_t depth);

  // References `line`; returns its depth in its set's stack before the
  // reference (1 = most recent), or depth() + 1 when it is not there. The
  // line becomes its set's most recent.
  uint32_t touch(uint64_t line) {
    uint64_t* s = stack(line);
    const uint64_t key = line + 1;  // 0 = an empty way
    if (s[0] == key) return 1;
    uint32_t i = 1;
    while (i < depth_ && s[i] != key) ++i;
    const uint32_t found = i < depth_ ? i : depth_ - 1;  // a miss drops the deepest
    for (uint32_t j = found; j > 0; --j) s[j] = s[j - 1];
    s[0] = key;
    return i + 1;
  }
  // A whole-cache invalidate record (a one-line invalidate would leave a
  // hole that a stack cannot express: `pto-sim curves` refuses those).
  void clear();
  uint64_t sets() const { return sets_; }
  uint32_t depth() const { return depth_; }

 private:
  uint64_t* stack(uint64_t line) {
    return keys_.data() + (pow2_ ? (line & (sets_ - 1)) : (line % sets_)) * depth_;
  }
  uint64_t sets_;
  uint32_t depth_;
  bool pow2_;
  std::vector<uint64_t> keys_;  // per set, `depth_` keys, the most recent first
};

}  // namespace ptosim::curves
