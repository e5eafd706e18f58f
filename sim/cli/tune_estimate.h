#pragma once
// What a short probe run (`run --stop-after N --epoch-accesses N/4`) says
// about a whole run: its objective per flop in the probe's second half,
// after the cold start, so that pto-sim tune can rank tile choices without
// simulating them to the end. Plain functions on a report's JSON.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ptosim::cli {

enum class TuneObjective { Seconds, DramBytes };

struct ProbeEstimate {
  bool exact = false;   // the probe ran to the end: `per_flop` and `total` are the run's own
  double per_flop = 0;  // objective per flop (seconds or DRAM bytes); 0 with no flops
  double total = 0;     // the objective of the report (of the whole run only when exact)
  bool ranked = false;  // false: the probe had no flops to weigh by
  // run --probe-period: the program's periods the probe covered. With two
  // or more, per_flop is the last one's (warm) and `cold` what the first one
  // cost beyond it; with one, per_flop is the first one's, cold start and
  // all, and `first_obj` / `first_flops` let correct_cold take a cold start
  // measured on other points off it.
  uint64_t periods = 0;
  double first_obj = 0, first_flops = 0, cold = 0;
  // The objective of a probe that simulated everything up to its stop (no
  // warmed prefix): the whole run's is no less (time and traffic only
  // grow), a lower bound (tune_bound.h); 0 otherwise.
  double prefix = 0;
};

// The objective of a whole report (seconds, or bytes read and written at DRAM).
double report_objective(const nlohmann::json& report, TuneObjective objective);
ProbeEstimate estimate_from_probe(const nlohmann::json& report, TuneObjective objective);
// The first period of a program pays its cold start (the first touches of
// tensors every tile reads alike, the same for every tile); where some
// probes covered two periods and others one, the median cold start of the
// former comes off the latter's first period. Returns it (0: none measured).
double correct_cold(std::vector<ProbeEstimate*>& estimates);

}  // namespace ptosim::cli
