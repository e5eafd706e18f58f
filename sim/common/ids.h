#pragma once
// The small ids every layer shares (config, traces, executor, models,
// reports): here, so that none of them includes another's folder for a typedef.
#include <cstdint>

namespace ptosim {

// Space ids are indices into HwConfig::space_names(); 0 is always "global".
using SpaceId = uint16_t;
// Tensor and region ids are registered with the sink (names for reports);
// 0 means "untagged" (e.g. a replayed trace).
using TagId = uint16_t;

constexpr SpaceId kGlobalSpace = 0;

// Cores are numbered from 0 (config `core.cores`, at most kMaxCores); a
// single-core run and a replayed trace are all core 0.
using CoreId = uint8_t;
constexpr uint32_t kMaxCores = 256;

}  // namespace ptosim
