// pto.fuse: elementwise ops and reductions inside run as one pass. Their
// values are computed exactly as unfused; only the events differ (see
// read_mode / write_mode in emit.cpp): intermediates and repeated inputs cost
// register bytes, and results live after the block are written at its end.
#include <unordered_set>

#include "sim/exec/emission.h"
#include "sim/exec/scope_states.h"

namespace ptosim::exec {

void ExecContext::fuse_begin() {
  if (!fuse_) fuse_ = std::make_unique<FuseState>();
  ++fuse_depth_;
}

void ExecContext::fuse_end(const std::vector<Tensor>& live_after) {
  if (!fuse_ || --fuse_depth_ > 0) return;
  const std::unique_ptr<FuseState> f = std::move(fuse_);  // the write-back below is ordinary traffic
  std::unordered_set<uint64_t> live;
  for (auto& t : live_after)
    if (t.valid()) live.insert(t.storage()->alloc_serial);
  for (auto& t : f->results) {
    uint64_t s = t.storage()->alloc_serial;
    if (!live.count(s) || t.freed()) continue;
    live.erase(s);  // once per tensor
    detail::emit_whole(*this, t, AccessKind::Write, detail::natural_mode(*this, t));
  }
}

}  // namespace ptosim::exec
