#include "sim/common/time_limits.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>


namespace ptosim::time_limits {

std::string describe_fs(double fs) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", fs * 1e-15);
  return buf;
}

void check_step(double fs, const std::string& what, bool zero_ok) {
  if (zero_ok && fs == 0) return;
  if (!std::isfinite(fs) || fs > kMaxStepFs)
    throw std::invalid_argument(what + " takes " + (std::isfinite(fs) ? describe_fs(fs) : std::string("forever")) +
                                ", longer than the model's limit of 2^56 fs (72 s) for one step");
  if (fs < kResolutionFs)
    throw std::invalid_argument(what + " takes " + describe_fs(fs) +
                                ", less than the model's time resolution of 1 fs");
}

}  // namespace ptosim::time_limits
