#pragma once
// The `with pto.X(...)` scopes, each described once: its name and
// parameters (the binder and the error messages read them), what the
// compiler must prepare for it (names live after the block, dead values per
// statement, a parallel body) and what it does to the executor when it opens
// and closes. Adding a scope is one row in scopes.cpp (docs/ARCHITECTURE.md).
#include <string>
#include <vector>

#include "sim/frontend/nodes.h"

namespace ptosim::frontend {

struct Frame;
struct ScopeItem;
struct WithStmt;

struct ScopeBegin {
  Frame& frame;
  const ScopeItem& item;
  Args& args;
  exec::ExecContext& ctx;
};
struct ScopeEnd {
  Frame& frame;
  const WithStmt& with;
  const ScopeItem& item;
  exec::ExecContext& ctx;
};

struct ScopeDef {
  const char* name;  // pto.<name>
  std::vector<std::string> params;
  int required = 0;
  int positional = -1;              // as BuiltinDef::positional
  bool any_kwargs = false;          // pto.tile: tile sizes by dimension name
  bool needs_live_after = false;    // the compiler lists the names read after the block
  bool frees_dead_values = false;   // values dead after a body statement are released there
  bool parallel_body = false;       // the body runs on every core
  // Refuses a keyword the scope does not know (at compile time for literal
  // keywords, when the scope opens for `**d`); null: every keyword is a parameter.
  void (*check_keyword)(const std::string& name, Pos pos) = nullptr;
  void (*begin)(const ScopeBegin&) = nullptr;
  void (*end)(const ScopeEnd&) = nullptr;
};

const std::vector<ScopeDef>& scope_table();
// "pto.scope, pto.profile, ... or pto.parallel", for the compiler's message.
std::string scope_listing();

}  // namespace ptosim::frontend
