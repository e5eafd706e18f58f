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

 private:
  struct Step {
    BinOp op;
    IntArg arg;  // Const, Global or Local
  };
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

}  // namespace ptosim::frontend
