// The DRAM timing model a config names; the models register themselves in
// their own files (simple_dram.cpp, detailed_dram.cpp).
#include "models/dram/dram_timing.h"

namespace ptosim {

std::unique_ptr<DramTiming> make_dram_timing(const DramConfig& config) {
  return Registry<DramTimingFactory>::instance().at(config.timing, config.pos, "dram.timing")(config);
}

}  // namespace ptosim
