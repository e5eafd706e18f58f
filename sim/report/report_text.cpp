#include <cstdio>
#include <sstream>

#include "sim/config/units.h"
#include "sim/report/report.h"

namespace ptosim {
namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string pct(double v) { return fmt("%.2f%%", v * 100); }

std::string si(double v, const char* unit) {
  const char* prefix[] = {"", "k", "M", "G", "T"};
  int i = 0;
  while (v >= 1000 && i < 4) { v /= 1000; ++i; }
  return fmt("%.3g ", v) + prefix[i] + unit;
}

std::string row(const std::string& label, const std::string& a, const std::string& b, const std::string& c) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "  %-14s %16s %16s %16s\n", label.c_str(), a.c_str(), b.c_str(), c.c_str());
  return buf;
}

std::string u(const StatsNode& n, const char* k) { return std::to_string(n.u64(k)); }

void tag_table(std::ostringstream& o, const StatsNode& level, const char* table, const char* title) {
  const StatsNode* t = level.find_child(table);
  if (!t) return;
  o << row(title, "accesses", "misses", "bytes");
  for (auto& r : t->children) o << row("  " + r.name.substr(0, 12), u(r, "accesses"), u(r, "misses"), u(r, "bytes"));
}

bool idle(const StatsNode& l) { return l.u64("reads") == 0 && l.u64("writes") == 0; }

void level(std::ostringstream& o, const StatsNode& l) {
  o << "\n" << l.name << " (" << l.kind << ")\n";
  o << row("", "reads", "writes", "total");
  const uint64_t r = l.u64("reads"), w = l.u64("writes");
  o << row("requests", u(l, "reads"), u(l, "writes"), std::to_string(r + w));
  if (l.kind == "cache") {
    const uint64_t rh = l.u64("read_hits"), wh = l.u64("write_hits");
    const uint64_t rm = l.u64("read_misses"), wm = l.u64("write_misses");
    o << row("hits", std::to_string(rh), std::to_string(wh), std::to_string(rh + wh));
    o << row("misses", std::to_string(rm), std::to_string(wm), std::to_string(rm + wm));
    o << row("miss rate", pct(r ? double(rm) / r : 0), pct(w ? double(wm) / w : 0), pct(l.num("miss_rate")));
  }
  o << row("bytes", u(l, "bytes_read"), u(l, "bytes_written"),
           std::to_string(l.u64("bytes_read") + l.u64("bytes_written")));
  if (l.kind == "cache") {
    o << "  evictions " << l.u64("evictions") << ", writebacks " << l.u64("writebacks");
    if (l.find("back_invalidations")) o << ", back-invalidated " << l.u64("back_invalidations");
    o << "\n  misses by cause: compulsory " << l.u64("compulsory_misses") << ", capacity "
      << l.u64("capacity_misses") << ", conflict " << l.u64("conflict_misses") << "\n";
  }
  if (l.find("peak_bandwidth_bytes_per_s")) {
    o << "  bandwidth " << si(l.num("bandwidth_bytes_per_s"), "B/s") << " of " << si(l.num("peak_bandwidth_bytes_per_s"), "B/s")
      << " peak (" << pct(l.num("utilization")) << " busy), avg latency " << fmt("%.1f", l.num("avg_latency_cycles"))
      << " cycles\n";
  }
  if (l.find("row_hits")) {
    o << "  row buffer: hits " << l.u64("row_hits") << ", misses " << l.u64("row_misses") << ", conflicts "
      << l.u64("row_conflicts") << "\n";
  }
  tag_table(o, l, "tensors", "by tensor");
  tag_table(o, l, "regions", "by region");
}

void generic(std::ostringstream& o, const StatsNode& n, int depth) {
  std::string pad(size_t(depth) * 2, ' ');
  o << pad << n.name << ":";
  for (auto& [k, v] : n.values) o << " " << k << "=" << to_string(v);
  o << "\n";
  for (auto& c : n.children) generic(o, c, depth + 1);
}

}  // namespace

std::string render_text(const StatsNode& root) {
  std::ostringstream o;
  o << "pto-sim: config " << to_string(*root.find("config"));
  if (const StatValue* s = root.find("source")) o << ", source " << to_string(*s);
  o << "\n";
  const double cycles = root.num("cycles");
  o << "cycles " << fmt("%.0f", cycles) << " (" << si(root.num("seconds"), "s") << " at "
    << units::format_frequency(root.num("clock_hz")) << ")\n";
  if (const StatsNode* core = root.find_child("core")) {
    o << "core: " << core->u64("accesses") << " accesses (" << core->u64("reads") << " reads, " << core->u64("writes")
      << " writes), " << core->u64("flops") << " flops, " << core->u64("window_stalls") << " miss-window stalls\n";
  }
  for (auto& [k, v] : root.values) {
    if (k == "config" || k == "source" || k == "cycles" || k == "seconds" || k == "clock_hz") continue;
    o << k << ": " << to_string(v) << "\n";
  }
  if (const StatsNode* levels = root.find_child("levels"))
    for (auto& l : levels->children)
      if (!idle(l) || l.kind == "cache" || l.kind == "dram") level(o, l);
  for (auto& c : root.children)
    if (c.name != "levels" && c.name != "core") { o << "\n"; generic(o, c, 0); }
  return o.str();
}

}  // namespace ptosim
