#pragma once
// A range loop whose body holds only int assignments (`h_in = h_out *
// STRIDE - PAD + hh`), `if`s over int comparisons without an `else`,
// multiply-adds `T[...] += A[...] * B[...]` (fast_mac.h) and range loops of
// the same (conv2d_basic's seven loops, matmul_naive's three), run as one
// flat list of ops: no virtual call, Value or block bookkeeping per
// statement, every slot the nest touches resolved once per run. conv2d's
// tree spent more instructions walking its statements than its four cache
// accesses cost (docs/notes/2026-12-07-interp.md). Where the nest's ints
// are affine in its loop variables, it runs from an affine plan instead
// (flat_plan.cpp; docs/notes/2026-12-07-cgconv.md).
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
  // The loops an affine plan (below) takes in, the nest's own included.
  static constexpr int kMaxDepth = 8;
  // base + sum co[l] * (v_l - first_l) over the loop variables v_l by depth
  // l; [lo, hi] holds every value of it and of the chain that computed it.
  struct Aff {
    int64_t base = 0;
    int64_t co[kMaxDepth] = {};
    int64_t lo = 0, hi = 0;
    uint32_t tok = 0;
  };

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

  // The affine plan (flat_plan.cpp): when every int the nest computes is
  // affine in its loop variables (a chain of + - and * by what the nest does
  // not write), every bound is fixed and nothing can fail but an index, the
  // nest runs from the values of those ints at the loops' first iterations,
  // stepped per iteration (strength reduction), instead of from the chains.
  // A guard's comparison, or a multiply-add's index checked: lo <= q <= hi.
  struct PRange {
    int32_t q;
    int64_t lo, hi;
  };
  struct PAdv {
    int32_t q;
    int64_t by, back;  // per iteration; at the loop's end, (trips - 1) * by
  };
  struct PlanOp {
    int32_t q[3] = {-1, -1, -1};  // Assign: its value; Mac: the elements' physical indices
    uint32_t tok = 0;              // Assign: its value's token
    uint32_t dep[3] = {};  // Mac: the elements' address dependences
    uint32_t begin = 0, end = 0;  // Guard, Mac: pranges_; Loop: padv_
    uint64_t trips = 0;
    int64_t first = 0, by = 0;  // Loop
    bool never = false;         // Guard: a comparison of constants that fails
    bool leaf = false;          // Loop: no loop inside, its body in leaf_[lbegin, ...)
    uint32_t lbegin = 0;
  };
  // An op of a leaf loop's body with what it reads resolved (one per op).
  // A guard's or multiply-add's ranges: r[0, n) of quantities the loop
  // steps, checked per iteration; fixed[0, m) of the others, checked when
  // the loop starts (off: one fails, or `never`).
  struct LeafOp {
    Kind kind;
    bool never;
    bool off;
    uint8_t n, m;
    uint32_t skip;  // Guard: the ops to skip when it fails
    uint32_t k;     // ops_[k]
    SNode* s;
    Value* t;  // Assign: the target
    const Op* op;
    int32_t q[3];
    uint32_t dep[3];  // Assign: dep[0] is its value's token
    PRange r[4], fixed[4];
  };
  struct Walk;
  bool plan(Value* const* at, int64_t from, int64_t by, uint64_t trips, uint64_t steps_left);
  bool plan_range(Walk& w, uint32_t begin, uint32_t end, int depth, bool guarded, uint64_t* steps);
  bool plan_guard(Walk& w, const Op& op, PlanOp* p);
  bool plan_mac(Walk& w, const Op& op, PlanOp* p);
  uint32_t plan_op(Frame& f, Value* const* at, uint32_t k);
  bool plan_leaf(const Walk& w, uint32_t k, int depth, PlanOp* p);
  void run_leaf(Frame& f, Value* const* at, const Op& lop, const PlanOp& p);
  bool aload(Walk& w, int32_t ref, int64_t c, Aff* out) const;
  bool aeval(Walk& w, const Expr& e, Aff* out) const;
  int32_t quantity(Walk& w, const Aff& a);
  void run_plan(Frame& f, Value* const* at, uint32_t begin, uint32_t end);
  std::vector<int32_t> writes_;  // per slot: the ops that write it (assignments, loops)
  std::vector<int64_t> cur_;     // the plan's quantities now
  std::vector<PlanOp> pops_;
  std::vector<PRange> pranges_;
  std::vector<PAdv> padv_;
  std::vector<LeafOp> leaf_;
  uint32_t top_adv_ = 0;  // padv_[0, top_adv_): the nest's own loop's

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
