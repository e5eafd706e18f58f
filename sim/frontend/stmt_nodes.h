#pragma once
// Compiled statements and assignment targets.
#include <string>
#include <utility>
#include <vector>

#include "sim/frontend/expr_nodes.h"

namespace ptosim::frontend {

// A slot reference that may be global or local.
struct SlotRef {
  bool local = false;
  int slot = 0;
  Value& get(Frame& f) const { return (local ? f.locals : f.globals)[slot]; }
};

struct Target {
  Pos pos;
  explicit Target(Pos p) : pos(p) {}
  virtual ~Target() = default;
  virtual void assign(Frame& f, Value v) = 0;
  // The variable a plain name target rebinds (null for other targets).
  virtual Value* variable(Frame&) { return nullptr; }
};
using TargetP = std::unique_ptr<Target>;

template <bool Local>
struct NameTarget : Target {
  int slot;
  NameTarget(Pos p, int s) : Target(p), slot(s) {}
  void assign(Frame& f, Value v) override { (Local ? f.locals : f.globals)[slot] = std::move(v); }
  Value* variable(Frame& f) override { return &(Local ? f.locals : f.globals)[slot]; }
};

struct SubscriptTarget : Target {
  Subscript s;
  explicit SubscriptTarget(Pos p) : Target(p) {}
  void assign(Frame& f, Value v) override;
};

struct TupleTarget : Target {
  std::vector<TargetP> items;
  explicit TupleTarget(Pos p) : Target(p) {}
  void assign(Frame& f, Value v) override;
};

struct ExprStmt : SNode {
  NodeP e;
  ExprStmt(Pos p, NodeP x) : SNode(p), e(std::move(x)) {}
  Flow exec(Frame& f) override {
    e->eval(f);
    return Flow::Normal;
  }
};

struct AssignStmt : SNode {
  std::vector<TargetP> targets;
  NodeP value;
  std::string result_name;  // names tensors the right-hand side allocates
  // The one target is a plain name (`h_in = h_out * STRIDE - PAD + hh`):
  // an int result goes straight into its slot.
  bool one_name = false;
  SlotRef name_ref;
  AssignStmt(Pos p) : SNode(p) {}
  Flow exec(Frame& f) override;
};

template <bool Local>
struct AssignNameStmt : SNode {
  int slot;
  NodeP value;
  AssignNameStmt(Pos p, int s, NodeP v) : SNode(p), slot(s), value(std::move(v)) {}
  Flow exec(Frame& f) override {
    Value& v = (Local ? f.locals : f.globals)[slot];
    int64_t x;
    uint32_t tok;
    if (value->pure_int(f, &x, &tok)) {
      v.set_int(x);
      v.tok = tok;
    } else {
      v = value->eval(f);
    }
    return Flow::Normal;
  }
};

// Inside `with pto.memory(S)`, a view bound to a name (`t = X[a:b]`) of a
// tensor that lives elsewhere is copied into S, with pto.load's events: the
// block asks for the tensors it binds to live in S, and a view would move
// nothing. Anywhere else the view stays a view.
Value into_memory_scope(Frame& f, Value view, const std::string& name, Pos pos);

template <bool Local>
struct AssignSubscriptStmt : SNode {
  int slot;
  std::string name;
  NodeP value;
  AssignSubscriptStmt(Pos p, int s, std::string n, NodeP v) : SNode(p), slot(s), name(std::move(n)), value(std::move(v)) {}
  Flow exec(Frame& f) override {
    Value v = value->eval(f);
    if (v.tag == VT::Tensor) v = into_memory_scope(f, std::move(v), name, pos);
    (Local ? f.locals : f.globals)[slot] = std::move(v);
    return Flow::Normal;
  }
};

struct AugNameStmt : SNode {
  SlotRef ref;
  std::string name;
  BinOp op;
  NodeP value;
  AugNameStmt(Pos p) : SNode(p) {}
  Flow exec(Frame& f) override;
};

struct AugSubscriptStmt : SNode {
  Subscript s;
  BinOp op;
  NodeP value;
  AugSubscriptStmt(Pos p) : SNode(p) {}
  Flow exec(Frame& f) override {
    if (const Value* o = s.obj_ref(f)) {
      s.augment(f, *o, op, *value);
      return Flow::Normal;
    }
    Value tmp;
    const Value* o = s.obj->peek(f);
    if (!o) {
      tmp = s.obj->eval(f);
      o = &tmp;
    }
    s.augment(f, *o, op, *value);
    return Flow::Normal;
  }
};

struct ForRangeStmt;

// How many values range(a, b, s) yields (s != 0), without overflow.
uint64_t range_trips(int64_t a, int64_t b, int64_t s);

// A statement that can run a whole loop of which it is the only statement
// (fast_mac.h): one virtual call per loop instead of the block's work per
// iteration. Used only where the loop's own per-iteration work is plain
// (not `pto.parallel`, no dataflow core): run() does that work itself.
struct FusedLoop {
  virtual ~FusedLoop() = default;
  // Runs `loop`'s iterations from, from + by, ... (before `to`) with this
  // statement as the body; the loop's variable, steps and iteration count
  // as ForRangeStmt::exec keeps them.
  virtual Flow run(Frame& f, const ForRangeStmt& loop, int64_t from, int64_t to, int64_t by) = 0;
};

// Inside a `catch (...)` around statement `pos`: the executor's errors and
// the memory limits become program errors at pos (BlockNode's rule);
// anything else goes on as it was.
[[noreturn]] void fail_in_statement(Pos pos);

struct ForRangeStmt : SNode {
  SlotRef var;
  NodeP start, stop, step;  // start/step may be null
  BlockNode body;
  bool parallel = false;    // directly inside `with pto.parallel`
  // The body has a `break` or `return` (at any depth, conservatively): the
  // loop may end before its last iteration. Without one, a loop whose trip
  // count passes the iteration limit is refused before it starts.
  bool can_leave = true;
  // What runs the whole loop instead of the body's tree, else null: the
  // body's only statement when it runs loops itself (FusedLoop), or the
  // body's flat form (flat_loop.h), which `flat` owns.
  FusedLoop* fused = nullptr;
  std::unique_ptr<FusedLoop> flat;
  ForRangeStmt(Pos p) : SNode(p) {}
  Flow exec(Frame& f) override;
};

struct ForIterStmt : SNode {
  TargetP target;
  NodeP iter;
  BlockNode body;
  bool parallel = false;
  ForIterStmt(Pos p) : SNode(p) {}
  Flow exec(Frame& f) override;
};

struct IfStmt : SNode {
  NodeP cond;
  IntGuard guard;  // cond, when it is int comparisons (int_expr.h)
  BlockNode body, orelse;
  IfStmt(Pos p) : SNode(p) {}
  Flow exec(Frame& f) override {
    const int g = guard.usable() ? guard.run(f) : -1;
    if (g >= 0 ? g != 0 : cond->eval_bool(f)) return body.exec(f);
    return orelse.exec(f);
  }
};

struct FlowStmt : SNode {
  Flow flow;
  FlowStmt(Pos p, Flow fl) : SNode(p), flow(fl) {}
  Flow exec(Frame&) override { return flow; }
};

struct ReturnStmt : SNode {
  NodeP value;
  ReturnStmt(Pos p, NodeP v) : SNode(p), value(std::move(v)) {}
  Flow exec(Frame& f) override {
    f.ret = value ? value->eval(f) : Value::none();
    return Flow::Return;
  }
};

struct DefStmt : SNode {
  SlotRef target;
  const CompiledFunction* fn = nullptr;
  DefStmt(Pos p) : SNode(p) {}
  Flow exec(Frame& f) override;
};

struct AssertStmt : SNode {
  NodeP cond, message;
  AssertStmt(Pos p) : SNode(p) {}
  Flow exec(Frame& f) override;
};

struct ParamStmt : SNode {
  int slot = 0;
  std::string name;
  NodeP value;
  Value override_value;  // from -D; Undef when not given
  ParamStmt(Pos p) : SNode(p) {}
  Flow exec(Frame& f) override {
    f.globals[slot] = override_value.defined() ? override_value : value->eval(f);
    f.in->bound_params.emplace_back(name, f.globals[slot]);
    return Flow::Normal;
  }
};

struct ScopeItem {
  const BuiltinDef* def = nullptr;
  NodeP manager;  // instead of def: a method call giving a tool's block (tools.h)
  Pos pos;
  std::vector<NodeP> args;  // by parameter index
  std::vector<Pos> arg_pos;
  std::vector<std::string> extra_kw;
  std::vector<NodeP> extra_kw_nodes;
  std::vector<Pos> extra_kw_pos;
  // `with pto.tile(**d)`: bound when it runs, from these instead.
  bool dynamic = false;
  std::vector<NodeP> pos_nodes;
  KeywordNodes kw;
};

struct WithStmt : SNode {
  std::vector<ScopeItem> items;
  BlockNode body;
  std::vector<SlotRef> live_after;               // pto.fuse: names read after the block
  std::vector<SlotRef> fuse_dead;                // pto.fuse: names bound in it and never read after
  std::vector<std::vector<SlotRef>> dead_after;  // pto.auto_reuse: per body statement
  bool auto_reuse = false;
  WithStmt(Pos p) : SNode(p) {}
  Flow exec(Frame& f) override;

 private:
  // `block`: a tool's block item's value, kept from begin to end.
  void begin(Frame& f, const ScopeItem& it, Value& block);
  void begin_bound(Frame& f, const ScopeItem& it, Args& a);
  void end(Frame& f, const ScopeItem& it, const Value& block);
};

}  // namespace ptosim::frontend
