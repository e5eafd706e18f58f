#pragma once
// What a short probe run (`run --stop-after N --epoch-accesses N/4`) says
// about a whole run: its objective per flop in the probe's second half,
// after the cold start, so that pto-sim tune can rank tile choices without
// simulating them to the end. Plain functions on a report's JSON.
#include <nlohmann/json.hpp>
#include <string>

namespace ptosim::cli {

enum class TuneObjective { Seconds, DramBytes };

struct ProbeEstimate {
  bool exact = false;   // the probe ran to the end: `per_flop` and `total` are the run's own
  double per_flop = 0;  // objective per flop (seconds or DRAM bytes); 0 with no flops
  double total = 0;     // the objective of the report (of the whole run only when exact)
  bool ranked = false;  // false: the probe had no flops to weigh by
};

// The objective of a whole report (seconds, or bytes read and written at DRAM).
double report_objective(const nlohmann::json& report, TuneObjective objective);
ProbeEstimate estimate_from_probe(const nlohmann::json& report, TuneObjective objective);

}  // namespace ptosim::cli
