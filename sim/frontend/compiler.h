#pragma once
// Turns the syntax tree into the executable node tree: every name resolved
// to a global or local slot (or a builtin), every builtin call's arguments
// mapped to parameters, scopes analysed. Static errors (unknown name, unknown
// op or keyword, wrong builtin arity, break outside a loop, ...) are raised
// here, before anything runs.
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "sim/frontend/ast.h"
#include "sim/frontend/stmt_nodes.h"

namespace ptosim::frontend {

struct Program {
  std::vector<std::unique_ptr<CompiledFunction>> functions;
  BlockNode main;
  std::vector<std::string> global_names;  // slot -> name
  std::map<std::string, ParamStmt*> params;
  std::set<std::string> pto_used;  // the pto.X names it refers to (pto_names_used)
};

// flat_loops false: every loop runs as its statement tree (flat_loop.h's
// tests compare the two).
std::unique_ptr<Program> compile_program(const Module& m, bool flat_loops = true);

}  // namespace ptosim::frontend
