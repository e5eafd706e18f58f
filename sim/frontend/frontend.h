#pragma once
// Entry point of the PTO frontend: interpret a .pto program, computing real
// values and pushing its memory/compute events into a sink.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/hw_config.h"
#include "sim/trace/event.h"

namespace ptosim {

struct ProgramOptions {
  std::vector<std::pair<std::string, std::string>> defines;  // -D NAME=VALUE, in order
  uint64_t max_events = 2'000'000'000ull;  // guard against runaway loops
  uint64_t max_memory = 0;                 // bytes of lists, strings, tensors; 0 = a quarter of the machine's memory
  std::ostream* print_stream = nullptr;    // where pto `print` writes; null = stdout
};

struct CheckOutcome {
  SourcePos pos;
  bool passed = true;
  std::string message;  // on failure: first bad index, both values, max error
};

struct OutputChecksum {
  std::string tensor;
  std::string dtype;
  std::vector<int64_t> shape;
  double sum = 0;          // sum of elements (double)
  double abs_sum = 0;      // sum of |elements|
  uint64_t fnv1a = 0;      // FNV-1a over the stored bytes in logical (row-major) order
};

struct SpaceFootprint {
  uint64_t peak_bytes = 0;
  uint64_t capacity = 0;   // 0 = unbounded
};

struct ProgramResult {
  std::vector<CheckOutcome> checks;
  std::vector<OutputChecksum> outputs;
  std::map<std::string, SpaceFootprint> footprint;  // per space name
  // pto.auto_reuse blocks: peak footprint with and without buffer sharing.
  struct AutoReuse { SourcePos pos; uint64_t peak_with = 0, peak_without = 0; uint64_t distinct_with = 0, distinct_without = 0; };
  std::vector<AutoReuse> auto_reuse;
  // pto.reuse: tiles served from the reuse space vs fallen back to normal loads.
  struct Reuse { std::string tensor; std::string scope; uint64_t hits = 0, fallbacks = 0, fallback_bytes = 0; };
  std::vector<Reuse> reuse;
  uint64_t events = 0;
  bool all_checks_passed() const {
    for (auto& c : checks) if (!c.passed) return false;
    return true;
  }
};

// Throws InputError("file:line:col: message\n<source line>\n<caret>") on a bad
// program. sink may be null (functional execution only: `pto-sim check`).
ProgramResult run_program(const std::string& path, const HwConfig& config,
                          const ProgramOptions& options, EventSink* sink);

}  // namespace ptosim
