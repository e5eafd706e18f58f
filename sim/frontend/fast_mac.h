#pragma once
// The innermost statement of naive kernels, `C[i, j] += A[i, k] * B[k, j]`
// (and conv2d's `Y[n, f, h, w] += X[...] * Wt[...]`), as one node: the
// three element accesses, the multiply and the add without a virtual call
// or a Value between them, and, when it is a loop's whole body, the loop
// run here (ForRangeStmt::fused) without the block's per-statement work.
// The profile that asked for it: docs/notes/2026-12-06-speed.md. Every
// event, value and error is the tree's: the same helpers in the same order
// (the target's read, A's read, B's read, the multiply, the add, the
// write); anything unusual takes FastAugStmt's path before any event.
#include "sim/frontend/fast_elem.h"

namespace ptosim::frontend {

// One multiply-add of elements already found (tensor st, physical index p,
// element size e, position pos of its events, the event its address came
// from d): the target's read, A's read, B's read, the multiply, the add, the
// write, as the tree does them. Shared by FastMacStmt and the flat loops
// (flat_loop.h).
struct MacElem {
  exec::Storage* st;
  int64_t p;
  uint32_t e;
  Pos pos;
  uint32_t d;
};
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline void mac_elems(exec::ExecContext& ctx, const MacElem& c, const MacElem& a, const MacElem& b) {
  exec::Storage& sc = *c.st;
  const exec::Storage &sa = *a.st, &sb = *b.st;
  // The common case in one batch: the four accesses (the target's read,
  // A's, B's, the write) when the two scalar ops between them hand the sink
  // nothing (then the write waits for no event: dep 0, as scalar_op() says
  // without dataflow) and the target is writable. The scalar ops are
  // counted first; nothing between them and the accesses can see it.
  if (__builtin_expect(ctx.lane_takes(4) && !ctx.read_only(sc.space), 1) &&
      __builtin_expect(ctx.scalar_ops_quiet(exec::OpKind::Multiply, exec::OpKind::Add), 1)) {
    using L = exec::ExecContext::LaneAccess;
    const uint64_t at = sc.base + uint64_t(c.p) * c.e;
    ctx.access_lane<4>({L{at, c.e, AccessKind::Read, sc.space, sc.tag, c.d},
                        L{sa.base + uint64_t(a.p) * a.e, a.e, AccessKind::Read, sa.space, sa.tag, a.d},
                        L{sb.base + uint64_t(b.p) * b.e, b.e, AccessKind::Read, sb.space, sb.tag, b.d},
                        L{at, c.e, AccessKind::Write, sc.space, sc.tag, 0}});
    const double product = elem_value(sa, a.p) * elem_value(sb, b.p);
    sc.values[size_t(c.p)] = store_round(sc.dtype, elem_value(sc, c.p) + product);
    return;
  }
  uint32_t rc, ta, tb;
  if (__builtin_expect(ctx.lane_takes(3), 1)) {  // the three reads' checks made once
    using L = exec::ExecContext::LaneAccess;
    rc = ctx.access_lane<3>({L{sc.base + uint64_t(c.p) * c.e, c.e, AccessKind::Read, sc.space, sc.tag, c.d},
                             L{sa.base + uint64_t(a.p) * a.e, a.e, AccessKind::Read, sa.space, sa.tag, a.d},
                             L{sb.base + uint64_t(b.p) * b.e, b.e, AccessKind::Read, sb.space, sb.tag, b.d}});
    ta = rc + 1;
    tb = rc + 2;
  } else {
    rc = elem_event(ctx, sc, c.p, c.e, AccessKind::Read, c.pos, c.d);
    ta = elem_event(ctx, sa, a.p, a.e, AccessKind::Read, a.pos, a.d);
    tb = elem_event(ctx, sb, b.p, b.e, AccessKind::Read, b.pos, b.d);
  }
  const double old = elem_value(sc, c.p);
  const double va = elem_value(sa, a.p);
  const double vb = elem_value(sb, b.p);
  const uint32_t tm = ctx.scalar_op(exec::OpKind::Multiply, ta, tb);
  const double product = va * vb;
  const uint32_t tok = ctx.scalar_op(exec::OpKind::Add, rc, tm);
  write_elem(ctx, sc, c.p, c.e, old + product, c.pos, tok);
}

template <int N>
struct FastMacStmt final : FastAugStmt<N>, FusedLoop {
  // The product's operands, owned by `value` (a BinaryNode Mul).
  FastReadNode<N>* a = nullptr;
  FastReadNode<N>* b = nullptr;
  explicit FastMacStmt(Pos p) : FastAugStmt<N>(p) {}

  Flow exec(Frame& f) override {
    step(f);
    return Flow::Normal;
  }

