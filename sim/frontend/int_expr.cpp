// Building the int forms of int_expr.h when a node is compiled: which
// operands are plain names or int constants, and a tree's chain.
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

}  // namespace ptosim::frontend
