#include "sim/report/hot_spots.h"

#include <algorithm>
#include <vector>

namespace ptosim {

void add_hot_spots(StatsNode& root, const std::map<std::string, std::string>& tile_tensor,
                   const std::map<std::string, std::string>& tile_shape, const std::vector<std::string>& order,
                   uint64_t n) {
  // The folded rows in the order a run without tiles lists them: by tag id
  // ("(untagged)", id 0, first).
  auto rank = [&](const std::string& name) {
    auto it = std::find(order.begin(), order.end(), name);
    return it == order.end() ? (name == "(untagged)" ? size_t(0) : order.size() + 1) : size_t(it - order.begin()) + 1;
  };
  StatsNode* levels = nullptr;
  for (auto& c : root.children)
    if (c.name == "levels") levels = &c;
  if (!levels) return;
  StatsNode hot{"hot_spots", NodeKind::Table, {}, {}};
  for (StatsNode& level : levels->children) {
    StatsNode* table = nullptr;
    for (auto& c : level.children)
      if (c.name == "tensors") table = &c;
    if (!table) continue;
    std::vector<StatsNode> tiles, tensors;
    for (StatsNode& row : table->children) {
      auto t = tile_tensor.find(row.name);
      if (t == tile_tensor.end()) {  // untagged, or a tensor too big to tile
        tensors.push_back(row);
        continue;
      }
      StatsNode tile = row;
      tile.values.insert(tile.values.begin(), {"tensor", t->second});
      tile.values.insert(tile.values.begin() + 1, {"tile", tile_shape.at(row.name)});
      tiles.push_back(tile);
      auto into = std::find_if(tensors.begin(), tensors.end(), [&](const StatsNode& r) { return r.name == t->second; });
      if (into == tensors.end()) {
        tensors.push_back(StatsNode{t->second, NodeKind::Row, {}, {}});
        into = tensors.end() - 1;
        for (const char* k : {"accesses", "misses", "bytes"}) into->set(k, uint64_t(0));
      }
      for (const char* k : {"accesses", "misses", "bytes"}) into->set(k, into->u64(k) + row.u64(k));
    }
    std::stable_sort(tensors.begin(), tensors.end(),
                     [&](const StatsNode& a, const StatsNode& b) { return rank(a.name) < rank(b.name); });
    table->children = tensors;
    if (tiles.empty()) continue;
    StatsNode& row = hot.child(level.name, NodeKind::Row);
    for (const char* key : {"accesses", "misses"}) {
      std::vector<StatsNode> top = tiles;
      std::stable_sort(top.begin(), top.end(), [&](const StatsNode& a, const StatsNode& b) { return a.u64(key) > b.u64(key); });
      while (!top.empty() && top.back().u64(key) == 0) top.pop_back();
      if (top.size() > n) top.resize(n);
      if (top.empty()) continue;
      StatsNode& t = row.child(std::string("by_") + key, NodeKind::Table);
      t.children = std::move(top);
    }
  }
  // After `levels`: the run's own tables first.
  root.children.push_back(std::move(hot));
}

}  // namespace ptosim