  Flow run(Frame& f, const ForRangeStmt& loop, int64_t from, int64_t to, int64_t by) override {
    // No iteration: nothing, not even the statement's site (sites are
    // numbered in the order statements first run).
    const uint64_t trips = range_trips(from, to, by);
    if (!trips) return Flow::Normal;
    Interp& in = *f.in;
    exec::ExecContext& ctx = in.ctx;
    const exec::ExecContext::Statement* outer = ctx.statement();
    if (!this->stmt.site) this->stmt = {ctx.site_for_line(this->pos.line), this->pos.line, this->pos.col};
    Value& var = loop.var.get(f);
    try {
      ctx.set_statement(&this->stmt);
      in.at = this->pos;
      if (strided(f, var, from, from + int64_t(trips - 1) * by, trips)) {
        run_strided(f, loop, var, from, by, trips);
      } else {
        for (int64_t v = from; by > 0 ? v < to : v > to;) {
          var.set_int(v);
          take_step(in, loop.pos);
          ctx.loop_iteration(1);
          step(f);
          if (__builtin_add_overflow(v, by, &v)) break;
        }
      }
    } catch (...) {
      fail_in_statement(this->pos);
    }
    ctx.set_statement(outer);
    return Flow::Normal;
  }

 private:
  // One operand over the loop: its physical index at the first iteration,
  // what each iteration adds, and the event its address depends on.
  struct Walk {
    int64_t at = 0, per_trip = 0;
    uint32_t dep = 0;
  };
  Walk c_, a_, b_;

  // Whether every iteration takes the fast path, from the loop variable's
  // first and last values: each index is a variable the body does not
  // assign, so a physical index is affine in the loop variable and within
  // bounds at every iteration when it is at both ends (FastElem::phys,
  // the per-iteration test itself, is what decides). Fills c_, a_, b_.
  bool strided(Frame& f, Value& var, int64_t first, int64_t last, uint64_t trips) {
    exec::ExecContext& ctx = f.in->ctx;
    if (ctx.fusing()) return false;
    auto walk = [&](const FastElem<N>& fe, const Subscript& s, Walk* w) {
      uint32_t dep_last = 0;
      var.set_int(first);
      w->at = fe.phys(f, s, &w->dep);
      var.set_int(last);
      const int64_t end = fe.phys(f, s, &dep_last);
      if (w->at < 0 || end < 0 || elem_is_int(s.cache.st->dtype)) return false;
      w->per_trip = trips > 1 ? (end - w->at) / int64_t(trips - 1) : 0;
      return true;
    };
    return walk(this->fe, this->s, &c_) && walk(a->fe, a->s, &a_) && walk(b->fe, b->s, &b_);
  }

  // The loop when strided() said yes: what step() does, the indices stepped.
  void run_strided(Frame& f, const ForRangeStmt& loop, Value& var, int64_t from, int64_t by, uint64_t trips) {
    Interp& in = *f.in;
    exec::ExecContext& ctx = in.ctx;
    exec::Storage *sc = this->s.cache.st, *sa = a->s.cache.st, *sb = b->s.cache.st;
    const uint32_t ec = this->s.cache.es, ea = a->s.cache.es, eb = b->s.cache.es;
    int64_t pc = c_.at, pa = a_.at, pb = b_.at, v = from;
    for (uint64_t t = 0; t < trips; ++t, v += by, pc += c_.per_trip, pa += a_.per_trip, pb += b_.per_trip) {
      var.set_int(v);
      take_step(in, loop.pos);
      ctx.loop_iteration(1);
      mac_elems(ctx, {sc, pc, ec, this->s.pos, c_.dep}, {sa, pa, ea, a->pos, a_.dep}, {sb, pb, eb, b->pos, b_.dep});
    }
  }

  void step(Frame& f) {
    exec::ExecContext& ctx = f.in->ctx;
    uint32_t dc = 0, da = 0, db = 0;
    // Indices are plain variables: evaluating them all first changes nothing.
    const int64_t pc = this->fe.phys(f, this->s, &dc);
    const int64_t pa = a->fe.phys(f, a->s, &da);
    const int64_t pb = b->fe.phys(f, b->s, &db);
    if (__builtin_expect((pc | pa | pb) < 0 || ctx.fusing(), 0)) {
      FastAugStmt<N>::exec(f);
      return;
    }
    exec::Storage *sc = this->s.cache.st, *sa = a->s.cache.st, *sb = b->s.cache.st;
    if (__builtin_expect(elem_is_int(sc->dtype) || elem_is_int(sa->dtype) || elem_is_int(sb->dtype), 0)) {
      FastAugStmt<N>::exec(f);
      return;
    }
    mac_elems(ctx, {sc, pc, this->s.cache.es, this->s.pos, dc}, {sa, pa, a->s.cache.es, a->pos, da},
              {sb, pb, b->s.cache.es, b->pos, db});
  }
};

}  // namespace ptosim::frontend
