// libFuzzer target: the YAML config loader. Every input must parse or fail
// with an InputError (file:line: key: message); a config that parses must
// survive to_yaml and parse again to the same text (config show's promise).
#include <cstdlib>
#include <string>

#include "sim/common/error.h"
#include "sim/config/config_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const ptosim::HwConfig c = ptosim::parse_config(text, "fuzz.yaml");
    const std::string shown = ptosim::to_yaml(c);
    if (ptosim::to_yaml(ptosim::parse_config(shown, "shown.yaml")) != shown) std::abort();
  } catch (const ptosim::InputError&) {
  }
  return 0;
}
