// Building a loop nest's flat form from its statement tree, and running it
// (flat_loop.h says why and what stays the tree's).
#include "sim/frontend/flat_loop.h"

#include <algorithm>

#include "sim/frontend/fast_mac.h"

namespace ptosim::frontend {

std::unique_ptr<FlatLoop> FlatLoop::of(const ForRangeStmt& loop) {
  std::unique_ptr<FlatLoop> fl(new FlatLoop);
  fl->var_ = fl->slot(loop.var);
  if (!fl->add_block(loop.body) || fl->ops_.empty() || fl->slots_.size() > kMaxSlots) return nullptr;
  fl->writes_.assign(fl->slots_.size(), 0);
  ++fl->writes_[size_t(fl->var_)];
  for (const Op& op : fl->ops_)
    if (op.kind == Kind::Assign || op.kind == Kind::Loop || op.kind == Kind::MacLoop) ++fl->writes_[size_t(op.slot)];
  return fl;
}

int32_t FlatLoop::slot(SlotRef r) {
  for (size_t k = 0; k < slots_.size(); ++k)
    if (slots_[k].local == r.local && slots_[k].slot == r.slot) return int32_t(k);
  slots_.push_back(r);
  return int32_t(slots_.size() - 1);
}

// One step: a name or an int constant (what IntChain's operands are).
bool FlatLoop::expr_of(const IntArg& a, Expr* e) {
  Step s{BinOp::Add, {}};
  switch (a.kind) {
    case IntArg::Const: s.arg.c = a.c; break;
    case IntArg::Global: s.arg.ref = slot({false, a.slot}); break;
    case IntArg::Local: s.arg.ref = slot({true, a.slot}); break;
    default: return false;
  }
  e->begin = uint32_t(steps_.size());
  steps_.push_back(s);
  e->end = e->begin + 1;
  return true;
}

// What the node's pure_int computes, when it is a name, an int constant or
// a chain (anything else is not flattened: its pure_int may never succeed).
bool FlatLoop::expr_of(Node* n, Expr* e) {
  auto* b = dynamic_cast<BinaryNode*>(n);
  if (!b) return expr_of(IntArg::of(n), e);
  if (!b->flat.flat() || !expr_of(b->flat.first(), e)) return false;
  for (const IntChain::Step& s : b->flat.steps()) {
    Expr one;
    if (!expr_of(s.arg, &one)) return false;
    steps_[one.begin].op = s.op;
  }
  e->end = uint32_t(steps_.size());
  return true;
}

bool FlatLoop::add_block(const BlockNode& b) {
  for (const SNodeP& s : b.stmts)
    if (!add(s.get())) return false;
  return true;
}

template <int N>
bool FlatLoop::add_mac(SNode* s) {
  auto* m = dynamic_cast<FastMacStmt<N>*>(s);
  if (!m) return false;
  Op op;
  op.kind = Kind::Mac;
  op.stmt = s;
  auto elem = [&](const FastElem<N>& fe, const Subscript& sub, Pos pos, Elem* e) {
    e->obj = slot({fe.obj_local, fe.obj_slot});
    for (int k = 0; k < N; ++k) e->idx[k] = slot({fe.local[k], fe.slot[k]});
    e->rank = N;
    e->s = &sub;
    e->pos = pos;
  };
  elem(m->fe, m->s, m->s.pos, &op.e[0]);
  elem(m->a->fe, m->a->s, m->a->pos, &op.e[1]);
  elem(m->b->fe, m->b->s, m->b->pos, &op.e[2]);
  ops_.push_back(op);
  return true;
}

bool FlatLoop::add(SNode* s) {
  Op op;
  op.stmt = s;
  if (auto* a = dynamic_cast<AssignStmt*>(s)) {
    if (!a->one_name || a->targets.size() != 1 || !dynamic_cast<BinaryNode*>(a->value.get())) return false;
    op.slot = slot(a->name_ref);
    if (!expr_of(a->value.get(), &op.value)) return false;
  } else if (auto* g = dynamic_cast<AssignNameStmt<false>*>(s)) {
    op.slot = slot({false, g->slot});
    if (!expr_of(g->value.get(), &op.value)) return false;
  } else if (auto* l = dynamic_cast<AssignNameStmt<true>*>(s)) {
    op.slot = slot({true, l->slot});
    if (!expr_of(l->value.get(), &op.value)) return false;
  } else if (auto* i = dynamic_cast<IfStmt*>(s)) {
    if (!i->guard.usable() || !i->orelse.stmts.empty()) return false;
    op.kind = Kind::Guard;
    op.cmp_begin = uint32_t(cmps_.size());
    for (const IntGuard::Item& it : i->guard.items()) {
      Cmp c{{}, it.op, it.first};
      if (!(it.arg.kind == IntArg::Other ? expr_of(it.arg.n, &c.e) : expr_of(it.arg, &c.e))) return false;
      cmps_.push_back(c);
    }
    op.cmp_end = uint32_t(cmps_.size());
    const size_t at = ops_.size();
    ops_.push_back(op);
    if (!add_block(i->body)) return false;
    ops_[at].end = uint32_t(ops_.size());
    return true;
  } else if (add_mac<1>(s) || add_mac<2>(s) || add_mac<3>(s) || add_mac<4>(s)) {
    return true;
  } else if (auto* r = dynamic_cast<ForRangeStmt*>(s)) {
    // A loop of such statements has a flat form of its own, which this one
    // takes in; a loop of one multiply-add runs it (fast_mac.h).
    if (r->parallel || !r->fused) return false;
    const bool inner = r->fused == r->flat.get();
    op.kind = inner ? Kind::Loop : Kind::MacLoop;
    op.slot = slot(r->var);
    op.loop = r;
    const IntArg zero{IntArg::Const, 0, 0, nullptr}, one{IntArg::Const, 0, 1, nullptr};
    if (!(r->start ? expr_of(r->start.get(), &op.value) : expr_of(zero, &op.value)) ||
        !expr_of(r->stop.get(), &op.stop) || !(r->step ? expr_of(r->step.get(), &op.step) : expr_of(one, &op.step)))
      return false;
    const size_t at = ops_.size();
    ops_.push_back(op);
    if (inner && !add_block(r->body)) return false;
    ops_[at].end = uint32_t(ops_.size());
    return true;
  } else {
    return false;
  }
  ops_.push_back(op);
  return true;
}

namespace {
inline bool load(Value* const* at, int32_t ref, int64_t c, int64_t* x, uint32_t* tok) {
  if (ref < 0) {
    *x = c;
    return true;
  }
  const Value& v = *at[ref];
  if (__builtin_expect(v.tag != VT::Int, 0)) return false;
  *x = v.i;
  if (v.tok > *tok) *tok = v.tok;
  return true;
}

// The statement as the tree runs it (BlockNode's bookkeeping was done but
// for the statement, which the int ops leave alone).
void tree(Frame& f, SNode& s) {
  f.in->ctx.set_statement(&s.stmt);
  s.exec(f);
}
}  // namespace

// IntChain::run's value and token (the latest of *tok and the operands').
// Inlined, with the token in a register: out of line, the calls cost more
// than conv2d's one-operand comparisons.
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline bool FlatLoop::eval(Value* const* at, const Expr& e, int64_t* x, uint32_t* tok) const {
  const Step* s = steps_.data() + e.begin;
  const Step* end = steps_.data() + e.end;
  uint32_t t = *tok;
  int64_t a, b;
  if (!load(at, s->arg.ref, s->arg.c, &a, &t)) return false;
  for (++s; s < end; ++s) {
    if (!load(at, s->arg.ref, s->arg.c, &b, &t)) return false;
    bool overflow;
    switch (s->op) {
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

// IntGuard::run's answer: 1, 0, or -1 (an operand not an int).
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline int FlatLoop::test(Value* const* at, const Op& op) const {
  int64_t a = 0, b;
  uint32_t tok = 0;
  for (uint32_t k = op.cmp_begin; k < op.cmp_end; ++k) {
    const Cmp& c = cmps_[k];
    if (!eval(at, c.e, &b, &tok)) return -1;
    if (!c.first && !int_holds(c.op, a, b)) return 0;
    a = b;
  }
  return 1;
}

Flow FlatLoop::run(Frame& f, const ForRangeStmt& loop, int64_t from, int64_t to, int64_t by) {
  Value* at[kMaxSlots];
  for (size_t k = 0; k < slots_.size(); ++k) at[k] = &slots_[k].get(f);
  Interp& in = *f.in;
  exec::ExecContext& ctx = in.ctx;
  // The tree's blocks leave the loop's own statement set after each
  // iteration; nothing between the ops here looks at it.
  const exec::ExecContext::Statement* outer = ctx.statement();
  Value& var = *at[var_];
  const uint32_t n = uint32_t(ops_.size());
  const uint64_t trips = range_trips(from, to, by);
  if (plan(at, from, by, trips, in.step_limit - std::min(in.steps, in.step_limit))) {
    int64_t* cur = cur_.data();
    int64_t v = from;
    for (uint64_t t = 0;;) {
      var.set_int(v);
      take_step(in, loop.pos);
      ctx.loop_iteration(1);
      run_plan(f, at, 0, n);
      if (++t == trips) break;
      v += by;
      for (uint32_t a = 0; a < top_adv_; ++a) cur[padv_[a].q] += padv_[a].by;
    }
    ctx.set_statement(outer);
    return Flow::Normal;
  }
  for (int64_t v = from; by > 0 ? v < to : v > to;) {
    var.set_int(v);
    take_step(in, loop.pos);
    ctx.loop_iteration(1);
    body(f, at, 0, n);
    if (__builtin_add_overflow(v, by, &v)) break;
  }
  ctx.set_statement(outer);
  return Flow::Normal;
}

// ops_[begin, end) once, as BlockNode::exec runs their statements.
void FlatLoop::body(Frame& f, Value* const* at, uint32_t begin, uint32_t end) {
  Interp& in = *f.in;
  exec::ExecContext& ctx = in.ctx;
  uint32_t k = begin;
  try {
    while (k < end) {
      Op& op = ops_[k];
      SNode& s = *op.stmt;
      if (__builtin_expect(!s.stmt.site, 0)) s.stmt = {ctx.site_for_line(s.pos.line), s.pos.line, s.pos.col};
      in.at = s.pos;
      switch (op.kind) {
        case Kind::Assign: {
          int64_t x;
          uint32_t tok = 0;
          Value& t = *at[op.slot];
          // A heap value's release runs under the statement: the tree's.
          if (__builtin_expect(!t.is_heap() && eval(at, op.value, &x, &tok), 1)) {
            t.set_int(x);
            t.tok = tok;
          } else {
            tree(f, s);
          }
          ++k;
          break;
        }
        case Kind::Guard: {
          const int g = test(at, op);
          if (__builtin_expect(g < 0, 0)) {
            tree(f, s);
            k = op.end;
          } else {
            k = g ? k + 1 : op.end;
          }
          break;
        }
        case Kind::Mac:
          switch (op.e[0].rank) {
            case 1: mac<1>(f, at, op); break;
            case 2: mac<2>(f, at, op); break;
            case 3: mac<3>(f, at, op); break;
            default: mac<4>(f, at, op); break;
          }
          ++k;
          break;
        default:
          loop(f, at, k);
          k = op.end;
          break;
      }
    }
  } catch (...) {
    fail_in_statement(ops_[k].stmt->pos);
  }
}

// FastMacStmt<N>::step with the operands' slots resolved.
template <int N>
void FlatLoop::mac(Frame& f, Value* const* at, Op& op) {
  exec::ExecContext& ctx = f.in->ctx;
  ctx.set_statement(&op.stmt->stmt);
  uint32_t d[3] = {0, 0, 0};
  int64_t p[3];
  for (int k = 0; k < 3; ++k) {
    const Elem& e = op.e[k];
    p[k] = elem_phys(*at[e.obj], *e.s, N, [&](int i) -> const Value& { return *at[e.idx[i]]; }, &d[k]);
  }
  if (__builtin_expect((p[0] | p[1] | p[2]) < 0 || ctx.fusing(), 0)) {
    op.stmt->exec(f);
    return;
  }
  const ElemCache &c = op.e[0].s->cache, &a = op.e[1].s->cache, &b = op.e[2].s->cache;
  if (__builtin_expect(elem_is_int(c.st->dtype) || elem_is_int(a.st->dtype) || elem_is_int(b.st->dtype), 0)) {
    op.stmt->exec(f);
    return;
  }
  mac_elems(ctx, {c.st, p[0], c.es, op.e[0].pos, d[0]}, {a.st, p[1], a.es, op.e[1].pos, d[1]},
            {b.st, p[2], b.es, op.e[2].pos, d[2]});
}

// ForRangeStmt::exec for a loop inside: its bounds, its checks, then its
// body's ops (or its multiply-add's own loop); the statement itself where
// a bound is not an int, the step is 0 or the iteration limit is near.
void FlatLoop::loop(Frame& f, Value* const* at, uint32_t k) {
  const Op& op = ops_[k];
  Interp& in = *f.in;
  exec::ExecContext& ctx = in.ctx;
  ForRangeStmt& l = *op.loop;
  ctx.set_statement(&l.stmt);
  int64_t a, b, s;
  uint32_t tok = 0;
  if (!eval(at, op.value, &a, &tok) || !eval(at, op.stop, &b, &tok) || !eval(at, op.step, &s, &tok) || s == 0) {
    l.exec(f);
    return;
  }
  if (!l.can_leave) {
    const uint64_t trips = range_trips(a, b, s), left = in.step_limit - std::min(in.steps, in.step_limit);
    if (trips > left) {
      l.exec(f);
      return;
    }
  }
  if (op.kind == Kind::MacLoop) {
    l.fused->run(f, l, a, b, s);
    return;
  }
  Value& var = *at[op.slot];
  for (int64_t v = a; s > 0 ? v < b : v > b;) {
    var.set_int(v);
    take_step(in, l.pos);
    ctx.loop_iteration(1);
    body(f, at, k + 1, op.end);
    if (__builtin_add_overflow(v, s, &v)) break;
  }
}

}  // namespace ptosim::frontend
