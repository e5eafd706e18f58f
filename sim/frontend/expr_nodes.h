#pragma once
// Compiled expression nodes. Hot paths (names, constants, scalar arithmetic,
// scalar tensor elements) are inline; the rest lives in expr_nodes.cpp.
#include <string>
#include <vector>

#include "sim/exec/ops.h"
#include "sim/frontend/int_expr.h"
#include "sim/frontend/nodes.h"

namespace ptosim::frontend {

struct ConstNode : Node {
  Value v;
  ConstNode(Pos p, Value val) : Node(p), v(std::move(val)) {}
  Value eval(Frame&) override { return v; }
  int64_t eval_int(Frame& f) override { return v.tag == VT::Int ? v.i : Node::eval_int(f); }
  const Value* peek(Frame&) override { return &v; }
  bool pure_int(Frame&, int64_t* x, uint32_t* tok) override {
    if (v.tag != VT::Int) return false;
    *x = v.i;
    *tok = v.tok;
    return true;
  }
};

[[noreturn]] void undefined_name(Pos pos, const std::string& name, bool local);

template <bool Local>
struct NameNode : Node {
  int slot;
  std::string name;
  NameNode(Pos p, int s, std::string n) : Node(p), slot(s), name(std::move(n)) {}
  const Value& get(Frame& f) {
    const Value& v = Local ? f.locals[slot] : f.globals[slot];
    if (__builtin_expect(v.tag == VT::Undef, 0)) undefined_name(pos, name, Local);
    return v;
  }
  Value eval(Frame& f) override { return get(f); }
  int64_t eval_int(Frame& f) override {
    const Value& v = get(f);
    return v.tag == VT::Int ? v.i : Node::eval_int(f);
  }
  const Value* peek(Frame& f) override { return &get(f); }
  // Undefined reads as "not an int": eval() then reports it.
  bool pure_int(Frame& f, int64_t* x, uint32_t* tok) override {
    const Value& v = Local ? f.locals[slot] : f.globals[slot];
    if (v.tag != VT::Int) return false;
    *x = v.i;
    *tok = v.tok;
    return true;
  }
};

struct BinaryNode : Node {
  BinOp op;
  NodeP l, r;
  IntArg li, ri;    // l and r for pure_int
  IntChain flat;    // the whole tree for pure_int, when it is a left-deep chain of + - * over names and int constants
  BinaryNode(Pos p, BinOp o, NodeP a, NodeP b)
      : Node(p), op(o), l(std::move(a)), r(std::move(b)), li(IntArg::of(l.get())), ri(IntArg::of(r.get())),
        flat(IntChain::of(op, l.get(), r.get())) {}
  Value eval(Frame& f) override {
    Value a = l->eval(f);
    Value b = r->eval(f);
    if (a.tag == VT::Float && b.tag == VT::Float) {
      switch (op) {
        case BinOp::Add:
          return Value::number_from(a.f + b.f, f.in->ctx.scalar_op(exec::OpKind::Add, a.tok, b.tok));
        case BinOp::Sub:
          return Value::number_from(a.f - b.f, f.in->ctx.scalar_op(exec::OpKind::Subtract, a.tok, b.tok));
        case BinOp::Mul:
          return Value::number_from(a.f * b.f, f.in->ctx.scalar_op(exec::OpKind::Multiply, a.tok, b.tok));
        default: break;
      }
    } else if (a.tag == VT::Int && b.tag == VT::Int) {
      // Index arithmetic (conv2d's `h_out * STRIDE - PAD + hh`): binary_op's
      // int path without its dispatch; an overflow goes there for its error.
      int64_t x;
      bool overflow = true;
      switch (op) {
        case BinOp::Add: overflow = __builtin_add_overflow(a.i, b.i, &x); break;
        case BinOp::Sub: overflow = __builtin_sub_overflow(a.i, b.i, &x); break;
        case BinOp::Mul: overflow = __builtin_mul_overflow(a.i, b.i, &x); break;
        default: break;
      }
      if (!overflow) {
        Value r = Value::integer(x);
        r.tok = a.tok > b.tok ? a.tok : b.tok;
        return r;
      }
    }
    return binary_op(*f.in, op, a, b, pos);
  }
  // eval()'s int path: the same value and token, false where eval() would
  // go elsewhere (an operand not an int, another operator, an overflow).
  bool pure_int(Frame& f, int64_t* x, uint32_t* tok) override {
    return flat.flat() ? flat.run(f, x, tok) : walk_int(f, x, tok);
  }
  // Out of line, so that the chain's path sets up no frame for it.
  [[gnu::noinline]] bool walk_int(Frame& f, int64_t* x, uint32_t* tok) {
    if (op != BinOp::Add && op != BinOp::Sub && op != BinOp::Mul) return false;
    int64_t a, b;
    uint32_t ta, tb;
    if (!li.get(f, &a, &ta) || !ri.get(f, &b, &tb)) return false;
    bool overflow;
    switch (op) {
      case BinOp::Add: overflow = __builtin_add_overflow(a, b, x); break;
      case BinOp::Sub: overflow = __builtin_sub_overflow(a, b, x); break;
      default: overflow = __builtin_mul_overflow(a, b, x); break;
    }
    if (overflow) return false;
    *tok = ta > tb ? ta : tb;
    return true;
  }
  int64_t eval_int(Frame& f) override {
    int64_t x;
    uint32_t tok;
    return pure_int(f, &x, &tok) ? x : Node::eval_int(f);
  }
};

struct UnaryNode : Node {
  UnOp op;
  NodeP x;
  UnaryNode(Pos p, UnOp o, NodeP e) : Node(p), op(o), x(std::move(e)) {}
  Value eval(Frame& f) override { return unary_op(*f.in, op, x->eval(f), pos); }
  bool eval_bool(Frame& f) override {
    if (op == UnOp::Not) return !x->eval_bool(f);
    return Node::eval_bool(f);
  }
};

struct CompareNode : Node {
  std::vector<CmpOp> ops;
  std::vector<NodeP> items;
  std::vector<Pos> op_pos;
  std::vector<IntArg> int_items;  // items for the int path (resolve(); empty: general path only)
  CompareNode(Pos p) : Node(p) {}
  void resolve() {
    int_items.clear();
    for (auto& n : items) int_items.push_back(IntArg::of(n.get()));
  }
  bool eval_bool(Frame& f) override {
    // Ints first (pure_int): a guard like `0 <= h_in < H` without a Value;
    // the first operand that is not an int goes on below from where this
    // stopped (pure_int has no side effects, so evaluating it again is safe).
    size_t k = 0;
    int64_t x, y;
    uint32_t tok;
    if (int_items.empty() || !int_items[0].get(f, &x, &tok)) return eval_from(f, 0, items[0]->eval(f));
    for (; k < ops.size(); ++k) {
      if (ops[k] > CmpOp::Ge || !int_items[k + 1].get(f, &y, &tok)) return eval_from(f, k, Value::integer(x));
      if (!int_holds(ops[k], x, y)) return false;
      x = y;
    }
    return true;
  }
  // The chain from comparison k on, its left operand a already evaluated.
  // Out of line: its Values would give the int path a frame to set up.
  [[gnu::noinline]] bool eval_from(Frame& f, size_t k, Value a) {
    for (; k < ops.size(); ++k) {
      Value b = items[k + 1]->eval(f);
      if (a.is_int() && b.is_int() && ops[k] <= CmpOp::Ge) {
        if (!int_holds(ops[k], a.i, b.i)) return false;
      } else if (!compare_op(ops[k], a, b, op_pos[k])) {
        return false;
      }
      a = std::move(b);
    }
    return true;
  }
  Value eval(Frame& f) override { return Value::boolean(eval_bool(f)); }
};

// `a and b` / `a or b` return an operand, as in Python.
struct LogicNode : Node {
  bool is_and;
  NodeP l, r;
  LogicNode(Pos p, bool a, NodeP x, NodeP y) : Node(p), is_and(a), l(std::move(x)), r(std::move(y)) {}
  Value eval(Frame& f) override {
    Value a = l->eval(f);
    bool t = truthy(a, l->pos);
    if (is_and ? !t : t) return a;
    return r->eval(f);
  }
  bool eval_bool(Frame& f) override {
    bool t = l->eval_bool(f);
    if (is_and ? !t : t) return t;
    return r->eval_bool(f);
  }
};

struct IfElseNode : Node {
  NodeP cond, yes, no;
  IfElseNode(Pos p, NodeP c, NodeP y, NodeP n) : Node(p), cond(std::move(c)), yes(std::move(y)), no(std::move(n)) {}
  Value eval(Frame& f) override { return cond->eval_bool(f) ? yes->eval(f) : no->eval(f); }
};

struct SeqNode : Node {
  bool tuple;
  std::vector<NodeP> items;
  SeqNode(Pos p, bool t) : Node(p), tuple(t) {}
  Value eval(Frame& f) override {
    std::vector<Value> v;
    v.reserve(items.size());
    for (auto& n : items) v.push_back(n->eval(f));
    return tuple ? Value::tuple(std::move(v)) : Value::list(std::move(v));
  }
};

struct AttrNode : Node {
  NodeP obj;
  std::string name;
  AttrNode(Pos p, NodeP o, std::string n) : Node(p), obj(std::move(o)), name(std::move(n)) {}
  Value eval(Frame& f) override { return get_attribute(*f.in, obj->eval(f), name, pos); }
};

// A call of a builtin known at compile time: arguments already mapped to
// parameter slots.
struct CallBuiltinNode : Node {
  const BuiltinDef* def;
  std::vector<NodeP> args;   // by parameter index; null = absent
  std::vector<Pos> arg_pos;
  std::vector<NodeP> rest;
  std::vector<std::string> extra_kw;
  std::vector<NodeP> extra_kw_nodes;
  std::vector<Pos> extra_kw_pos;
  CallBuiltinNode(Pos p, const BuiltinDef* d) : Node(p), def(d) {}
  Value eval(Frame& f) override;
};

// The keywords of a call as written; an empty name is a `**d`.
struct KeywordNodes {
  std::vector<std::string> names;
  std::vector<NodeP> nodes;
  std::vector<Pos> pos;
  bool empty() const { return names.empty(); }
  // Evaluated, each `**d` expanded into d's entries (string keys, none
  // given twice), appended to the out vectors.
  void eval(Frame& f, std::vector<std::string>& out_names, std::vector<Value>& vals, std::vector<Pos>& out_pos) const;
};

struct CallNode : Node {
  NodeP callee;
  std::vector<NodeP> args;
  KeywordNodes kw;
  CallNode(Pos p, NodeP c) : Node(p), callee(std::move(c)) {}
  Value eval(Frame& f) override;
};

// `{k: v, ...}`
struct DictNode : Node {
  std::vector<NodeP> keys, values;
  explicit DictNode(Pos p) : Node(p) {}
  Value eval(Frame& f) override;
};

// `obj.name(...)` where obj is not the pto module: a method of a dict, a
// list or a tensor (methods.cpp), else the attribute called.
struct MethodCallNode : Node {
  NodeP obj;
  std::string name;
  std::vector<NodeP> args;
  KeywordNodes kw;
  MethodCallNode(Pos p, NodeP o, std::string n) : Node(p), obj(std::move(o)), name(std::move(n)) {}
  Value eval(Frame& f) override;
};

// Where a subscript index comes from: resolved at compile time so that the
// common `A[i, k]` reads two slots without a virtual call.
struct IndexSrc {
  enum Kind : uint8_t { Const, Global, Local, Expr, Slice } kind = Expr;
  int slot = 0;
  int64_t c = 0;
  NodeP node;                  // Expr (also the slow path for Global/Local)
  NodeP start, stop, step;     // Slice parts (may be null)
  Pos pos;
  int64_t get(Frame& f) const {
    const Value* v;
    switch (kind) {
      case Const: return c;
      case Global: v = &f.globals[slot]; break;
      case Local: v = &f.locals[slot]; break;
      default: return node->eval_int(f);
    }
    if (__builtin_expect(v->tag == VT::Int, 1)) return v->i;
    return node->eval_int(f);
  }
};

// The address map of one tensor view, cached by a subscript node for the
// view it saw last: element access then costs a few multiply-adds.
struct ElemCache {
  uint64_t id = 0;  // TensorObj::id this is for; 0 = empty
  exec::Storage* st = nullptr;
  int64_t offset = 0;
  int64_t size[8] = {};
  int64_t stride[8] = {};
  uint32_t es = 0;
};

// The element path shared by reads, writes and augmented writes.
struct Subscript {
  NodeP obj;
  IndexSrc::Kind obj_kind = IndexSrc::Expr;  // Global / Local: obj is a plain name
  int obj_slot = 0;
  std::vector<IndexSrc> idx;
  bool has_slice = false;
  Pos pos;  // the '['
  mutable ElemCache cache;

