#include "sim/report/run_report.h"

#include <utility>

#include "sim/report/roofline.h"

namespace ptosim {

StatsNode make_run_report(const RunReportInputs& in, StatsNode core, StatsNode levels) {
  const double seconds = in.cycles / in.clock_hz;
  StatsNode root{"pto-sim", NodeKind::Run, {}, {}};
  root.set("config", in.config).set("source", in.source);
  root.set("clock_hz", in.clock_hz);
  root.set("cycles", in.cycles).set("seconds", seconds);
  if (in.interrupted) root.set("interrupted", std::string("true")).set("events_done", in.events_done);
  RooflineInputs roof_in;
  roof_in.flops = core.u64("flops");
  roof_in.seconds = seconds;
  if (!levels.children.empty()) {
    const StatsNode& dram = levels.children.back();
    roof_in.dram_bytes = dram.u64("bytes_read") + dram.u64("bytes_written");
  }
  roof_in.peak_flops_per_s = in.peak_flops_per_s;
  roof_in.peak_dram_bandwidth = in.peak_dram_bandwidth;
  StatsNode roof = add_roofline(root, roof_in);
  // The short run summary (core, roofline) reads before the levels in JSON.
  root.children.push_back(std::move(core));
  root.children.push_back(std::move(roof));
  root.children.push_back(std::move(levels));
  return root;
}

}  // namespace ptosim
