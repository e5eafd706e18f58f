// pto.auto_reuse: the interpreter's liveness analysis calls mark_dead(); the
// buffer goes back to its allocator at once, so later temporaries reuse the
// addresses. Each allocator also keeps a "shadow" count that ignores early
// frees, which gives the footprint without buffer sharing.
#include <algorithm>

#include "sim/exec/emit.h"
#include "sim/exec/scope_states.h"

namespace ptosim::exec {

void ExecContext::auto_reuse_begin(const SourcePos& pos) {
  auto_reuses_.push_back(std::make_unique<AutoReuseState>());
  auto_reuses_.back()->pos = pos;
  for (auto& al : allocators_) al->reset_window();
}

void ExecContext::mark_dead(const Tensor& t) {
  if (!t.valid() || auto_reuses_.empty()) return;
  t.storage()->release_early();
}

void ExecContext::auto_reuse_end() {
  if (auto_reuses_.empty()) return;
  const std::unique_ptr<AutoReuseState> a = std::move(auto_reuses_.back());
  auto_reuses_.pop_back();
  ProgramResult::AutoReuse r;
  r.pos = a->pos;
  for (auto& al : allocators_) {
    r.peak_with += al->window_peak();
    r.peak_without += al->window_shadow_peak();
  }
  r.distinct_without = a->sum_sizes;
  auto& v = a->ranges;
  std::sort(v.begin(), v.end());
  uint64_t cur_s = 0, cur_e = 0;
  bool open = false;
  for (auto& [s, n] : v) {
    if (open && s <= cur_e) {
      cur_e = std::max(cur_e, s + n);
      continue;
    }
    if (open) r.distinct_with += cur_e - cur_s;
    cur_s = s; cur_e = s + n; open = true;
  }
  if (open) r.distinct_with += cur_e - cur_s;
  result_.auto_reuse.push_back(r);
}

}  // namespace ptosim::exec
