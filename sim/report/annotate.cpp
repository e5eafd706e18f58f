#include "sim/report/annotate.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

namespace ptosim {
namespace {

struct LineFigures {
  uint64_t line = 0, accesses = 0, dram = 0;
  double cycles = 0;
  std::vector<uint64_t> misses;  // per column level

  // The total row adds every figure of a line; one place, so a new column
  // cannot be left out of it.
  LineFigures& operator+=(const LineFigures& f) {
    accesses += f.accesses;
    dram += f.dram;
    cycles += f.cycles;
    for (size_t i = 0; i < f.misses.size() && i < misses.size(); ++i) misses[i] += f.misses[i];
    return *this;
  }
};

double key_of(const LineFigures& f, const AnnotateOptions& o, size_t sort_col) {
  if (o.sort == "accesses") return double(f.accesses);
  if (o.sort == "dram_bytes") return double(f.dram);
  if (o.sort == "cycles") return f.cycles;
  return sort_col < f.misses.size() ? double(f.misses[sort_col]) : 0;
}

// A figure rounded to a whole number; "." for none (cycles are fractional
// in the tree but shown whole, as the counts).
std::string cell(double v) {
  char buf[32];
  if (v == 0) return ".";
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

}  // namespace

std::string render_annotated(const StatsNode& root, const std::string& source_text, const AnnotateOptions& o) {
  std::map<uint64_t, LineFigures> by_line;
  LineFigures total;
  total.misses.assign(o.levels.size(), 0);
  if (const StatsNode* t = root.find_child("by_line")) {
    for (const StatsNode& r : t->children) {
      LineFigures f;
      f.line = r.u64("line");
      f.accesses = r.u64("accesses");
      f.dram = r.u64("dram_bytes");
      f.cycles = r.num("cycles");
      const StatsNode* lv = r.find_child("levels");
      for (const std::string& name : o.levels) {
        const StatsNode* l = lv ? lv->find_child(name) : nullptr;
        f.misses.push_back(l ? l->u64("misses") : 0);
      }
      total += f;
      by_line[f.line] = f;
    }
  }
  const size_t sort_col = size_t(std::find(o.levels.begin(), o.levels.end(), o.sort_level) - o.levels.begin());

  std::ostringstream out;
  // Header: the columns, cg_annotate style (figures first, then the source).
  std::vector<std::string> heads = {"accesses"};
  for (auto& l : o.levels) heads.push_back(l + " misses");
  heads.push_back("DRAM bytes");
  heads.push_back("cycles");
  auto figures = [&](const LineFigures& f) {
    std::vector<std::string> c = {cell(double(f.accesses))};
    for (uint64_t m : f.misses) c.push_back(cell(double(m)));
    c.push_back(cell(double(f.dram)));
    c.push_back(cell(f.cycles));
    return c;
  };
  std::vector<size_t> width(heads.size());
  for (size_t i = 0; i < heads.size(); ++i) width[i] = heads[i].size();
  for (auto& [n, f] : by_line) {
    auto c = figures(f);
    for (size_t i = 0; i < c.size(); ++i) width[i] = std::max(width[i], c[i].size());
  }
  {
    auto c = figures(total);
    for (size_t i = 0; i < c.size(); ++i) width[i] = std::max(width[i], c[i].size());
  }
  auto row = [&](const std::vector<std::string>& c) {
    std::string s;
    for (size_t i = 0; i < c.size(); ++i) s += std::string(width[i] - std::min(width[i], c[i].size()) + 1, ' ') + c[i];
    return s;
  };

  out << "pto-sim annotate: " << to_string(*root.find("source")) << " on config " << to_string(*root.find("config"))
      << "\n";
  out << "cycles " << std::to_string(uint64_t(root.num("cycles")))
      << "; per line: the line requests its statements issued, the\n"
      << "misses they caused per level, the bytes they moved to or from DRAM, and the\n"
      << "core cycles spent issuing them (compute included)\n\n";

  // The summary: the top lines by the sort key.
  std::vector<const LineFigures*> order;
  for (auto& [n, f] : by_line) order.push_back(&f);
  std::stable_sort(order.begin(), order.end(), [&](const LineFigures* a, const LineFigures* b) {
    return key_of(*a, o, sort_col) > key_of(*b, o, sort_col);
  });
  const std::string what = o.sort == "misses" ? o.sort_level + " misses" : o.sort;
  const double all = key_of(total, o, sort_col);
  out << "top lines by " << what << "\n" << row(heads) << "   share  line\n";
  std::vector<std::string> src;
  std::istringstream in(source_text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    src.push_back(l);
  }
  auto text = [&](uint64_t n) { return n >= 1 && n <= src.size() ? src[n - 1] : std::string(); };
  for (size_t i = 0; i < order.size() && i < o.top; ++i) {
    const LineFigures& f = *order[i];
    if (key_of(f, o, sort_col) == 0) break;
    char share[16];
    std::snprintf(share, sizeof share, "%6.2f%%", all > 0 ? 100.0 * key_of(f, o, sort_col) / all : 0.0);
    std::string label = f.line ? std::to_string(f.line) : std::string("-");
    std::string body = f.line ? text(f.line) : std::string("(events outside any statement)");
    const size_t lead = body.find_first_not_of(" \t");
    body = lead == std::string::npos ? "" : body.substr(lead);
    out << row(figures(f)) << " " << share << "  " << label << ": " << body << "\n";
  }
  out << row(figures(total)) << "  100.00%  (total)\n\n";

  // The listing.
  out << row(heads) << "  line  source\n";
  std::vector<std::string> blank(heads.size(), "");
  for (size_t n = 1; n <= src.size(); ++n) {
    auto it = by_line.find(n);
    char num[16];
    std::snprintf(num, sizeof num, "%5zu", n);
    out << (it == by_line.end() ? row(blank) : row(figures(it->second))) << "  " << num << "  " << src[n - 1] << "\n";
  }
  if (auto it = by_line.find(0); it != by_line.end())
    out << row(figures(it->second)) << "      -  (events outside any statement)\n";
  return out.str();
}

}  // namespace ptosim
