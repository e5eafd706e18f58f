#include "sim/report/hot_spots.h"

#include <algorithm>
#include <vector>

namespace ptosim {

namespace {

// The rank of a folded row in the order a run without part tags lists its
// tensors: by tag id ("(untagged)", id 0, first).
size_t tensor_rank(const std::vector<std::string>& order, const std::string& name) {
  auto it = std::find(order.begin(), order.end(), name);
  return it == order.end() ? (name == "(untagged)" ? size_t(0) : order.size() + 1) : size_t(it - order.begin()) + 1;
}

// Folds a `tensors` table whose rows are parts of tensors (tiles, bins) back
// into one row per tensor; `part(row, tensor_row)` sees each part's row and
// the row of its tensor.
template <class Part>
void fold(StatsNode& table, const std::map<std::string, std::string>& part_tensor,
          const std::vector<std::string>& order, Part part) {
  std::vector<StatsNode> tensors;
  for (StatsNode& row : table.children) {
    auto t = part_tensor.find(row.name);
    if (t == part_tensor.end()) {  // untagged, or a tensor too big to tile
      tensors.push_back(row);
      continue;
    }
    auto into = std::find_if(tensors.begin(), tensors.end(), [&](const StatsNode& r) { return r.name == t->second; });
    if (into == tensors.end()) {
      tensors.push_back(StatsNode{t->second, NodeKind::Row, {}, {}});
      into = tensors.end() - 1;
      for (const char* k : {"accesses", "misses", "bytes"}) into->set(k, uint64_t(0));
    }
    for (const char* k : {"accesses", "misses", "bytes"}) into->set(k, into->u64(k) + row.u64(k));
    part(row, *into);
  }
  std::stable_sort(tensors.begin(), tensors.end(), [&](const StatsNode& a, const StatsNode& b) {
    return tensor_rank(order, a.name) < tensor_rank(order, b.name);
  });
  table.children = std::move(tensors);
}

StatsNode* child(StatsNode& n, const char* name) {
  for (auto& c : n.children)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace

void add_hot_spots(StatsNode& root, const std::map<std::string, std::string>& tile_tensor,
                   const std::map<std::string, std::string>& tile_shape, const std::vector<std::string>& order,
                   uint64_t n) {
  StatsNode* levels = child(root, "levels");
  if (!levels) return;
  StatsNode hot{"hot_spots", NodeKind::Table, {}, {}};
  for (StatsNode& level : levels->children) {
    StatsNode* table = child(level, "tensors");
    if (!table) continue;
    std::vector<StatsNode> tiles;
    fold(*table, tile_tensor, order, [&](const StatsNode& row, const StatsNode& tensor) {
      StatsNode tile = row;
      tile.values.insert(tile.values.begin(), {"tensor", tensor.name});
      tile.values.insert(tile.values.begin() + 1, {"tile", tile_shape.at(row.name)});
      tiles.push_back(tile);
    });
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

void add_heatmap_bins(StatsNode& root, const std::map<std::string, std::string>& bin_tensor,
                      const std::map<std::string, uint32_t>& bin_index, const std::map<std::string, uint64_t>& bytes,
                      const std::vector<std::string>& order, uint32_t bins) {
  auto ignore = [](const StatsNode&, const StatsNode&) {};
  if (StatsNode* levels = child(root, "levels"))
    for (StatsNode& level : levels->children)
      if (StatsNode* table = child(level, "tensors")) fold(*table, bin_tensor, order, ignore);
  // Each epoch's tensor rows get their bins (those with traffic), in bin order.
  if (StatsNode* epochs = child(root, "epochs"))
    for (StatsNode& e : epochs->children)
      if (StatsNode* levels = child(e, "levels"))
        for (StatsNode& level : levels->children)
          if (StatsNode* table = child(level, "tensors")) {
            fold(*table, bin_tensor, order, [&](const StatsNode& row, StatsNode& tensor) {
              StatsNode* list = child(tensor, "bins");
              if (!list) list = &tensor.child("bins", NodeKind::Table);
              StatsNode b{std::to_string(bin_index.at(row.name)), NodeKind::Row, {}, {}};
              b.set("bin", uint64_t(bin_index.at(row.name)));
              for (const char* k : {"accesses", "misses", "bytes"}) b.set(k, row.u64(k));
              list->children.push_back(std::move(b));
            });
            for (StatsNode& tensor : table->children)
              if (StatsNode* list = child(tensor, "bins"))
                std::sort(list->children.begin(), list->children.end(),
                          [](const StatsNode& a, const StatsNode& b) { return a.u64("bin") < b.u64("bin"); });
          }
  root.set("heatmap_bins", uint64_t(bins));
  StatsNode& t = root.child("heatmap_tensors", NodeKind::Table);
  std::vector<std::string> names;
  for (auto& [name, b] : bytes) names.push_back(name);
  std::stable_sort(names.begin(), names.end(),
                   [&](const std::string& a, const std::string& b) { return tensor_rank(order, a) < tensor_rank(order, b); });
  for (const std::string& name : names) {
    const uint64_t n = bytes.at(name);
    t.child(name, NodeKind::Row).set("bytes", n).set("bin_bytes", double(n) / bins);
  }
}

}  // namespace ptosim
