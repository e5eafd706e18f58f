// CoreModule's report (core_module.h, docs/REPORTS.md): the run's cycles
// and the core section, per core when there are several.
#include "models/tlm/core_module.h"

namespace ptosim {

using sc_core::sc_time;

double CoreModule::cycles() const {
  uint64_t last = 0;
  for (const CoreClock& k : clocks_) last = std::max(last, k.idle_at());
  return double(last) / period_fs_;
}

double CoreModule::compute_cycles() const {
  uint64_t fs = 0;
  for (const CoreClock& k : clocks_) fs += k.compute_fs;
  return double(fs) / period_fs_;
}

namespace {
// The counters of the cores in `ks`, summed.
void core_counters(StatsNode& n, const std::vector<const CoreClock*>& ks, double period_fs) {
  uint64_t acc = 0, rd = 0, wr = 0, lines = 0, bytes = 0, flops = 0, masked = 0, compute = 0, stalls = 0, stall_fs = 0, wait = 0;
  for (const CoreClock* k : ks) {
    acc += k->accesses(); rd += k->reads(); wr += k->writes(); lines += k->line_requests; bytes += k->access_bytes;
    flops += k->flops; masked += k->masked_flops; compute += k->compute_fs; stalls += k->stalls.count; stall_fs += k->stalls.fs;
    wait += k->barrier_wait_fs;
  }
  n.set("accesses", acc).set("reads", rd).set("writes", wr);
  n.set("line_requests", lines);
  n.set("access_bytes", bytes);
  n.set("flops", flops);
  n.set("masked_flops", masked);
  n.set("compute_cycles", uint64_t(std::llround(double(compute) / period_fs)));  // whole cycles, as `cycles`
  n.set("window_stalls", stalls);
  n.set("stall_cycles", uint64_t(std::llround(double(stall_fs) / period_fs)));
  n.set("barrier_wait_cycles", uint64_t(std::llround(double(wait) / period_fs)));
}
}  // namespace

void CoreModule::report(StatsNode& run) const {
  StatsNode& n = run.child(name(), NodeKind::Core);
  std::vector<const CoreClock*> all;
  for (const CoreClock& k : clocks_) all.push_back(&k);
  core_counters(n, all, period_fs_);
  n.set("cores", uint64_t(clocks_.size()));
  n.set("barriers", barriers_);
  model_->report(n);
  if (clocks_.size() == 1) return;
  StatsNode& list = n.child("per_core", NodeKind::List);
  for (const CoreClock& k : clocks_) {
    StatsNode& c = list.child("core" + std::to_string(k.id), NodeKind::Row);
    core_counters(c, {&k}, period_fs_);
  }
}
}  // namespace ptosim
