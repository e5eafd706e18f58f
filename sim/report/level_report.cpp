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

}  // namespace

StatsNode& add_level_stats(StatsNode& parent, const std::string& name, NodeKind kind, const LevelStats& s,
                           const TagNames& names, bool with_3c) {
  StatsNode& n = parent.child(name, kind);
  n.set("reads", s.reads).set("writes", s.writes);
  n.set("read_hits", s.read_hits).set("write_hits", s.write_hits);
  n.set("read_misses", s.read_misses).set("write_misses", s.write_misses);
  n.set("miss_rate", s.miss_rate());
  n.set("evictions", s.evictions).set("writebacks", s.writebacks);
  n.set("bytes_read", s.bytes_read).set("bytes_written", s.bytes_written);
  n.set("compulsory_misses", with_3c ? s.compulsory : 0);
  n.set("capacity_misses", with_3c ? s.capacity : 0);
  n.set("conflict_misses", with_3c ? s.conflict : 0);
  if (s.back_invalidations) n.set("back_invalidations", s.back_invalidations);
  add_tags(n, "tensors", s.by_tensor(), names.tensors);
  add_tags(n, "regions", s.by_region(), names.regions);
  return n;
}

}  // namespace ptosim
