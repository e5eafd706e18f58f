// pto.reuse: tiles of a named tensor loaded inside the scope stay resident in
// the space the reuse scope maps to; later loads of the same tile are served
// from there.
#include "sim/exec/emit.h"
#include "sim/exec/tiling.h"
#include "sim/exec/scope_states.h"

namespace ptosim::exec {

void ExecContext::reuse_begin(const std::string& tensor_name, const std::string& scope) {
  auto r = std::make_unique<ReuseState>();
  r->tensor = tensor_name;
  r->scope = scope;
  if (scope == "block") r->space = shared_space();
  else if (scope == "thread") r->space = register_space();
  else if (scope == "kernel") r->space = constant_space();
  else if (scope == "global") r->hint_only = true;
  else throw OpError("pto.reuse: unknown scope '" + scope + "' (expected block, thread, kernel or global)");
  ProgramResult::Reuse entry;
  entry.tensor = tensor_name;
  entry.scope = scope;
  result_.reuse.push_back(entry);
  r->result_index = result_.reuse.size() - 1;
  reuses_.push_back(std::move(r));
}

namespace {
// Why a pto.reuse block served no tile, from what it saw.
std::string idle_reason(const ExecContext::ReuseState& r, const ProgramResult::Reuse& e) {
  if (r.hint_only) return "scope=\"global\" is only a hint: it keeps no tile resident (use block, thread or kernel)";
  if (e.fallbacks)
    return std::to_string(e.fallbacks) + " tile(s) of '" + r.tensor + "' (" + std::to_string(e.fallback_bytes) +
           " bytes) did not fit in the reuse space and were loaded as usual";
  if (r.loads == 0)
    return "no tile of a tensor named '" + r.tensor + "' was loaded inside the block: pto.reuse serves pto.load / " +
           "pto.copy of its views and the tiles pto.tile stages, not ops that read it in place";
  return "each of the " + std::to_string(r.loads) + " tile load(s) of '" + r.tensor +
         "' inside the block was of a different tile: none was loaded twice";
}
}  // namespace

std::string ExecContext::reuse_end() {
  if (reuses_.empty()) return "";
  const ReuseState& r = *reuses_.back();
  ProgramResult::Reuse& e = result_.reuse[r.result_index];
  std::string why = e.hits ? std::string() : idle_reason(r, e);
  e.why = why;
  reuses_.pop_back();  // drops the resident tiles (freed unless still referenced)
  return why;
}

ExecContext::ReuseState* ExecContext::reuse_for(const std::string& tensor_name) {
  for (auto it = reuses_.rbegin(); it != reuses_.rend(); ++it)
    if ((*it)->tensor == tensor_name) return it->get();
  return nullptr;
}

namespace detail {

namespace {
std::string view_key(const Tensor& v) {
  std::string k = std::to_string(v.storage()->alloc_serial) + "@" + std::to_string(v.offset());
  for (size_t d = 0; d < v.shape().size(); ++d) {
    auto& m = v.dims()[d];
    k += ":" + std::to_string(m.size) + "," + std::to_string(m.stride) + "," + std::to_string(m.start);
  }
  return k;
}
}  // namespace

Tensor tile_load(ExecContext& c, const Tensor& view, const Tensor& buffer_in) {
  auto* r = c.reuse_for(view.name());
  Tensor buffer = buffer_in;
  auto plain = [&]() {
    copy_values(view, buffer);
    move_events(c, view, buffer);
    return buffer;
  };
  if (!r || r->hint_only) return plain();
  ++r->loads;
  auto& entry = c.result().reuse[r->result_index];
  std::string key = view_key(view);
  auto it = r->resident.find(key);
  if (it != r->resident.end() && !it->second.freed()) {
    ++entry.hits;
    copy_values(view, it->second);  // keep values exact even if the source changed; costs no events
    return it->second;
  }
  Tensor res;
  try {
    res = c.alloc(view.shape(), view.dtype(), r->space, {}, view.name() + ".resident", view.name());
  } catch (const OpError&) {
    ++entry.fallbacks;
    entry.fallback_bytes += uint64_t(view.numel()) * view.elem_size();
    if (!buffer.valid()) buffer = alloc_result(c, view.shape(), view.dtype(), r->space, "load");
    return plain();
  }
  copy_values(view, res);
  move_events(c, view, res);
  r->resident[key] = res;
  return res;
}

}  // namespace detail
}  // namespace ptosim::exec
