#include <functional>
#include <map>
#include <stdexcept>

#include "models/timing/detailed_dram.h"
#include "models/timing/dram_timing.h"
#include "models/timing/simple_dram.h"

namespace ptosim {

std::unique_ptr<DramTiming> make_dram_timing(const DramConfig& config) {
  using Factory = std::function<std::unique_ptr<DramTiming>(const DramConfig&)>;
  static const std::map<std::string, Factory> registry = {
      {"simple", [](const DramConfig& c) { return std::make_unique<SimpleDram>(c); }},
      {"detailed", [](const DramConfig& c) { return std::make_unique<DetailedDram>(c); }},
  };
  auto it = registry.find(config.timing);
  if (it == registry.end()) throw InputError(config.pos, "dram.timing", "timing model '" + config.timing + "' is not available");
  return it->second(config);
}

}  // namespace ptosim
