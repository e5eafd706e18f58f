#include "sim/frontend/scopes.h"

#include <map>

#include "sim/frontend/stmt_nodes.h"

namespace ptosim::frontend {

namespace {

std::string opt_str(const ScopeBegin& b, int k, const char* what, const char* dflt) {
  return b.args.has(k) ? to_string_arg(b.args[k], b.args.at(k), what) : std::string(dflt);
}

// A key no op reads would tile nothing: refused, naming the keys that work.
void check_tile_key(const std::string& key, Pos pos) {
  if (!exec::TileDirective::canonical_key(key))
    fail(pos, "pto.tile: unknown tile key '" + key + "' (valid: " + exec::TileDirective::valid_keys() + ")");
}

void tile_begin(const ScopeBegin& b) {
  exec::TileDirective t;
  t.into = opt_str(b, 0, "into", "");
  Args& a = b.args;
  std::map<std::string, std::string> given;  // canonical key -> the spelling used
  for (size_t k = 0; k < a.extra_kw.size(); ++k) {
    const auto& [key, v] = a.extra_kw[k];
    const Pos pos = a.extra_kw_pos[k];
    check_tile_key(key, pos);
    const std::string canon = *exec::TileDirective::canonical_key(key);
    if (auto seen = given.find(canon); seen != given.end())
      fail(pos, "pto.tile: " + key + " and " + seen->second + " both set the tile size " + canon);
    given[canon] = key;
    int64_t n = to_int(v, pos, ("tile size " + key).c_str());
    if (n <= 0) fail(pos, "tile size " + key + " must be positive, got " + std::to_string(n));
    t.sizes[canon] = n;
  }
  b.ctx.tile_push(t);
}

void reuse_begin(const ScopeBegin& b) {
  Args& a = b.args;
  std::string name;
  if (a[0].tag == VT::Tensor) name = a[0].as_tensor().name();
  else name = to_string_arg(a[0], a.at(0), "reuse tensor name");
  std::string scope = opt_str(b, 1, "reuse scope", "block");
  if (scope != "block" && scope != "thread" && scope != "kernel" && scope != "global")
    fail(a.at(1), "unknown reuse scope '" + scope + "' (expected block, thread, kernel or global)");
  b.ctx.reuse_begin(name, scope);
}

// A pto.reuse that served nothing changed nothing: say why, on the warning
// stream (the report's reuse row shows its 0 hits).
void reuse_end(const ScopeEnd& e) {
  const std::string why = e.ctx.reuse_end();
  if (why.empty()) return;
  e.frame.in->warn(e.item.pos, "pto.reuse served nothing: " + why);
}

void fuse_end(const ScopeEnd& e) {
  std::vector<exec::Tensor> live, dead;
  for (const SlotRef& r : e.with.live_after) {
    const Value& v = r.get(e.frame);
    if (v.tag == VT::Tensor) live.push_back(v.as_tensor());
  }
  for (const SlotRef& r : e.with.fuse_dead) {
    const Value& v = r.get(e.frame);
    if (v.tag == VT::Tensor) dead.push_back(v.as_tensor());
  }
  e.ctx.fuse_end(live, dead);
}

void parallel_begin(const ScopeBegin& b) {
  Args& a = b.args;
  std::string axis = opt_str(b, 0, "axis", "block");
  int64_t num = a.has(1) ? to_int(a[1], a.at(1), "num") : int64_t(b.ctx.config().core.count);
  if (num <= 0) fail(a.at(1), "pto.parallel num must be positive, got " + std::to_string(num));
  b.ctx.parallel_begin(axis, num);
}

void region_begin(const ScopeBegin& b) { b.ctx.scope_begin(to_string_arg(b.args[0], b.args.at(0), "scope name")); }

std::vector<ScopeDef> make_table() {
  std::vector<ScopeDef> t;
  auto row = [&](const char* name, std::vector<std::string> params, int required, void (*begin)(const ScopeBegin&),
                 void (*end)(const ScopeEnd&)) -> ScopeDef& {
    ScopeDef d;
    d.name = name;
    d.params = std::move(params);
    d.required = required;
    d.begin = begin;
    d.end = end;
    t.push_back(std::move(d));
    return t.back();
  };
  row("scope", {"name"}, 1, region_begin, [](const ScopeEnd& e) { e.ctx.scope_end(); });
  row("profile", {"name"}, 1, region_begin, [](const ScopeEnd& e) { e.ctx.scope_end(); });
  row("memory", {"space"}, 1,
      [](const ScopeBegin& b) { b.ctx.memory_push(to_string_arg(b.args[0], b.args.at(0), "memory space")); },
      [](const ScopeEnd& e) { e.ctx.memory_pop(); });
  ScopeDef& tile = row("tile", {"into"}, 0, tile_begin, [](const ScopeEnd& e) { e.ctx.tile_pop(); });
  tile.any_kwargs = true;
  tile.check_keyword = check_tile_key;
  tile.positional = 0;
  row("reuse", {"tensor", "scope"}, 1, reuse_begin, reuse_end);
  ScopeDef& auto_reuse =
      row("auto_reuse", {}, 0, [](const ScopeBegin& b) { b.ctx.auto_reuse_begin(b.frame.in->source_pos(b.item.pos)); },
          [](const ScopeEnd& e) { e.ctx.auto_reuse_end(); });
  auto_reuse.needs_live_after = auto_reuse.frees_dead_values = true;
  ScopeDef& fuse = row("fuse", {}, 0, [](const ScopeBegin& b) { b.ctx.fuse_begin(); }, fuse_end);
  fuse.needs_live_after = true;
  ScopeDef& parallel =
      row("parallel", {"axis", "num"}, 0, parallel_begin, [](const ScopeEnd& e) { e.ctx.parallel_end(); });
  parallel.parallel_body = true;
  return t;
}

}  // namespace

const std::vector<ScopeDef>& scope_table() {
  static const std::vector<ScopeDef> t = make_table();
  return t;
}

std::string scope_listing() {
  const auto& t = scope_table();
  std::string s;
  for (size_t i = 0; i < t.size(); ++i) {
    if (i) s += i + 1 == t.size() ? " or " : ", ";
    s += std::string("pto.") + t[i].name;
  }
  return s;
}

}  // namespace ptosim::frontend
