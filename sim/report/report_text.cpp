#include <cstdio>
#include <sstream>
#include <vector>

#include "sim/common/units.h"
#include "sim/report/render.h"

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

// Seconds scale down (ms, us, ns) where si() only scales up.
std::string secs(double v) {
  const char* prefix[] = {"", "m", "u", "n"};
  int i = 0;
  while (v > 0 && v < 1 && i < 3) { v *= 1000; ++i; }
  return fmt("%.3g ", v) + prefix[i] + "s";
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

// Regions as a tree: each indented under its parent by its last name, with
// its own figures and, where it holds others, its subtree's misses.
void region_table(std::ostringstream& o, const StatsNode& level) {
  const StatsNode* t = level.find_child("regions");
  if (!t) return;
  char buf[128];
  const char* f = "  %-20s %13s %13s %13s %13s\n";
  std::snprintf(buf, sizeof buf, f, "by region", "accesses", "misses", "bytes", "incl. misses");
  o << buf;
  for (auto& r : t->children) {
    const size_t depth = size_t(r.u64("depth"));
    const size_t slash = r.name.rfind('/');
    std::string label = std::string(2 + 2 * std::min<size_t>(depth, 4), ' ') +
                        (slash == std::string::npos ? r.name : r.name.substr(slash + 1));
    if (label.size() > 20) label = label.substr(0, 20);
    const bool holds = r.u64("inclusive_accesses") != r.u64("accesses");
    std::snprintf(buf, sizeof buf, f, label.c_str(), u(r, "accesses").c_str(), u(r, "misses").c_str(),
                  u(r, "bytes").c_str(), holds ? u(r, "inclusive_misses").c_str() : "");
    o << buf;
  }
}

// "prefix a, b, c" on one line, continued on indented lines where it would
// pass 80 columns (counts of a long run have many digits).
void items(std::ostringstream& o, const std::string& prefix, const std::vector<std::string>& parts) {
  std::string line = prefix;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string sep = i == 0 ? "" : ",";
    if (i > 0 && line.size() + sep.size() + 1 + parts[i].size() > 80) {
      o << line << sep << "\n";
      line = "    " + parts[i];
    } else {
      line += sep + (i == 0 ? "" : " ") + parts[i];
    }
  }
  o << line << "\n";
}

bool idle(const StatsNode& l) { return l.u64("reads") == 0 && l.u64("writes") == 0; }

// Per-channel row-buffer outcomes and bus utilisation; with one channel they
// repeat the level's own line, so the table is printed for two or more.
void channel_table(std::ostringstream& o, const StatsNode& l) {
  const StatsNode* t = l.find_child("channels");
  if (!t || t->children.size() < 2) return;
  char buf[128];
  const char* f = "  %-6s %12s %12s %12s %8s %16s\n";
  std::snprintf(buf, sizeof buf, f, "chan", "row hits", "row misses", "conflicts", "busy", "bytes");
  o << buf;
  for (auto& r : t->children) {
    std::snprintf(buf, sizeof buf, f, r.name.substr(0, 6).c_str(), u(r, "row_hits").c_str(), u(r, "row_misses").c_str(),
                  u(r, "row_conflicts").c_str(), pct(r.num("utilization")).c_str(), u(r, "bytes").c_str());
    o << buf;
  }
}

