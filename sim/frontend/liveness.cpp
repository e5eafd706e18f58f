#include "sim/frontend/liveness.h"

namespace ptosim::frontend {

void reads_of(const Expr& e, NameSet& out) {
  if (e.kind == ExprKind::Name) out.insert(e.name);
  if (e.object) reads_of(*e.object, out);
  for (auto& i : e.items)
    if (i) reads_of(*i, out);
  for (auto& k : e.keywords) reads_of(*k.value, out);
}

// What evaluating an assignment target reads: a subscript reads its object
// and indices; a plain name reads nothing.
static void target_reads(const Expr& t, NameSet& out) {
  switch (t.kind) {
    case ExprKind::Name: return;
    case ExprKind::Tuple: case ExprKind::List:
      for (auto& i : t.items) target_reads(*i, out);
      return;
    default: reads_of(t, out);
  }
}

static void target_writes(const Expr& t, NameSet& out) {
  if (t.kind == ExprKind::Name) out.insert(t.name);
  if (t.kind == ExprKind::Tuple || t.kind == ExprKind::List)
    for (auto& i : t.items) target_writes(*i, out);
}

void reads_of(const Block& b, NameSet& out) {
  for (auto& s : b) reads_of(*s, out);
}

void reads_of(const Stmt& s, NameSet& out) {
  if (s.value) reads_of(*s.value, out);
  if (s.message) reads_of(*s.message, out);
  for (auto& i : s.items) reads_of(*i, out);
  switch (s.kind) {
    case StmtKind::Assign:
      target_reads(*s.target, out);
      for (auto& t : s.targets) target_reads(*t, out);
      break;
    case StmtKind::AugAssign:
      reads_of(*s.target, out);  // `x += 1` reads x
      break;
    case StmtKind::Def:
      for (auto& p : s.params)
        if (p.default_value) reads_of(*p.default_value, out);
      break;
    default: break;
  }
  reads_of(s.body, out);
  reads_of(s.orelse, out);
}

void writes_of(const Block& b, NameSet& out) {
  for (auto& s : b) writes_of(*s, out);
}

void writes_of(const Stmt& s, NameSet& out) {
  switch (s.kind) {
    case StmtKind::Assign:
      target_writes(*s.target, out);
      for (auto& t : s.targets) target_writes(*t, out);
      return;
    case StmtKind::AugAssign:
      target_writes(*s.target, out);
      return;
    case StmtKind::For:
      target_writes(*s.target, out);
      writes_of(s.body, out);
      return;
    case StmtKind::Def: case StmtKind::Param:
      out.insert(s.name);
      return;
    default:
      writes_of(s.body, out);
      writes_of(s.orelse, out);
      return;
  }
}

}  // namespace ptosim::frontend
