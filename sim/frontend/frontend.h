#pragma once
// Entry point of the PTO frontend: interpret a .pto program, computing real
// values and pushing its memory/compute events into a sink.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/hw_config.h"
#include "sim/exec/program_result.h"
#include "sim/trace/event.h"

namespace ptosim {

struct ProgramOptions {
  std::vector<std::pair<std::string, std::string>> defines;  // -D NAME=VALUE, in order
  uint64_t max_events = 2'000'000'000ull;  // guard against runaway loops
  uint64_t max_memory = 0;                 // bytes of lists, strings, tensors; 0 = a quarter of the machine's memory
  std::ostream* print_stream = nullptr;    // where pto `print` writes; null = stdout
};

// Throws InputError("file:line:col: message\n<source line>\n<caret>") on a bad
// program. sink may be null (functional execution only: `pto-sim check`).
ProgramResult run_program(const std::string& path, const HwConfig& config,
                          const ProgramOptions& options, EventSink* sink);

}  // namespace ptosim
