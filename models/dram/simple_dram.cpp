// SimpleDram is header-only; this file registers it under `dram.timing: simple`.
#include "models/dram/simple_dram.h"

namespace ptosim {
PTOSIM_REGISTER(DramModelConcept, Simple, "simple", 0, "a flat latency plus a bandwidth-limited data bus",
                make_dram<SimpleDram>);
}  // namespace ptosim
