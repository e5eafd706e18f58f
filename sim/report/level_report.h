#pragma once
// Puts a level's counters into the stats tree under the report schema's keys.
#include <string>
#include <vector>

#include "sim/report/level_stats.h"
#include "sim/report/stats.h"

namespace ptosim {

struct TagNames {
  std::vector<std::string> tensors{"(untagged)"};
  std::vector<std::string> regions{"(untagged)"};
  std::vector<uint32_t> site_lines{0};  // a program site's source line (0: none)
  static void put(std::vector<std::string>& names, TagId id, const std::string& name) {
    if (id >= names.size()) names.resize(size_t(id) + 1);
    names[id] = name;
  }
};

StatsNode& add_level_stats(StatsNode& parent, const std::string& name, NodeKind kind,
                           const LevelStats& s, const TagNames& names, bool with_3c);

}  // namespace ptosim
