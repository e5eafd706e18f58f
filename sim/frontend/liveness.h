#pragma once
// Static name analysis over the syntax tree: which names a statement reads
// and which it binds. Used for Python-style scoping (locals = names bound in
// a function), for pto.fuse (which results are still needed after the
// block) and for pto.auto_reuse (after which statement a temporary is dead).
#include <set>
#include <string>

#include "sim/frontend/ast.h"

namespace ptosim::frontend {

using NameSet = std::set<std::string>;

void reads_of(const Expr& e, NameSet& out);
// Function bodies count as reads at the `def`: a conservative answer, since
// the function may run later and read globals.
void reads_of(const Stmt& s, NameSet& out);
void reads_of(const Block& b, NameSet& out);
// Names bound by assignment, loop variables, def and param (not inside
// nested function bodies).
void writes_of(const Stmt& s, NameSet& out);
void writes_of(const Block& b, NameSet& out);

}  // namespace ptosim::frontend
