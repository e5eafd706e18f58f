// libFuzzer target: the .pto frontend (lexer, parser, compiler, interpreter
// and the executor it drives), on the built-in config with small event,
// step and memory limits so that every input ends quickly. An input must run
// or fail with an InputError (file:line:col: message).
#include <sstream>
#include <string>

#include "fuzz/fuzz_util.h"
#include "sim/common/error.h"
#include "sim/config/config_loader.h"
#include "sim/frontend/run_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ptosim::HwConfig config = ptosim::default_config();
  const std::string text(reinterpret_cast<const char*>(data), size);
  ptosim::ProgramOptions options;
  options.max_events = 20000;
  options.max_memory = 64 << 20;
  static std::ostringstream prints;  // print() output goes nowhere visible
  prints.str("");
  options.print_stream = &prints;
  ptosim::fuzz::CheckingSink sink;
  try {
    ptosim::run_program_text("fuzz.pto", text, config, options, &sink);
  } catch (const ptosim::InputError&) {
  }
  return 0;
}
