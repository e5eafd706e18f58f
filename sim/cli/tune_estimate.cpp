#include "sim/cli/tune_estimate.h"

namespace ptosim::cli {
namespace {

using nlohmann::json;

const json* level_named(const json& levels, const char* name) {
  if (!levels.is_array()) return nullptr;
  for (const json& l : levels)
    if (l.value("name", "") == name) return &l;
  return nullptr;
}

// An epoch's DRAM row: its bytes (they add up to the report's dram_bytes).
double epoch_dram_bytes(const json& levels) {
  const json* d = level_named(levels, "DRAM");
  return d ? d->value("bytes", 0.0) : 0.0;
}

}  // namespace

double report_objective(const json& r, TuneObjective objective) {
  if (objective == TuneObjective::Seconds) return r.value("seconds", 0.0);
  return r.value("dram_bytes", 0.0);
}

ProbeEstimate estimate_from_probe(const json& r, TuneObjective objective) {
  ProbeEstimate e;
  e.total = report_objective(r, objective);
  // A probe that warmed its prefix (run --warm-before-compute) took no
  // time over it: even run to the end, its totals are no point's.
  e.exact = !r.value("interrupted", false) && !r.value("prefix_warmed", false);
  const json epochs = r.value("epochs", json::array());
  double obj = 0, flops = 0;
  if (!e.exact && epochs.size() >= 2) {
    // The second half of the epochs from the first one with flops: the
    // first tiles pay the cold caches (compulsory misses) that the rest of a
    // long run does not, and a phase before any compute (conv2d's im2col,
    // the same for every tile) would only blur the ranking.
    const double hz = r.value("clock_hz", 1.0);
    size_t first = 0;
    while (first < epochs.size() && epochs[first].value("flops", 0.0) == 0) ++first;
    for (size_t i = first + (epochs.size() - first) / 2; i < epochs.size(); ++i) {
      const json& ep = epochs[i];
      flops += ep.value("flops", 0.0);
      obj += objective == TuneObjective::Seconds
                 ? (ep.value("end_cycles", 0.0) - ep.value("start_cycles", 0.0)) / hz
                 : epoch_dram_bytes(ep.value("levels", json::array()));
    }
  } else {
    obj = e.total;
    flops = r.value("flops", 0.0);
  }
  e.ranked = flops > 0;
  e.per_flop = e.ranked ? obj / flops : 0;
  return e;
}

}  // namespace ptosim::cli