void level(std::ostringstream& o, const StatsNode& l) {
  o << "\n" << l.name << " (" << l.kind << ")\n";
  o << row("", "reads", "writes", "total");
  const uint64_t r = l.u64("reads"), w = l.u64("writes");
  o << row("requests", u(l, "reads"), u(l, "writes"), std::to_string(r + w));
  if (l.kind == NodeKind::Cache) {
    const uint64_t rh = l.u64("read_hits"), wh = l.u64("write_hits");
    const uint64_t rm = l.u64("read_misses"), wm = l.u64("write_misses");
    o << row("hits", std::to_string(rh), std::to_string(wh), std::to_string(rh + wh));
    o << row("misses", std::to_string(rm), std::to_string(wm), std::to_string(rm + wm));
    o << row("miss rate", pct(r ? double(rm) / r : 0), pct(w ? double(wm) / w : 0), pct(l.num("miss_rate")));
  }
  o << row("bytes", u(l, "bytes_read"), u(l, "bytes_written"),
           std::to_string(l.u64("bytes_read") + l.u64("bytes_written")));
  if (l.kind == NodeKind::Cache) {
    std::vector<std::string> ev = {"evictions " + u(l, "evictions"), "writebacks " + u(l, "writebacks")};
    if (l.find("back_invalidations")) ev.push_back("back-invalidated " + u(l, "back_invalidations"));
    items(o, "  ", ev);
    std::vector<std::string> causes = {"compulsory " + u(l, "compulsory_misses"),
                                       "capacity " + u(l, "capacity_misses"), "conflict " + u(l, "conflict_misses")};
    if (l.find("coherence_misses"))  // a private level of several cores: the fourth C
      causes.push_back("coherence " + u(l, "coherence_misses"));
    items(o, "  misses by cause: ", causes);
    if (const StatsNode* per = l.find_child("per_core"))
      for (const StatsNode& k : per->children)
        items(o, "  " + k.name + ": ", {u(k, "accesses") + " requests", u(k, "misses") + " misses",
                                         u(k, "coherence_misses") + " coherence misses",
                                         u(k, "coherence_invalidations") + " invalidated"});
    // The count beside the ratio: a ratio that falls because the requests
    // grew (or a level below sees fewer) is not a better cache.
    std::vector<std::string> demand = {u(l, "demand_misses") + " of " + u(l, "demand_requests") + " (" +
                                       pct(l.num("demand_miss_ratio")) + ")"};
    if (l.find("misses_per_1k_accesses"))
      demand.push_back(fmt("%.4g", l.num("misses_per_1k_accesses")) + " per 1000 core accesses");
    if (l.find("misses_per_kflop")) demand.push_back(fmt("%.4g", l.num("misses_per_kflop")) + " per kflop");
    if (l.find("amat_cycles")) demand.push_back("AMAT " + fmt("%.4g", l.num("amat_cycles")) + " cycles");
    items(o, "  demand misses ", demand);
    if (l.find("prefetches_issued"))
      items(o, "  prefetches: ", {"issued " + u(l, "prefetches_issued") + " of " + u(l, "prefetch_requests"),
                                  "useful " + u(l, "prefetch_useful"), "late " + u(l, "prefetch_late"),
                                  "useless " + u(l, "prefetch_useless"), "bytes " + u(l, "prefetch_bytes")});
  }
  if (l.find("peak_bandwidth_bytes_per_s")) {
    o << "  bandwidth " << si(l.num("bandwidth_bytes_per_s"), "B/s") << " of "
      << si(l.num("peak_bandwidth_bytes_per_s"), "B/s") << " peak (" << pct(l.num("utilization")) << " busy)\n";
    o << "  avg latency " << fmt("%.1f", l.num("avg_latency_cycles")) << " cycles\n";
  }
  // Every DRAM node has these keys (stable schema); only a row-buffer model
  // (timing: detailed) makes them non-zero.
  if (l.u64("row_hits") + l.u64("row_misses") + l.u64("row_conflicts") > 0) {
    items(o, "  row buffer: ", {"hits " + u(l, "row_hits"), "misses " + u(l, "row_misses"),
                                "conflicts " + u(l, "row_conflicts")});
  }
  channel_table(o, l);
  tag_table(o, l, "tensors", "by tensor");
  region_table(o, l);
}

void roofline(std::ostringstream& o, const StatsNode& root) {
  const StatsNode* roof = root.find_child("roofline");
  if (!roof) return;
  o << "roofline\n";
  o << "  flops " << root.u64("flops") << ", " << fmt("%.4g", root.num("gflops_per_s")) << " GFLOP/s\n";
  o << "  arithmetic intensity " << fmt("%.4g", root.num("arithmetic_intensity")) << " flop/B over "
    << root.u64("dram_bytes") << " DRAM bytes\n";
  if (root.u64("flops") == 0)  // a replayed trace has no compute: a zero bound says nothing
    o << "  bound: none without compute events\n";
  else
    o << "  bound " << si(roof->num("bound_flops_per_s"), "FLOP/s") << " (" << to_string(*roof->find("bound"))
      << "-bound), " << pct(roof->num("achieved_fraction")) << " of it achieved\n";
  o << "  peak " << si(root.num("peak_flops_per_s"), "FLOP/s") << " compute, "
    << si(root.num("peak_dram_bandwidth_bytes_per_s"), "B/s") << " DRAM\n";
}

// A sampled run (run --sample): what was measured, then each headline
// estimate with its interval.
void sample_block(std::ostringstream& o, const StatsNode& root) {
  const StatsNode* n = root.find_child("sample");
  if (!n) return;
  o << "sampled: " << n->u64("units") << " units of " << n->u64("unit_accesses") << " accesses, one every "
    << n->u64("period_accesses") << " of " << n->u64("stream_accesses") << ", " << n->u64("warmup_accesses")
    << " warming each in detail, " << to_string(*n->find("warming")) << " warming between\n";
  const StatsNode* list = n->find_child("intervals");
  if (!list) return;
  const bool counted = to_string(*n->find("warming")) == "functional";
  o << "  estimates, " << fmt("%.0f", n->num("confidence") * 100) << " % intervals (Student's t"
    << (counted ? "; first touches counted, not sampled" : "") << "):\n";
  for (const StatsNode& r : list->children)
    o << "  " << r.name << " " << fmt("%.6g", r.num("estimate")) << " +- " << fmt("%.3g", r.num("half_width")) << " ("
      << fmt("%.2f", r.num("relative_half_width") * 100) << " %)\n";
}

