#pragma once
// Int index arithmetic without Values or virtual calls (Node::pure_int):
// conv2d's innermost iteration evaluates `h_out * STRIDE - PAD + hh` twice
// and `0 <= h_in < H` twice, and walking those trees node by node cost more
// than the iteration's four cache accesses (docs/notes/2026-12-07-speed.md).
// Both forms give exactly what the nodes' own pure_int gives: the same
// value, the same token (the latest of the leaves'), false in the same cases
// (a leaf not an int, an overflow).
#include <cstdint>
#include <vector>

#include "sim/frontend/nodes.h"

namespace ptosim::frontend {

// `a op b` for ints, op one of Eq .. Ge.
inline bool int_holds(CmpOp op, int64_t a, int64_t b) {
  switch (op) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return a != b;
    case CmpOp::Lt: return a < b;
    case CmpOp::Le: return a <= b;
    case CmpOp::Gt: return a > b;
    default: return a >= b;
  }
}

// One operand, read without a virtual call when it is a name or an int
// constant (resolved when its node is built), else through its pure_int.
struct IntArg {
  enum Kind : uint8_t { Other, Const, Global, Local } kind = Other;
  int slot = 0;
  int64_t c = 0;
  Node* n = nullptr;
  static IntArg of(Node* n);
  bool get(Frame& f, int64_t* x, uint32_t* tok) const {
    const Value* v;
    switch (kind) {
      case Const:
        *x = c;
        *tok = 0;
        return true;
      case Global: v = &f.globals[slot]; break;
      case Local: v = &f.locals[slot]; break;
      default: return n->pure_int(f, x, tok);
    }
    if (v->tag != VT::Int) return false;
    *x = v->i;
    *tok = v->tok;
    return true;
  }
};

// A left-deep tree of + - * over names and int constants (`h_out * STRIDE -
// PAD + hh` is ((h_out * STRIDE) - PAD) + hh, `i * K + k` too) as its first
// operand and a list of (operator, right operand): one pass with the value
// in a register, the tree's own order of evaluation and overflow tests.
// Empty (flat() false) for any other tree, which keeps the node walk.
class IntChain {
 public:
  // The tree `l op r`; empty unless it is such a tree.
  static IntChain of(BinOp op, const Node* l, const Node* r);
  bool flat() const { return !steps_.empty(); }
  bool run(Frame& f, int64_t* x, uint32_t* tok) const {
    uint32_t t = 0;
    int64_t a, b;
    if (!load(f, first_, &a, &t)) return false;
    for (const Step& s : steps_) {
      if (!load(f, s.arg, &b, &t)) return false;
      bool overflow;
      switch (s.op) {
        case BinOp::Add: overflow = __builtin_add_overflow(a, b, &a); break;
        case BinOp::Sub: overflow = __builtin_sub_overflow(a, b, &a); break;
        default: overflow = __builtin_mul_overflow(a, b, &a); break;
      }
      if (overflow) return false;
    }
    *x = a;
    *tok = t;
    return true;
  }
  // What the chain is (the flat loops copy it: flat_loop.h).
  struct Step {
    BinOp op;
    IntArg arg;  // Const, Global or Local
  };
  const IntArg& first() const { return first_; }
  const std::vector<Step>& steps() const { return steps_; }

 private:
  static bool load(Frame& f, const IntArg& a, int64_t* x, uint32_t* tok) {
    if (a.kind == IntArg::Const) {
      *x = a.c;
      return true;
    }
    const Value& v = (a.kind == IntArg::Global ? f.globals : f.locals)[a.slot];
    if (v.tag != VT::Int) return false;
    *x = v.i;
    if (v.tok > *tok) *tok = v.tok;
    return true;
  }
  bool append(BinOp op, const Node* l, const Node* r);
  IntArg first_;
  std::vector<Step> steps_;
};

// An `if` condition that is a comparison chain of ints or an `and` of such
// chains (conv2d's `0 <= h_in < H and 0 <= w_in < W`), flattened when the
// statement is compiled: one pass over the operands with no virtual call for
// a name or a constant, stopping where `and` and the chain stop.
class IntGuard {
 public:
  // Empty (usable() false) unless cond is such a condition.
  static IntGuard of(Node* cond);
  bool usable() const { return !items_.empty(); }
  // 1 / 0: the condition's truth; -1: an operand is not an int (evaluate the
  // condition as a tree; nothing evaluated here had side effects).
  int run(Frame& f) const {
    int64_t a = 0, b;
    uint32_t tok;
    for (const Item& it : items_) {
      if (!it.arg.get(f, &b, &tok)) return -1;
      if (!it.first && !int_holds(it.op, a, b)) return 0;
      a = b;
    }
    return 1;
  }
  // What the condition is (the flat loops copy it: flat_loop.h).
  struct Item {
    IntArg arg;
    CmpOp op = CmpOp::Eq;  // between the operand before and this one
    bool first = false;    // the first operand of a chain
  };
  const std::vector<Item>& items() const { return items_; }

 private:
  bool append(Node* cond);
  std::vector<Item> items_;
};

}  // namespace ptosim::frontend
