// The core model a config names; the models register themselves in their
// own files (simple_core.cpp, cpu_core.cpp).
#include "models/core/core_timing.h"

namespace ptosim {

std::unique_ptr<CoreTiming> make_core_timing(const CoreConfig& config, double period_fs, uint32_t cores) {
  return Registry<CoreTimingFactory>::instance().at(config.model, {}, "core.model")(config, period_fs, cores);
}

}  // namespace ptosim
