#pragma once
// 3C classification of a level's misses (Hill's definitions, as Dinero IV):
// compulsory = first reference to the line at this level; capacity = would
// also miss in a fully associative LRU cache of the same number of lines;
// conflict = the rest. The shadow sees every request the level sees and
// allocates exactly when the level would, so the three always sum to misses.
#include <cstdint>
#include <vector>

#include "models/cache/line_map.h"

namespace ptosim {

enum class MissClass : uint8_t { Compulsory, Capacity, Conflict };

class MissClassifier {
 public:
  explicit MissClassifier(uint64_t lines);

  // Records a request; `level_hit` is what the real level answered. Returns
  // the class when the level missed (ignored on hits).
  MissClass observe(uint64_t line, bool level_hit, bool allocate_on_miss);

 private:
  static constexpr int32_t kAbsent = -1;  // seen before, not in the shadow
  struct Node {
    uint64_t line;
    int32_t prev, next;
  };
  void unlink(int32_t n);
  void push_front(int32_t n);

  LineMap where_;  // line -> node index, or kAbsent once evicted
  std::vector<Node> nodes_;
  uint64_t capacity_;
  int32_t head_ = -1, tail_ = -1;
};

}  // namespace ptosim
