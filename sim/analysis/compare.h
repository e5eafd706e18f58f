#pragma once
// `pto-sim compare` without its command line: reports side by side with
// deltas, or one report checked against a golden baseline. The command
// (sim/cli/cmd_compare.cpp) fills CompareArgs from its options.
#include <string>
#include <vector>

namespace ptosim::cli {

struct CompareArgs {
  std::vector<std::string> reports;
  std::string baseline, tolerance, format = "text";
  bool allow_different = false, changed_only = false;
  std::string metrics;  // --metrics a,b,...: these rows only, in this order ('*' globs)
};

// Prints the table (or checks against a.baseline); returns the exit status:
// 0, 1 when a metric moved beyond its tolerance; throws InputError on bad input.
int run_compare(CompareArgs a);

}  // namespace ptosim::cli
