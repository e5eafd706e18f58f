// Building the int forms of int_expr.h when a node is compiled: which
// operands are plain names or int constants, a tree's chain, an `if`'s
// comparisons.
#include "sim/frontend/int_expr.h"

#include "sim/frontend/expr_nodes.h"

namespace ptosim::frontend {

IntArg IntArg::of(Node* n) {
  IntArg a;
  a.n = n;
  if (auto* c = dynamic_cast<ConstNode*>(n)) {
    if (c->v.tag == VT::Int && c->v.tok == 0) {
      a.kind = Const;
      a.c = c->v.i;
    }
  } else if (auto* g = dynamic_cast<NameNode<false>*>(n)) {
    a.kind = Global;
    a.slot = g->slot;
  } else if (auto* l = dynamic_cast<NameNode<true>*>(n)) {
    a.kind = Local;
    a.slot = l->slot;
  }
  return a;
}

bool IntChain::append(BinOp op, const Node* l, const Node* r) {
  if (op != BinOp::Add && op != BinOp::Sub && op != BinOp::Mul) return false;
  const IntArg right = IntArg::of(const_cast<Node*>(r));
  if (right.kind == IntArg::Other) return false;
  if (auto* b = dynamic_cast<const BinaryNode*>(l)) {
    if (!append(b->op, b->l.get(), b->r.get())) return false;
  } else {
    first_ = IntArg::of(const_cast<Node*>(l));
    if (first_.kind == IntArg::Other) return false;
  }
  steps_.push_back({op, right});
  return true;
}

IntChain IntChain::of(BinOp op, const Node* l, const Node* r) {
  IntChain c;
  if (!c.append(op, l, r)) return {};
  return c;
}

bool IntGuard::append(Node* cond) {
  if (auto* l = dynamic_cast<LogicNode*>(cond)) return l->is_and && append(l->l.get()) && append(l->r.get());
  auto* c = dynamic_cast<CompareNode*>(cond);
  if (!c) return false;
  for (CmpOp op : c->ops)
    if (op > CmpOp::Ge) return false;
  for (size_t k = 0; k < c->items.size(); ++k)
    items_.push_back({IntArg::of(c->items[k].get()), k ? c->ops[k - 1] : CmpOp::Eq, k == 0});
  return true;
}

IntGuard IntGuard::of(Node* cond) {
  IntGuard g;
  if (!g.append(cond)) return {};
  return g;
}

}  // namespace ptosim::frontend
