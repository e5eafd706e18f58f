// `pto-sim compare`'s options; the engine is sim/analysis/compare.cpp.
#include "sim/analysis/compare.h"
#include "sim/cli/commands.h"

namespace ptosim::cli {

void add_compare(CLI::App& app, Action& action) {
  static CompareArgs a;
  CLI::App* c = app.add_subcommand("compare", "Compare JSON reports side by side, or check one against a baseline");
  c->add_option("REPORTS", a.reports, "JSON reports (the first is the reference)");
  c->add_option("--baseline", a.baseline, "Golden report: exit 1 when the report moved beyond the tolerances");
  c->add_option("--tolerance", a.tolerance, "With --baseline: cycles=2%,L1.miss_rate=0.5pp,DRAM.bytes_read=4096 ('*' globs)");
  c->add_flag("--allow-different", a.allow_different, "Compare reports of different programs or parameters anyway");
  c->add_flag("--changed", a.changed_only, "Only the metrics that differ");
  c->add_option("--metrics", a.metrics,
                "Only these metrics, in this order: cycles,L1.demand_misses,dram_bytes ('*' globs; default: all, "
                "cycles, seconds, misses per level and DRAM bytes first, then the largest changes)");
  c->add_option("--format", a.format, "Table format")->check(CLI::IsMember({"text", "json", "csv"}));
  c->callback([&action] { action = [] { return run_compare(a); }; });
}

}  // namespace ptosim::cli
