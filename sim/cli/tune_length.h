#pragma once
// How long a program runs at one point, found without simulating it: tune
// probes a run longer than a few probes and runs a shorter one whole, since
// a probe would be most of it and the prefix of a short run does not rank
// its tiles (docs/SWEEP.md, "short runs"). The program is interpreted into
// a counting sink, without values, and given up once past a cap.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/hw_config.h"

namespace ptosim::cli {

// The program's accesses and compute events, or cap + 1 once there are more
// than `cap`, or when the program stops with an error (a tile that does not
// fit: the probes say so). From its start, not its first compute: a phase
// before it (conv2d's im2col, 450k events of its 595k) is what a whole run
// would simulate too, and interpreting it is most of a count's cost.
uint64_t compute_events_upto(const std::string& program, const HwConfig& config,
                             const std::vector<std::pair<std::string, std::string>>& defines, uint64_t cap);

}  // namespace ptosim::cli
