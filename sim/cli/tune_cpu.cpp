// The rusage bookkeeping behind tune_cpu.h.
#include "sim/cli/tune_cpu.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace ptosim::cli {

double TuneCpu::seconds(bool children) {
  rusage u{};
  getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &u);
  auto s = [](const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); };
  return s(u.ru_utime) + s(u.ru_stime);
}

TuneCpu::TuneCpu() : self_start_(seconds(false)), children_start_(seconds(true)) {}

void TuneCpu::add(const std::string& part, bool children, size_t runs, double s) {
  auto [it, fresh] = parts_.try_emplace(part);
  if (fresh) it->second.order = parts_.size();
  it->second.seconds += s;
  it->second.runs += runs;
  it->second.children = children;
}

std::string TuneCpu::summary() const {
  std::vector<std::pair<std::string, Part>> order(parts_.begin(), parts_.end());
  std::sort(order.begin(), order.end(), [](auto& x, auto& y) { return x.second.order < y.second.order; });
  const double self = seconds(false) - self_start_, total = self + seconds(true) - children_start_;
  double own_parts = 0;
  std::string out;
  char b[160];
  for (auto& [name, p] : order) {
    if (!p.children) own_parts += p.seconds;
    if (p.children)
      std::snprintf(b, sizeof b, "%s%s %.3f s (%zu %s)", out.empty() ? "" : ", ", name.c_str(), p.seconds, p.runs,
                    p.runs == 1 ? "run" : "runs");
    else
      std::snprintf(b, sizeof b, "%s%s %.3f s (in tune's process)", out.empty() ? "" : ", ", name.c_str(), p.seconds);
    out += b;
  }
  std::snprintf(b, sizeof b, "%stune's own rest %.3f s; total %.3f s", out.empty() ? "" : ", ", self - own_parts, total);
  return out + b;
}

}  // namespace ptosim::cli
