#pragma once
// A range loop whose body holds only int assignments (`h_in = h_out *
// STRIDE - PAD + hh`), `if`s over int comparisons without an `else`,
// multiply-adds `T[...] += A[...] * B[...]` (fast_mac.h) and range loops of
// the same (conv2d_basic's seven loops, matmul_naive's three), run as one
// flat list of ops: no virtual call, Value or block bookkeeping per
// statement, every slot the nest touches resolved once per run. conv2d's
// tree spent more instructions walking its statements than its four cache
// accesses cost (docs/notes/2026-12-07-interp.md).
//
// Every event, value, site, position, counter and error is the tree's:
// each op does what its statement's fast path does, in the tree's order,
// and where that path would not be taken (an operand not an int, an
// overflow, an index out of bounds or negative, a fused region, an int
// tensor) the statement runs as the tree runs it, from its start (the fast
// paths have no side effect before they commit). Set the statement only
// where events or allocations can follow: the int ops make none.
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/frontend/stmt_nodes.h"

namespace ptosim::frontend {

class FlatLoop final : public FusedLoop {
 public:
  // The flat form of `loop`'s body; null when a statement is of another kind.
  static std::unique_ptr<FlatLoop> of(const ForRangeStmt& loop);
  // ForRangeStmt::exec's loop from its bounds, checked there.
  Flow run(Frame& f, const ForRangeStmt& loop, int64_t from, int64_t to, int64_t by) override;

  // The slots one run resolves on its stack (conv2d's nest: 23).
  static constexpr size_t kMaxSlots = 64;

 private:
  // An int operand: a slot (index into the run's table) or a constant.
  struct Arg {
    int32_t ref = -1;  // -1: the constant c
    int64_t c = 0;
  };
  struct Step {
    BinOp op;  // unused for an expression's first operand
    Arg arg;
  };
  // steps_[begin, end): a left-deep chain of + - * (IntChain), or one operand.
  struct Expr {
    uint32_t begin = 0, end = 0;
  };
  struct Cmp {
    Expr e;
    CmpOp op;    // between the operand before and this one
    bool first;  // the first operand of a chain (IntGuard)
  };
  struct Elem {
    int32_t obj = 0;
    int32_t idx[4] = {};
    int rank = 0;  // the same for the three (FastMacStmt<N>)
    const Subscript* s = nullptr;
    Pos pos;  // its events'
  };
  enum class Kind : uint8_t { Assign, Guard, Mac, Loop, MacLoop };
  struct Op {
    Kind kind = Kind::Assign;
    SNode* stmt = nullptr;  // its site and position, and its own exec where the fast path does not apply
    uint32_t end = 0;   // Guard, Loop: one past the body's last op
    int32_t slot = -1;  // Assign: the target; Loop, MacLoop: the variable
    Expr value, stop, step;  // Assign: value; Loop, MacLoop: value is the start
    uint32_t cmp_begin = 0, cmp_end = 0;  // Guard: cmps_
    Elem e[3];          // Mac: the target, A, B
    ForRangeStmt* loop = nullptr;
  };

  FlatLoop() = default;
  bool add_block(const BlockNode& b);
  bool add(SNode* s);
  int32_t slot(SlotRef r);
  bool expr_of(Node* n, Expr* e);
  bool expr_of(const IntArg& a, Expr* e);
  template <int N>
  bool add_mac(SNode* s);

  void body(Frame& f, Value* const* at, uint32_t begin, uint32_t end);
  template <int N>
  void mac(Frame& f, Value* const* at, Op& op);
  void loop(Frame& f, Value* const* at, uint32_t k);
  bool eval(Value* const* at, const Expr& e, int64_t* x, uint32_t* tok) const;
  int test(Value* const* at, const Op& op) const;

  std::vector<SlotRef> slots_;
  int32_t var_ = 0;
  std::vector<Op> ops_;
  std::vector<Step> steps_;
  std::vector<Cmp> cmps_;
};

}  // namespace ptosim::frontend
