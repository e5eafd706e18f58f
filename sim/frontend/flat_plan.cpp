// The flat loops' affine plan (flat_loop.h): conv2d's nest computes two
// chains, a guard and three element addresses per multiply-add, ~500
// instructions of the ~1,140 its flat form spent per iteration
// (docs/notes/2026-12-07-interp.md), all of them affine in the loop
// variables. Planned once per run of the whole nest (the innermost loop's
// three trips alone did not pay for a plan), they are stepped instead.
//
// What stays the flat form's, exactly: every op runs in the same order with
// the same site numbering, position, statement, steps, loop iterations,
// values and tokens written to its slots, and events; the plan is refused
// (the flat form runs) wherever an op could take another path: an operand
// not an int, a chain that could overflow anywhere in the loops' box, a
// bound not fixed over the nest, a loop of no iteration, a name read before
// the nest writes it in the same iteration, a slot written twice, an
// assignment or loop under a guard, a fused region, an int tensor, an
// iteration limit the nest would reach. An index out of its bounds at one
// iteration (the guard's borders) runs that multiply-add as the flat form
// does: through its statement.
#include <algorithm>

#include "sim/frontend/fast_mac.h"
#include "sim/frontend/flat_loop.h"

namespace ptosim::frontend {

struct FlatLoop::Walk {
  Value* const* at;
  std::vector<Aff> st;    // per slot the nest writes: its value where defined
  std::vector<char> def;  // whether it is defined at this point of the walk
  std::vector<Aff> qs;    // the quantities, as cur_ will hold them
  size_t qbeg = 0;        // the innermost loop's first quantity (dedupe from here)
  std::vector<PRange> known;  // what the guards around the walk's point hold
};

namespace {
bool fixed(const FlatLoop::Aff& a) {
  for (int64_t c : a.co)
    if (c) return false;
  return true;
}

FlatLoop::Aff constant(int64_t c, uint32_t tok) {
  FlatLoop::Aff a;
  a.base = a.lo = a.hi = c;
  a.tok = tok;
  return a;
}

// x * k, or false on an overflow.
bool scale(const FlatLoop::Aff& x, int64_t k, FlatLoop::Aff* out) {
  FlatLoop::Aff r = x;
  int64_t l, h;
  if (__builtin_mul_overflow(x.base, k, &r.base) || __builtin_mul_overflow(x.lo, k, &l) ||
      __builtin_mul_overflow(x.hi, k, &h))
    return false;
  for (int d = 0; d < FlatLoop::kMaxDepth; ++d)
    if (__builtin_mul_overflow(x.co[d], k, &r.co[d])) return false;
  r.lo = std::min(l, h);
  r.hi = std::max(l, h);
  *out = r;
  return true;
}

// a op b for + - *, or false where the result is not affine or may overflow.
bool combine(BinOp op, const FlatLoop::Aff& a, const FlatLoop::Aff& b, FlatLoop::Aff* out) {
  FlatLoop::Aff r;
  if (op == BinOp::Mul) {
    if (fixed(b)) {
      if (!scale(a, b.base, &r)) return false;
    } else if (fixed(a)) {
      if (!scale(b, a.base, &r)) return false;
    } else {
      return false;
    }
  } else {
    const bool add = op == BinOp::Add;
    if (add ? __builtin_add_overflow(a.base, b.base, &r.base) : __builtin_sub_overflow(a.base, b.base, &r.base))
      return false;
    for (int d = 0; d < FlatLoop::kMaxDepth; ++d)
      if (add ? __builtin_add_overflow(a.co[d], b.co[d], &r.co[d]) : __builtin_sub_overflow(a.co[d], b.co[d], &r.co[d]))
        return false;
    if (add ? __builtin_add_overflow(a.lo, b.lo, &r.lo) || __builtin_add_overflow(a.hi, b.hi, &r.hi)
            : __builtin_sub_overflow(a.lo, b.hi, &r.lo) || __builtin_sub_overflow(a.hi, b.lo, &r.hi))
      return false;
  }
  r.tok = std::max(a.tok, b.tok);
  *out = r;
  return true;
}
}  // namespace

// A slot's value where the walk stands: what the nest does not write is
// read now (an int, else no plan); what it writes must be defined.
bool FlatLoop::aload(Walk& w, int32_t ref, int64_t c, Aff* out) const {
  if (ref < 0) {
    *out = constant(c, 0);
    return true;
  }
  if (!writes_[size_t(ref)]) {
    const Value& v = *w.at[ref];
    if (v.tag != VT::Int) return false;
    *out = constant(v.i, v.tok);
    return true;
  }
  if (!w.def[size_t(ref)]) return false;
  *out = w.st[size_t(ref)];
  return true;
}

bool FlatLoop::aeval(Walk& w, const Expr& e, Aff* out) const {
  const Step* s = steps_.data() + e.begin;
  const Step* end = steps_.data() + e.end;
  Aff a, b;
  if (!aload(w, s->arg.ref, s->arg.c, &a)) return false;
  for (++s; s < end; ++s)
    if (!aload(w, s->arg.ref, s->arg.c, &b) || !combine(s->op, a, b, &a)) return false;
  *out = a;
  return true;
}

// The index of a quantity equal to a's among the innermost loop's (which
// the same loops step), else a new one.
int32_t FlatLoop::quantity(Walk& w, const Aff& a) {
  for (size_t q = w.qbeg; q < w.qs.size(); ++q)
    if (w.qs[q].base == a.base && std::equal(a.co, a.co + kMaxDepth, w.qs[q].co)) return int32_t(q);
  w.qs.push_back(a);
  return int32_t(w.qs.size() - 1);
}

// A guard's comparisons as ranges of quantities: `a op b` holds where a
// quantity (b, a, or a - b where neither is fixed) lies in a range; those
// of one quantity intersected.
bool FlatLoop::plan_guard(Walk& w, const Op& op, PlanOp* p) {
  constexpr int64_t kMin = INT64_MIN, kMax = INT64_MAX;
  p->begin = uint32_t(pranges_.size());
  Aff a;
  for (uint32_t i = op.cmp_begin; i < op.cmp_end; ++i) {
    const Cmp& c = cmps_[i];
    Aff b;
    if (!aeval(w, c.e, &b) || c.op > CmpOp::Ge) return false;
    if (!c.first) {
      if (fixed(a) && fixed(b)) {
        p->never |= !int_holds(c.op, a.base, b.base);
      } else {
        // x cmp k, the quantity x on the left.
        Aff x;
        int64_t k = 0;
        CmpOp cmp = c.op;
        if (fixed(a)) {
          x = b;
          k = a.base;
          static const CmpOp mirror[] = {CmpOp::Eq, CmpOp::Ne, CmpOp::Gt, CmpOp::Ge, CmpOp::Lt, CmpOp::Le};
          cmp = mirror[int(c.op)];
        } else if (fixed(b)) {
          x = a;
          k = b.base;
        } else if (!combine(BinOp::Sub, a, b, &x)) {
          return false;
        }
        PRange r{0, kMin, kMax};
        switch (cmp) {
          case CmpOp::Eq: r.lo = r.hi = k; break;
          case CmpOp::Lt: p->never |= k == kMin, r.hi = k == kMin ? kMin : k - 1; break;
          case CmpOp::Le: r.hi = k; break;
          case CmpOp::Gt: p->never |= k == kMax, r.lo = k == kMax ? kMax : k + 1; break;
          case CmpOp::Ge: r.lo = k; break;
          default: return false;  // Ne: two ranges
        }
        r.q = quantity(w, x);
        auto same = std::find_if(pranges_.begin() + p->begin, pranges_.end(), [&](const PRange& o) { return o.q == r.q; });
        if (same == pranges_.end()) {
          pranges_.push_back(r);
        } else {
          same->lo = std::max(same->lo, r.lo);
          same->hi = std::min(same->hi, r.hi);
          p->never |= same->lo > same->hi;
        }
      }
    }
    a = b;
  }
  p->end = uint32_t(pranges_.size());
  return true;
}

// A multiply-add's three elements: tensors the nest does not write, their
// physical indices affine, each index checked per run where its range is
// not inside its dimension.
bool FlatLoop::plan_mac(Walk& w, const Op& op, PlanOp* p) {
  for (int k = 0; k < 3; ++k) {
    const Elem& e = op.e[k];
    if (writes_[size_t(e.obj)]) return false;
    const Value& o = *w.at[e.obj];
    if (o.tag != VT::Tensor) return false;
    const TensorObj& to = *static_cast<const TensorObj*>(o.o);
    const ElemCache& c = e.s->cache;
    if ((to.id != c.id && !e.s->fill_cache(to)) || c.st->freed || elem_is_int(c.st->dtype)) return false;
    Aff ph = constant(c.offset, 0);
    uint32_t dep = 0;
    for (int i = 0; i < e.rank; ++i) {
      Aff ix, term;
      if (!aload(w, e.idx[i], 0, &ix) || !scale(ix, c.stride[i], &term) || !combine(BinOp::Add, ph, term, &ph))
        return false;
      if (ix.lo < 0 || ix.hi >= c.size[i]) {
        const int32_t q = quantity(w, ix);
        if (std::none_of(w.known.begin(), w.known.end(),
                         [&](const PRange& r) { return r.q == q && r.lo >= 0 && r.hi < c.size[i]; }))
          pranges_.push_back({q, 0, c.size[i] - 1});
      }
      dep = std::max(dep, ix.tok);
    }
    p->q[k] = quantity(w, ph);
    p->dep[k] = dep;
  }
  return true;
}

// ops_[begin, end) at `depth` loops in; *steps: the iterations of the loops
// there (every one takes a step).
bool FlatLoop::plan_range(Walk& w, uint32_t begin, uint32_t end, int depth, bool guarded, uint64_t* steps) {
  for (uint32_t k = begin; k < end;) {
    const Op& op = ops_[k];
    PlanOp& p = pops_[k];
    switch (op.kind) {
      case Kind::Assign: {
        Aff v;
        if (guarded || writes_[size_t(op.slot)] != 1 || w.at[op.slot]->is_heap() || !aeval(w, op.value, &v))
          return false;
        p.q[0] = quantity(w, v);
        p.tok = v.tok;
        w.st[size_t(op.slot)] = v;
        w.def[size_t(op.slot)] = 1;
        ++k;
        break;
      }
      case Kind::Guard: {
        if (!plan_guard(w, op, &p)) return false;
        const size_t known = w.known.size();
        w.known.insert(w.known.end(), pranges_.begin() + p.begin, pranges_.begin() + p.end);
        if (!plan_range(w, k + 1, op.end, depth, true, steps)) return false;
        w.known.resize(known);
        k = op.end;
        break;
      }
      case Kind::Mac:
        p.begin = uint32_t(pranges_.size());
        if (!plan_mac(w, op, &p)) return false;
        p.end = uint32_t(pranges_.size());
        ++k;
        break;
      case Kind::Loop: {
        Aff a, b, s;
        if (guarded || depth >= kMaxDepth || writes_[size_t(op.slot)] != 1 || !aeval(w, op.value, &a) ||
            !aeval(w, op.stop, &b) || !aeval(w, op.step, &s) || !fixed(a) || !fixed(b) || !fixed(s) || !s.base)
          return false;
        p.trips = range_trips(a.base, b.base, s.base);
        p.first = a.base;
        p.by = s.base;
        int64_t span, last;
        if (!p.trips || __builtin_mul_overflow(int64_t(p.trips - 1), p.by, &span) ||
            __builtin_add_overflow(p.first, span, &last))
          return false;
        Aff var = constant(p.first, 0);
        var.co[depth] = 1;
        var.lo = std::min(p.first, last);
        var.hi = std::max(p.first, last);
        w.st[size_t(op.slot)] = var;
        w.def[size_t(op.slot)] = 1;
        const size_t qbeg = w.qbeg;
        w.qbeg = w.qs.size();
        uint64_t inner = 0;
        if (!plan_range(w, k + 1, op.end, depth + 1, false, &inner)) return false;
        // The loop's own quantities step with it.
        p.begin = uint32_t(padv_.size());
        for (size_t q = w.qbeg; q < w.qs.size(); ++q) {
          PAdv adv{int32_t(q), 0, 0};
          if (!w.qs[q].co[depth]) continue;
          if (__builtin_mul_overflow(w.qs[q].co[depth], p.by, &adv.by) ||
              __builtin_mul_overflow(adv.by, int64_t(p.trips - 1), &adv.back))
            return false;
          padv_.push_back(adv);
        }
        p.end = uint32_t(padv_.size());
        p.leaf = std::none_of(ops_.begin() + k + 1, ops_.begin() + op.end,
                              [](const Op& o) { return o.kind == Kind::Loop || o.kind == Kind::MacLoop; }) &&
                 plan_leaf(w, k, depth, &p);
        w.qbeg = qbeg;
        // What the loop wrote is not defined after it (its last values are
        // not affine in the loops that remain).
        w.def[size_t(op.slot)] = 0;
        for (uint32_t i = k + 1; i < op.end; ++i)
          if (ops_[i].kind == Kind::Assign || ops_[i].kind == Kind::Loop) w.def[size_t(ops_[i].slot)] = 0;
        uint64_t here;
        if (__builtin_add_overflow(inner, 1, &inner) || __builtin_mul_overflow(inner, p.trips, &here) ||
            __builtin_add_overflow(*steps, here, steps))
          return false;
        k = op.end;
        break;
      }
      default:
        return false;  // a multiply-add's own loop (FastMacStmt::run)
    }
  }
  return true;
}

// A leaf loop's body as leaf_ ops, or false (the loop's body then runs op
// by op) where a guard or multiply-add has more ranges than a LeafOp holds.
bool FlatLoop::plan_leaf(const Walk& w, uint32_t k, int depth, PlanOp* p) {
  const uint32_t end = ops_[k].end;
  const size_t lbegin = leaf_.size();
  for (uint32_t j = k + 1; j < end; ++j) {
    const Op& op = ops_[j];
    const PlanOp& pj = pops_[j];
    LeafOp l{};
    l.kind = op.kind;
    l.never = pj.never;
    l.k = j;
    l.s = op.stmt;
    l.op = &op;
    std::copy(pj.q, pj.q + 3, l.q);
    std::copy(pj.dep, pj.dep + 3, l.dep);
    if (op.kind == Kind::Assign) {
      l.t = w.at[op.slot];
      l.dep[0] = pj.tok;
    } else {
      for (uint32_t i = pj.begin; i < pj.end; ++i) {
        const PRange& r = pranges_[i];
        const bool steps = w.qs[size_t(r.q)].co[depth] != 0;
        if ((steps ? l.n : l.m) == 4) {
          leaf_.resize(lbegin);
          return false;
        }
        (steps ? l.r[l.n++] : l.fixed[l.m++]) = r;
      }
      if (op.kind == Kind::Guard) l.skip = op.end - j;
    }
    leaf_.push_back(l);
  }
  p->lbegin = uint32_t(lbegin);
  return true;
}

bool FlatLoop::plan(Value* const* at, int64_t from, int64_t by, uint64_t trips, uint64_t steps_left) {
  pops_.assign(ops_.size(), PlanOp{});
  pranges_.clear();
  leaf_.clear();
  padv_.clear();
  Walk w{at, std::vector<Aff>(slots_.size()), std::vector<char>(slots_.size(), 0), {}, 0, {}};
  int64_t span, last;
  if (!trips || writes_[size_t(var_)] != 1 || __builtin_mul_overflow(int64_t(trips - 1), by, &span) ||
      __builtin_add_overflow(from, span, &last))
    return false;
  Aff var = constant(from, 0);
  var.co[0] = 1;
  var.lo = std::min(from, last);
  var.hi = std::max(from, last);
  w.st[size_t(var_)] = var;
  w.def[size_t(var_)] = 1;
  uint64_t inner = 0, total;
  if (!plan_range(w, 0, uint32_t(ops_.size()), 1, false, &inner)) return false;
  if (__builtin_add_overflow(inner, 1, &inner) || __builtin_mul_overflow(inner, trips, &total) || total > steps_left)
    return false;
  // The nest's own loop's quantities go first in padv_: move them there.
  std::vector<PAdv> top;
  for (size_t q = 0; q < w.qs.size(); ++q) {
    PAdv adv{int32_t(q), 0, 0};
    if (!w.qs[q].co[0]) continue;
    if (__builtin_mul_overflow(w.qs[q].co[0], by, &adv.by)) return false;
    top.push_back(adv);
  }
  top_adv_ = uint32_t(top.size());
  padv_.insert(padv_.begin(), top.begin(), top.end());
  for (PlanOp& p : pops_)
    if (p.trips) p.begin += top_adv_, p.end += top_adv_;
  cur_.resize(w.qs.size());
  for (size_t q = 0; q < w.qs.size(); ++q) cur_[q] = w.qs[q].base;
  return true;
}

namespace {
// lo <= x <= hi.
inline bool within(int64_t x, int64_t lo, int64_t hi) { return uint64_t(x) - uint64_t(lo) <= uint64_t(hi) - uint64_t(lo); }
}  // namespace

// One assignment, guard or multiply-add as body() runs it, from the plan's
// quantities; the next op. Inlined into the loops (a leaf loop's body runs
// without a call per iteration).
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline uint32_t FlatLoop::plan_op(Frame& f, Value* const* at, uint32_t k) {
  Interp& in = *f.in;
  exec::ExecContext& ctx = in.ctx;
  const int64_t* cur = cur_.data();
  const Op& op = ops_[k];
  const PlanOp& p = pops_[k];
  SNode& s = *op.stmt;
  if (__builtin_expect(!s.stmt.site, 0)) s.stmt = {ctx.site_for_line(s.pos.line), s.pos.line, s.pos.col};
  in.at = s.pos;
  const PRange *rb = pranges_.data() + p.begin, *re = pranges_.data() + p.end;
  bool inside = true;
  switch (op.kind) {
    case Kind::Assign: {
      Value& t = *at[op.slot];
      t.set_int(cur[p.q[0]]);
      t.tok = p.tok;
      return k + 1;
    }
    case Kind::Guard:
      for (const PRange* r = rb; r < re; ++r) inside &= within(cur[r->q], r->lo, r->hi);
      return inside && !p.never ? k + 1 : op.end;
    default: {
      ctx.set_statement(&s.stmt);
      for (const PRange* r = rb; r < re; ++r) inside &= within(cur[r->q], r->lo, r->hi);
      if (__builtin_expect(!inside, 0)) {
        s.exec(f);
      } else {
        const ElemCache &c = op.e[0].s->cache, &a = op.e[1].s->cache, &b = op.e[2].s->cache;
        mac_elems(ctx, {c.st, cur[p.q[0]], c.es, op.e[0].pos, p.dep[0]}, {a.st, cur[p.q[1]], a.es, op.e[1].pos, p.dep[1]},
                  {b.st, cur[p.q[2]], b.es, op.e[2].pos, p.dep[2]});
      }
      return k + 1;
    }
  }
}

// A leaf loop (its statement set, its site numbered): what run_plan does
// with its ops, from leaf_; an error is converted at the op that was running.
void FlatLoop::run_leaf(Frame& f, Value* const* at, const Op& lop, const PlanOp& p) {
  Interp& in = *f.in;
  exec::ExecContext& ctx = in.ctx;
  int64_t* cur = cur_.data();
  const Pos pos = lop.loop->pos;
  Value& var = *at[lop.slot];
  LeafOp *lb = leaf_.data() + p.lbegin, *le = lb + (lop.end - uint32_t(&lop - ops_.data()) - 1);
  const PAdv *ab = padv_.data() + p.begin, *ae = padv_.data() + p.end;
  for (LeafOp* o = lb; o < le; ++o) {
    bool off = o->never;
    for (int i = 0; i < o->m; ++i) off |= !within(cur[o->fixed[i].q], o->fixed[i].lo, o->fixed[i].hi);
    o->off = off;
  }
  const LeafOp* o = lb;
  try {
    int64_t v = p.first;
    for (uint64_t t = 0;;) {
      var.set_int(v);
      take_step(in, pos);
      ctx.loop_iteration(1);
      for (o = lb; o < le;) {
        SNode& s = *o->s;
        if (__builtin_expect(!s.stmt.site, 0)) s.stmt = {ctx.site_for_line(s.pos.line), s.pos.line, s.pos.col};
        in.at = s.pos;
        if (o->kind == Kind::Assign) {
          o->t->set_int(cur[o->q[0]]);
          o->t->tok = o->dep[0];
          ++o;
          continue;
        }
        bool inside = !o->off;
        for (int i = 0; i < o->n; ++i) inside &= within(cur[o->r[i].q], o->r[i].lo, o->r[i].hi);
        if (o->kind == Kind::Guard) {
          o += inside ? 1 : o->skip;
          continue;
        }
        ctx.set_statement(&s.stmt);
        if (__builtin_expect(!inside, 0)) {
          s.exec(f);
        } else {
          const Op& op = *o->op;
          const ElemCache &c = op.e[0].s->cache, &a = op.e[1].s->cache, &b = op.e[2].s->cache;
          mac_elems(ctx, {c.st, cur[o->q[0]], c.es, op.e[0].pos, o->dep[0]},
                    {a.st, cur[o->q[1]], a.es, op.e[1].pos, o->dep[1]}, {b.st, cur[o->q[2]], b.es, op.e[2].pos, o->dep[2]});
        }
        ++o;
      }
      if (++t == p.trips) break;
      v += p.by;
      for (const PAdv* a = ab; a < ae; ++a) cur[a->q] += a->by;
    }
  } catch (...) {
    // The op that was running (a step's error passes through unchanged).
    fail_in_statement(ops_[(o < le ? o : lb)->k].stmt->pos);
  }
  for (const PAdv* a = ab; a < ae; ++a) cur[a->q] -= a->back;
}

// body() with the plan's quantities: the same ops, sites, positions,
// statements, steps and events. An error is converted at the op that was
// running (e), as the innermost block does.
void FlatLoop::run_plan(Frame& f, Value* const* at, uint32_t begin, uint32_t end) {
  Interp& in = *f.in;
  exec::ExecContext& ctx = in.ctx;
  int64_t* cur = cur_.data();
  uint32_t k = begin, e = begin;
  try {
    while (k < end) {
      const Op& op = ops_[k];
      e = k;
      if (op.kind != Kind::Loop) {
        k = plan_op(f, at, k);
        continue;
      }
      const PlanOp& p = pops_[k];
      SNode& s = *op.stmt;
      if (__builtin_expect(!s.stmt.site, 0)) s.stmt = {ctx.site_for_line(s.pos.line), s.pos.line, s.pos.col};
      in.at = s.pos;
      ForRangeStmt& l = *op.loop;
      ctx.set_statement(&l.stmt);
      if (p.leaf) {
        run_leaf(f, at, op, p);
        k = op.end;
        continue;
      }
      Value& var = *at[op.slot];
      const PAdv *ab = padv_.data() + p.begin, *ae = padv_.data() + p.end;
      int64_t v = p.first;
      for (uint64_t t = 0;;) {
        var.set_int(v);
        take_step(in, l.pos);
        ctx.loop_iteration(1);
        run_plan(f, at, k + 1, op.end);
        if (++t == p.trips) break;
        v += p.by;
        for (const PAdv* a = ab; a < ae; ++a) cur[a->q] += a->by;
      }
      for (const PAdv* a = ab; a < ae; ++a) cur[a->q] -= a->back;
      k = op.end;
    }
  } catch (...) {
    fail_in_statement(ops_[e].stmt->pos);
  }
}

}  // namespace ptosim::frontend
