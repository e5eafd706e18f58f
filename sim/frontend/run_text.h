#pragma once
// run_program on text already in memory (tests, stdin): path is only used
// in error messages.
#include <string>

#include "sim/frontend/frontend.h"

namespace ptosim {

ProgramResult run_program_text(const std::string& path, const std::string& text, const HwConfig& config,
                               const ProgramOptions& options, EventSink* sink);

}  // namespace ptosim
