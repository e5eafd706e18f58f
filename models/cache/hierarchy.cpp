#include "models/cache/hierarchy.h"

#include <algorithm>

namespace ptosim {

void link_levels_above(const std::vector<CacheLevel*>& levels) {
  for (size_t i = 0; i < levels.size(); ++i) {
    std::vector<CacheLevel*> above(levels.begin(), levels.begin() + i);
    std::reverse(above.begin(), above.end());
    levels[i]->set_levels_above(above);
  }
}

CacheHierarchy::CacheHierarchy(const std::vector<CacheConfig>& configs, bool data) {
  std::vector<CacheLevel*> raw;
  for (auto& c : configs) {
    levels_.push_back(make_cache_level(c, data));
    raw.push_back(levels_.back().get());
  }
  link_levels_above(raw);
  for (size_t i = 0; i < raw.size(); ++i) raw[i]->connect_below(i + 1 < raw.size() ? static_cast<MemPort*>(raw[i + 1]) : &memory_);
}

void CacheHierarchy::flush() {
  for (auto& l : levels_) l->flush();
}

}  // namespace ptosim
