// The estimates behind tune_estimate.h: windows of a probe's epochs and
// periods weighed by their flops.
#include "sim/cli/tune_estimate.h"

#include <algorithm>

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

double epoch_objective(const json& r, const json& ep, TuneObjective objective);

// The objective and flops of the epochs between two access counts, each
// epoch by the part of it inside.
std::pair<double, double> window(const json& r, const json& epochs, double from, double to, TuneObjective objective) {
  double at = 0, obj = 0, flops = 0;
  for (const json& ep : epochs) {
    const double n = ep.value("accesses", 0.0), lo = std::max(at, from), hi = std::min(at + n, to);
    if (n > 0 && hi > lo) {
      const double part = (hi - lo) / n;
      flops += part * ep.value("flops", 0.0);
      obj += part * epoch_objective(r, ep, objective);
    }
    at += n;
  }
  return {obj, flops};
}

double epoch_objective(const json& r, const json& ep, TuneObjective objective) {
  if (objective == TuneObjective::Seconds)
    return (ep.value("end_cycles", 0.0) - ep.value("start_cycles", 0.0)) / r.value("clock_hz", 1.0);
  return epoch_dram_bytes(ep.value("levels", json::array()));
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
  if (r.value("interrupted", false) && !r.value("prefix_warmed", false)) e.prefix = e.total;
  const json epochs = r.value("epochs", json::array());
  double obj = 0, flops = 0;
  if (!e.exact && epochs.size() >= 2) {
    e.periods = r.value("probe_periods", uint64_t(0));
    if (e.periods > 0) {
      // A probe that covered the program's periods (run --probe-period:
      // attention's q.K^T, softmax and .V of one block) is weighed over a
      // whole one: its second half, or anything before it (a transpose
      // before the loop), would misweigh the phases.
      const auto [fo, ff] = window(r, epochs, r.value("probe_first_period_from", 0.0),
                                   r.value("probe_first_period_to", 0.0), objective);
      const auto [lo, lf] = window(r, epochs, r.value("probe_last_period_from", 0.0),
                                   r.value("probe_last_period_to", 0.0), objective);
      e.first_obj = fo, e.first_flops = ff;
      obj = lo, flops = lf;
      if (e.periods >= 2 && lf > 0) e.cold = std::max(0.0, fo - ff * lo / lf);
    } else {
      // The second half of the epochs from the first one with flops: the
      // first tiles pay the cold caches (compulsory misses) that the rest of a
      // long run does not, and a phase before any compute (conv2d's im2col,
      // the same for every tile) would only blur the ranking.
      size_t first = 0;
      while (first < epochs.size() && epochs[first].value("flops", 0.0) == 0) ++first;
      for (size_t i = first + (epochs.size() - first) / 2; i < epochs.size(); ++i) {
        flops += epochs[i].value("flops", 0.0);
        obj += epoch_objective(r, epochs[i], objective);
      }
    }
  } else {
    obj = e.total;
    flops = r.value("flops", 0.0);
  }
  e.ranked = flops > 0;
  e.per_flop = e.ranked ? obj / flops : 0;
  return e;
}

double correct_cold(std::vector<ProbeEstimate*>& estimates) {
  std::vector<double> colds;
  for (const ProbeEstimate* e : estimates)
    if (e->ranked && e->periods >= 2) colds.push_back(e->cold);
  if (colds.empty()) return 0;
  std::sort(colds.begin(), colds.end());
  const double cold = colds[colds.size() / 2];
  for (ProbeEstimate* e : estimates)
    if (e->ranked && e->periods == 1 && e->first_flops > 0 && e->first_obj > cold)
      e->per_flop = (e->first_obj - cold) / e->first_flops;
  return cold;
}

}  // namespace ptosim::cli
