// `core.model: simple`, the default: accesses issue at issue_width a cycle,
// an access that misses holds a slot of the miss window until its data is
// there, and compute takes flops / flops_per_cycle cycles of issue time
// while misses stay in flight. No dependences: the first cache level issues
// runs of accesses itself (CacheLevel::run) with this same timing.
#include <cmath>
#include <sstream>

#include "models/core/core_timing.h"
#include "sim/common/error.h"
#include "sim/common/time_limits.h"

namespace ptosim {
namespace {

class SimpleCore final : public CoreTiming {
 public:
  SimpleCore(const CoreConfig& config, double period_fs, uint32_t /*cores: no per-core state*/) : config_(config), period_fs_(period_fs) {}

  void access(CoreClock& k, uint32_t, const Access& a, CorePort& port) override {
    k.count(a.kind == AccessKind::Write || a.kind == AccessKind::Fill, a.bytes);
    for_each_piece(a, port, [&](uint64_t addr, uint64_t bytes) {
      uint64_t t = k.issue_at;
      const uint64_t done = port.send(addr, bytes, &t);
      k.issued(t, done);
    });
  }

  void compute(CoreClock& k, uint32_t, const Compute& c) override {
    k.computed(c);
    const double busy_fs = period_fs_ * (double(c.issued()) / config_.flops_per_cycle);
    if (!(busy_fs <= time_limits::kMaxStepFs)) {
      std::ostringstream m;
      m << "a compute event of " << c.issued()
        << " flops takes longer than the model's limit of 2^56 fs (72 s) for one step";
      throw InputError(m.str());
    }
    const uint64_t busy = uint64_t(std::llround(busy_fs));
    k.compute_fs += busy;
    k.issue_at += busy;
  }

  void report(StatsNode&) const override {}

 private:
  const CoreConfig& config_;
  double period_fs_;
};

PTOSIM_REGISTER(CoreModelConcept, Simple, "simple", 0,
                "accesses issue at issue_width a cycle; compute time is added to it", make_core<SimpleCore>);

}  // namespace
}  // namespace ptosim