// A value of a generic node as people read it: a rate in B/s scaled
// (si), a utilisation as a percentage, anything else as stored (counts are
// integers; a raw double such as 6897912713.472486 says nothing more).
std::string generic_value(const std::string& k, const StatValue& v) {
  const double* d = std::get_if<double>(&v);
  auto ends = [&](const char* s) {
    const size_t n = std::char_traits<char>::length(s);
    return k.size() >= n && k.compare(k.size() - n, n, s) == 0;
  };
  if (d && ends("_bytes_per_s")) return si(*d, "B/s");
  if (d && ends("utilization")) return pct(*d);
  return to_string(v);
}

// Any other node (trace, program summaries): "name:" then key=value pairs,
// wrapped so that no line passes 80 columns.
void generic(std::ostringstream& o, const StatsNode& n, int depth) {
  const std::string pad(size_t(depth) * 2, ' ');
  std::string line = pad + n.name + ":";
  for (auto& [k, v] : n.values) {
    const std::string item = " " + k + "=" + generic_value(k, v);
    if (line.size() + item.size() > 80 && line.size() > pad.size() + 4) {
      o << line << "\n";
      line = pad + "   ";
    }
    line += item;
  }
  o << line << "\n";
  for (auto& c : n.children) generic(o, c, depth + 1);
}

// Run-level keys the header and the roofline block print themselves.
bool printed_in_header(const std::string& k) {
  static const char* keys[] = {"config", "source", "cycles", "seconds", "clock_hz", "flops", "gflops_per_s",
                               "dram_bytes", "arithmetic_intensity", "peak_flops_per_s",
                               "peak_dram_bandwidth_bytes_per_s", "pto_sim_version", "command_line", "started_at",
                               "wall_seconds", "source_hash", "config_file", "config_hash"};
  for (const char* key : keys)
    if (k == key) return true;
  return false;
}

}  // namespace

std::string render_text(const StatsNode& root) {
  std::ostringstream o;
  std::string head = "pto-sim: config " + to_string(*root.find("config"));
  if (const StatValue* s = root.find("source")) {
    // A long path keeps its end (the file name) and loses its start.
    std::string src = to_string(*s);
    const size_t room = head.size() + 10 < 80 ? 80 - head.size() - 10 : 0;
    if (src.size() > room && room > 3) src = "..." + src.substr(src.size() - (room - 3));
    head += ", source " + src;
  }
  o << head << "\n";
  const double cycles = root.num("cycles");
  o << "cycles " << fmt("%.0f", cycles) << " (" << secs(root.num("seconds")) << " at "
    << units::format_frequency(root.num("clock_hz")) << ")\n";
  if (const StatsNode* core = root.find_child("core")) {
    items(o, "core: ", {u(*core, "accesses") + " accesses (" + u(*core, "reads") + " reads", u(*core, "writes") + " writes)",
                        u(*core, "window_stalls") + " miss-window stalls"});
    if (const StatsNode* per = core->find_child("per_core"))
      for (const StatsNode& k : per->children)
        items(o, "  " + k.name + ": ", {u(k, "accesses") + " accesses", u(k, "flops") + " flops",
                                         fmt("%.0f", k.num("barrier_wait_cycles")) + " cycles waiting at barriers"});
  }
  // What produced the report, in short (the JSON has the command line).
  if (root.find("pto_sim_version")) {
    auto str = [&](const char* k) { const StatValue* v = root.find(k); return v ? to_string(*v) : std::string(); };
    items(o, "run: ", {"pto-sim " + str("pto_sim_version"), "started " + str("started_at"),
                       fmt("%.3g s wall", root.num("wall_seconds")), "config " + str("config_hash"),
                       "source " + (str("source_hash").empty() ? std::string("(stdin)") : str("source_hash"))});
  }
  sample_block(o, root);
  roofline(o, root);
  for (auto& [k, v] : root.values) {
    if (printed_in_header(k)) continue;
    o << k << ": " << to_string(v) << "\n";
  }
  if (const StatsNode* levels = root.find_child("levels"))
    for (auto& l : levels->children)
      if (!idle(l) || l.kind == NodeKind::Cache || l.kind == NodeKind::Dram) level(o, l);
  for (auto& c : root.children) {
    // The resolved config is `pto-sim config show`'s business; empty objects say nothing.
    if (c.name == "levels" || c.name == "core" || c.name == "roofline" || c.name == "config_resolved" ||
        c.name == "sample")
      continue;
    if (c.values.empty() && c.children.empty()) continue;
    if (c.name == "hot_spots") {
      o << "\nhot spots (tensor tiles)\n";
      for (const StatsNode& l : c.children)
        for (const char* key : {"accesses", "misses"})
          if (const StatsNode* t = l.find_child(std::string("by_") + key)) {
            std::vector<std::string> parts;
            for (const StatsNode& r : t->children) parts.push_back(r.name + " " + u(r, key));
            items(o, "  " + l.name + ", most " + key + ": ", parts);
          }
      continue;
    }
    if (c.name == "by_line" || c.name == "epochs") {  // long tables: JSON (and annotate, --epoch-csv) show them
      o << "\n" << c.name << ": " << c.children.size() << " rows (in the JSON report)\n";
      continue;
    }
    o << "\n";
    generic(o, c, 0);
  }
  return o.str();
}

}  // namespace ptosim
