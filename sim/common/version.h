#pragma once
// The one place the version lives: `--version` prints it and every report
// records it, so a report says which pto-sim produced it.
namespace ptosim {
inline constexpr const char* kPtoSimVersion = "0.2";
}  // namespace ptosim