  // The indices name one element of t (no slice, one index per dimension).
  bool names_element(const exec::Tensor& t) const { return !has_slice && int(idx.size()) == t.rank(); }
  // The subscripted object when it is a defined name, without a virtual call.
  const Value* obj_ref(Frame& f) const {
    const Value* v = obj_kind == IndexSrc::Global ? &f.globals[obj_slot]
                     : obj_kind == IndexSrc::Local ? &f.locals[obj_slot]
                                                   : nullptr;
    return v && v->tag != VT::Undef ? v : nullptr;
  }

  bool fill_cache(const TensorObj& to) const;

  // Physical index of a scalar element of a live tensor with a linear view,
  // or -1: take the general path (which also reports the errors).
  int64_t fast_phys(Frame& f, const Value& o) const {
    const TensorObj& to = *static_cast<const TensorObj*>(o.o);
    if (__builtin_expect(to.id != cache.id, 0) && !fill_cache(to)) return -1;
    if (__builtin_expect(cache.st->freed, 0)) return -1;
    const int n = int(idx.size());
    int64_t phys = cache.offset;
    for (int k = 0; k < n; ++k) {
      int64_t v = idx[size_t(k)].get(f);
      const int64_t size = cache.size[k];
      if (v < 0) v += size;
      if (__builtin_expect(uint64_t(v) >= uint64_t(size), 0)) return -1;
      phys += v * cache.stride[k];
    }
    return phys;
  }

