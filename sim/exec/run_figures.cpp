// The difference of two sets of run figures: a profiled block's own counts.
#include "sim/exec/run_figures.h"

namespace ptosim::exec {

RunFigures figures_between(const RunFigures& a, const RunFigures& b) {
  RunFigures d = b;
  d.cycles = b.cycles - a.cycles;
  d.seconds = b.seconds - a.seconds;
  d.core_accesses = b.core_accesses - a.core_accesses;
  d.dram_bytes = b.dram_bytes - a.dram_bytes;
  for (LevelFigures& l : d.levels) {
    const LevelFigures* before = nullptr;
    for (const LevelFigures& x : a.levels)
      if (x.name == l.name) before = &x;
    if (!before) continue;
    l.accesses -= before->accesses;
    l.hits -= before->hits;
    l.misses -= before->misses;
    l.bytes -= before->bytes;
    for (auto& [t, am] : l.tensors)
      if (auto it = before->tensors.find(t); it != before->tensors.end()) {
        am.first -= it->second.first;
        am.second -= it->second.second;
      }
    for (auto it = l.tensors.begin(); it != l.tensors.end();)
      it = it->second.first == 0 && it->second.second == 0 ? l.tensors.erase(it) : std::next(it);
  }
  return d;
}

}  // namespace ptosim::exec
