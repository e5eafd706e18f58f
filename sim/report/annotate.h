#pragma once
// `pto-sim annotate`: a program's source with, per line, what its events
// cost in the hierarchy (cg_annotate's layout), read from the by_line
// table of a run's stats tree.
#include <string>
#include <vector>

#include "sim/report/stats.h"

namespace ptosim {

struct AnnotateOptions {
  std::vector<std::string> levels;  // miss columns, in report order
  std::string sort = "misses";      // accesses | misses | dram_bytes | cycles
  std::string sort_level;           // the level `misses` sorts by
  size_t top = 10;                  // lines in the summary
};

std::string render_annotated(const StatsNode& root, const std::string& source_text, const AnnotateOptions& o);

}  // namespace ptosim
