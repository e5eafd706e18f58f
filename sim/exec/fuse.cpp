// pto.fuse: elementwise ops and reductions inside run as one pass. Their
// values are computed exactly as unfused; only the events differ (see
// read_mode / write_mode in emit.cpp): intermediates and repeated inputs cost
// register bytes, and results live after the block are written at its end.
#include <unordered_map>
#include <unordered_set>

#include "sim/exec/emit.h"
#include "sim/exec/scope_states.h"

namespace ptosim::exec {

void ExecContext::fuse_begin() {
  if (!fuse_) fuse_ = std::make_unique<FuseState>();
  if (fuse_depth_++ == 0)
    for (auto& a : allocators_) a->hold(true);
}

void ExecContext::fuse_end(const std::vector<Tensor>& live_after, const std::vector<Tensor>& dead) {
  if (!fuse_ || --fuse_depth_ > 0) return;
  const std::unique_ptr<FuseState> f = std::move(fuse_);  // the write-back below is ordinary traffic
  std::unordered_map<uint64_t, const Tensor*> live;
  for (auto& t : live_after)
    if (t.valid()) live.emplace(t.storage()->alloc_serial, &t);
  for (uint64_t s : f->results) {
    auto it = live.find(s);
    if (it == live.end() || it->second->freed()) continue;
    const Tensor& t = *it->second;
    live.erase(it);  // once per tensor
    detail::emit_whole(*this, t, AccessKind::Write, detail::natural_mode(*this, t));
  }
  // The intermediates no one reads after the block held registers, not
  // memory: a global footprint that counts them made the fused chain look
  // larger than the unfused one. They were allocated holding (allocator.h),
  // so they never counted; what outlives the block counts from here.
  for (const Tensor& t : dead)
    if (t.valid() && !t.freed() && f->produced.count(t.storage()->alloc_serial)) t.storage()->release("pto.fuse");
  for (auto& a : allocators_) {
    a->hold(false);
    a->count_held();
  }
}

}  // namespace ptosim::exec