  // Physical element index of t[idx...], or -1 when this is not a plain
  // element access of a live tensor (take the slow path).
  int64_t element(Frame& f, const exec::Tensor& t, int64_t* vals) const {
    const int n = int(idx.size());
    if (has_slice || n != t.rank()) return -1;
    const auto& shape = t.shape();
    const auto& dims = t.dims();
    int64_t phys = t.offset();
    for (int k = 0; k < n; ++k) {
      int64_t v = idx[k].get(f);
      vals[k] = v;
      int64_t size = shape[k];
      if (v < 0) v += size;
      if (__builtin_expect(uint64_t(v) >= uint64_t(size), 0)) out_of_bounds(k, vals[k], size);
      phys += dims[k].contrib(v);
    }
    return phys;
  }
  [[noreturn]] void out_of_bounds(int k, int64_t v, int64_t size) const;
  // The one storage element `o[idx]` names, for a write or an augmented
  // write: the cached address map first, then the general computation (which
  // raises the index errors). phys < 0: not a single element of a live
  // tensor outside a fused region.
  struct ElemRef {
    exec::Storage* st = nullptr;
    int64_t phys = -1;
    uint32_t es = 0;
  };
  ElemRef element_ref(Frame& f, const Value& o) const;
  // Builds exec index items (evaluating every index / slice part).
  std::vector<exec::IndexItem> items(Frame& f) const;
  exec::Tensor view(Frame& f, const exec::Tensor& t) const;
  Value read(Frame& f, const Value& o) const;           // any object
  void write(Frame& f, const Value& o, Value v) const;  // `o[idx] = v`
  void augment(Frame& f, const Value& o, BinOp op, Node& rhs) const;  // `o[idx] op= rhs`
  std::vector<int64_t> int_indices(Frame& f) const;  // every index, evaluated (no slices)
  Value dict_index(Frame& f) const;                  // the one key of `d[key]`
};

inline double elem_value(const exec::Storage& st, int64_t phys) { return st.values[size_t(phys)]; }
// Whether an element of this type reads as an int (else as a float).
inline bool elem_is_int(exec::DType dt) { return dt == exec::DType::I32 || dt == exec::DType::I8; }
inline Value elem_to_value(exec::DType dt, double v) {
  if (elem_is_int(dt)) return Value::integer(int64_t(v));
  return Value::number(v);
}
inline double store_round(exec::DType dt, double v) {
  if (dt == exec::DType::F32) return double(float(v));
  return exec::round_to(dt, v);
}

// The element paths of every subscript node (general, cached and fast)
// end in these: one element `phys` (es bytes) of a live storage. Executor
// errors (the event limit) become program errors at pos. Inlined: out of
// line it cost a call per access of a naive loop (FastMacStmt's loop).
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline uint32_t elem_event(exec::ExecContext& ctx, const exec::Storage& st, int64_t phys, uint32_t es,
                           AccessKind kind, Pos pos, uint32_t dep = 0) {
  try {
    return ctx.access(st.base + uint64_t(phys) * es, es, kind, st.space, st.tag, dep, st.dtype);
  } catch (const exec::OpError& e) {
    fail(pos, e.what());
  }
}

// `st[phys]`: one read event, the element's value (produced by that event;
// `dep`: the event its address came from).
inline Value read_elem(exec::ExecContext& ctx, const exec::Storage& st, int64_t phys, uint32_t es, Pos pos,
                       uint32_t dep = 0) {
  const uint32_t t = elem_event(ctx, st, phys, es, AccessKind::Read, pos, dep);
  Value v = elem_to_value(st.dtype, elem_value(st, phys));
  v.tok = t;
  return v;
}

// The cold parts of the element paths, out of line.
[[noreturn]] void read_only_elem(const exec::Storage& st, Pos pos);
[[noreturn]] void freed_elem(const exec::Storage& st, Pos pos);
double augment_value(Interp& in, BinOp op, exec::DType dt, double old, const Value& r, Pos pos, uint32_t* tok);

// `st[phys] = v`: one write event (an error in a read-only space), v rounded
// to the dtype; `dep`: the event that produced v. The value is stored before
// the event is emitted, as every op does: --check-data's write carries the
// bytes there at its event. Inlined as elem_event is.
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline void write_elem(exec::ExecContext& ctx, exec::Storage& st, int64_t phys, uint32_t es, double v, Pos pos,
                       uint32_t dep = 0) {
  if (__builtin_expect(ctx.read_only(st.space), 0)) read_only_elem(st, pos);
  st.values[size_t(phys)] = store_round(st.dtype, v);
  elem_event(ctx, st, phys, es, AccessKind::Write, pos, dep);
}

// `st[phys] op= rhs`, in Python's order: the element is read (one read
// event), then rhs evaluated, then combined and written back (one write).
inline void augment_elem(Frame& f, exec::Storage& st, int64_t phys, uint32_t es, BinOp op, Node& rhs, Pos pos,
                         uint32_t dep = 0) {
  exec::ExecContext& ctx = f.in->ctx;
  const uint32_t rd = elem_event(ctx, st, phys, es, AccessKind::Read, pos, dep);
  const double old = elem_value(st, phys);
  Value r = rhs.eval(f);
  double nv;
  uint32_t tok;
  if (__builtin_expect(r.tag == VT::Float && op == BinOp::Add && !elem_is_int(st.dtype), 1)) {
    tok = ctx.scalar_op(exec::OpKind::Add, rd, r.tok);
    nv = old + r.f;
  } else {
    tok = rd;
    nv = augment_value(*f.in, op, st.dtype, old, r, pos, &tok);
  }
  // The right-hand side may have ended the tensor's life (e.g. a call that
  // left a scope).
  if (__builtin_expect(st.freed, 0)) freed_elem(st, pos);
  write_elem(ctx, st, phys, es, nv, pos, tok);
}

struct SubscriptNode : Node {
  Subscript s;
  explicit SubscriptNode(Pos p) : Node(p) {}
  Value eval(Frame& f) override {
    const Value* o = s.obj_ref(f);
    if (o && o->tag == VT::Tensor) {
      exec::ExecContext& ctx = f.in->ctx;
      if (!ctx.fusing()) {
        int64_t phys = s.fast_phys(f, *o);
        if (phys >= 0) return read_elem(ctx, *s.cache.st, phys, s.cache.es, pos);
      }
    }
    return slow(f);
  }
  Value slow(Frame& f);
};

}  // namespace ptosim::frontend
