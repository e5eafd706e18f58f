#include "sim/report/level_report.h"

namespace ptosim {
namespace {

void add_tags(StatsNode& level, const char* table, const TagTable& rows, const std::vector<std::string>& names) {
  StatsNode* t = nullptr;
  for (size_t id = 0; id < rows.rows().size(); ++id) {
    const TagCounters& c = rows.rows()[id];
    if (!c.accesses) continue;
    if (!t) t = &level.child(table, NodeKind::Table);
    std::string name = id < names.size() && !names[id].empty() ? names[id] : "#" + std::to_string(id);
    t->child(name, NodeKind::Row).set("accesses", c.accesses).set("misses", c.misses).set("bytes", c.bytes);
  }
}

// Regions are tagged by path ("conv/fblock/image"): the table lists them as
// a tree, depth first, each with its own traffic (accesses / misses / bytes:
// exclusive) and its subtree's (inclusive_*). A region with no traffic of
// its own is listed when a region inside it has some.
void add_region_tree(StatsNode& level, const TagTable& rows, const std::vector<std::string>& names) {
  struct Node {
    std::string path;
    TagCounters own, all;
    size_t parent;
    std::vector<size_t> kids;
  };
  std::vector<Node> nodes;  // nodes[0]: the root (not listed)
  nodes.push_back({"", {}, {}, 0, {}});
  auto find_or_add = [&](const std::string& path) {
    size_t at = 0, parent = 0;
    for (;;) {
      const size_t slash = path.find('/', at);
      const std::string prefix = path.substr(0, slash);
      size_t found = 0;
      for (size_t k : nodes[parent].kids)
        if (nodes[k].path == prefix) found = k;
      if (!found) {
        nodes.push_back({prefix, {}, {}, parent, {}});
        found = nodes.size() - 1;
        nodes[parent].kids.push_back(found);
      }
      parent = found;
      if (slash == std::string::npos) return parent;
      at = slash + 1;
    }
  };
  for (size_t id = 0; id < rows.rows().size(); ++id) {
    const TagCounters& c = rows.rows()[id];
    if (!c.accesses) continue;
    const std::string path = id < names.size() && !names[id].empty() ? names[id] : "#" + std::to_string(id);
    Node& n = nodes[find_or_add(path)];
    n.own += c;
  }
  if (nodes.size() == 1) return;
  // Children come after their parents: sum bottom-up.
  for (size_t k = nodes.size(); k-- > 1;) {
    Node& n = nodes[k];
    n.all += n.own;
    nodes[n.parent].all += n.all;
  }
  StatsNode& t = level.child("regions", NodeKind::Table);
  std::vector<std::pair<size_t, uint64_t>> stack;  // node, depth
  for (size_t k = nodes[0].kids.size(); k-- > 0;) stack.push_back({nodes[0].kids[k], 0});
  while (!stack.empty()) {
    const auto [k, depth] = stack.back();
    stack.pop_back();
    const Node& n = nodes[k];
    t.child(n.path, NodeKind::Row)
        .set("accesses", n.own.accesses).set("misses", n.own.misses).set("bytes", n.own.bytes)
        .set("depth", depth)
        .set("inclusive_accesses", n.all.accesses).set("inclusive_misses", n.all.misses)
        .set("inclusive_bytes", n.all.bytes);
    for (size_t c = n.kids.size(); c-- > 0;) stack.push_back({n.kids[c], depth + 1});
  }
}

}  // namespace

StatsNode& add_level_stats(StatsNode& parent, const std::string& name, NodeKind kind, const LevelStats& s,
                           const TagNames& names, bool with_3c) {
  StatsNode& n = parent.child(name, kind);
  n.set("reads", s.reads).set("writes", s.writes);
  n.set("read_hits", s.read_hits).set("write_hits", s.write_hits);
  n.set("read_misses", s.read_misses).set("write_misses", s.write_misses);
  n.set("miss_rate", s.miss_rate());
  // Demand: what the level was asked for, without the writebacks of the level above.
  const uint64_t demand = s.accesses() - s.writeback_requests, demand_misses = s.misses() - s.writeback_misses;
  n.set("writeback_requests", s.writeback_requests);
  n.set("demand_requests", demand).set("demand_misses", demand_misses);
  n.set("demand_miss_ratio", demand ? double(demand_misses) / double(demand) : 0.0);
  n.set("evictions", s.evictions).set("writebacks", s.writebacks);
  n.set("bytes_read", s.bytes_read).set("bytes_written", s.bytes_written);
  n.set("compulsory_misses", with_3c ? s.compulsory : 0);
  n.set("capacity_misses", with_3c ? s.capacity : 0);
  n.set("conflict_misses", with_3c ? s.conflict : 0);
  if (s.back_invalidations) n.set("back_invalidations", s.back_invalidations);
  if (s.subblocks) {
    n.set("block_misses", s.block_misses);
    n.set("compulsory_block_misses", with_3c ? s.compulsory_blocks : 0);
    n.set("capacity_block_misses", with_3c ? s.capacity_blocks : 0);
    n.set("conflict_block_misses", with_3c ? s.conflict_blocks : 0);
  }
  add_tags(n, "tensors", s.by_tensor(), names.tensors);
  add_region_tree(n, s.by_region(), names.regions);
  return n;
}

}  // namespace ptosim
