#pragma once
// The hot path of naive kernels, `C[i, j] += A[i, k] * B[k, j]`: a tensor
// named by a slot, indexed by N int variables named by slots. Unrolled over
// N, no virtual calls; anything unusual (not a tensor, a float index, out of
// bounds, a freed tensor, a fused region, a new view) falls back to the
// general Subscript path, which also produces the error messages.
#include "sim/frontend/stmt_nodes.h"

namespace ptosim::frontend {

template <int N>
struct FastElem {
  bool obj_local = false;
  int obj_slot = 0;
  bool local[N] = {};
  int slot[N] = {};

  static const Value& at(Frame& f, bool loc, int s) { return (loc ? f.locals : f.globals)[s]; }

  // Physical index, or -1 for the general path. `cache` belongs to the node.
  int64_t phys(Frame& f, const Subscript& s) const {
    const Value& o = at(f, obj_local, obj_slot);
    if (__builtin_expect(o.tag != VT::Tensor, 0)) return -1;
    const TensorObj& to = *static_cast<const TensorObj*>(o.o);
    const ElemCache& c = s.cache;
    if (__builtin_expect(to.id != c.id, 0) && !s.fill_cache(to)) return -1;
    if (__builtin_expect(c.st->freed, 0)) return -1;
    int64_t p = c.offset;
    for (int k = 0; k < N; ++k) {
      const Value& iv = at(f, local[k], slot[k]);
      if (__builtin_expect(iv.tag != VT::Int, 0)) return -1;
      // Negative indices fail this unsigned test and take the general path.
      if (__builtin_expect(uint64_t(iv.i) >= uint64_t(c.size[k]), 0)) return -1;
      p += iv.i * c.stride[k];
    }
    return p;
  }
};

template <int N>
struct FastReadNode : SubscriptNode {
  FastElem<N> fe;
  explicit FastReadNode(Pos p) : SubscriptNode(p) {}
  Value eval(Frame& f) override {
    exec::ExecContext& ctx = f.in->ctx;
    int64_t p = fe.phys(f, s);
    if (__builtin_expect(p < 0 || ctx.fusing(), 0)) return SubscriptNode::eval(f);
    const ElemCache& c = s.cache;
    const exec::Storage& st = *c.st;
    try {
      ctx.access(st.base + uint64_t(p) * c.es, c.es, AccessKind::Read, st.space, st.tag);
    } catch (const exec::OpError& e) {
      fail(pos, e.what());
    }
    return elem_to_value(st.dtype, elem_value(st, p));
  }
};

template <int N>
struct FastAugStmt : AugSubscriptStmt {
  FastElem<N> fe;
  explicit FastAugStmt(Pos p) : AugSubscriptStmt(p) {}
  Flow exec(Frame& f) override {
    exec::ExecContext& ctx = f.in->ctx;
    int64_t p = fe.phys(f, s);
    if (__builtin_expect(p < 0 || ctx.fusing() || op != BinOp::Add, 0)) return AugSubscriptStmt::exec(f);
    const ElemCache& c = s.cache;
    exec::Storage& st = *c.st;
    if (__builtin_expect(ctx.read_only(st.space) || st.dtype == exec::DType::I32 || st.dtype == exec::DType::I8, 0))
      return AugSubscriptStmt::exec(f);
    const uint64_t addr = st.base + uint64_t(p) * c.es;
    try {
      ctx.access(addr, c.es, AccessKind::Read, st.space, st.tag);
    } catch (const exec::OpError& e) {
      fail(pos, e.what());
    }
    Value r = value->eval(f);
    double nv;
    if (__builtin_expect(r.tag == VT::Float, 1)) {
      nv = elem_value(st, p) + r.f;
    } else {
      Value res = binary_op(*f.in, op, Value::number(elem_value(st, p)), r, pos);
      if (!res.is_number()) fail(pos, "cannot assign a tensor to a single element (use a slice)");
      nv = res.as_double();
    }
    if (__builtin_expect(st.freed, 0)) fail(pos, "use of freed tensor '" + st.name + "'");
    try {
      ctx.access(addr, c.es, AccessKind::Write, st.space, st.tag);
    } catch (const exec::OpError& e) {
      fail(pos, e.what());
    }
    st.values[size_t(p)] = store_round(st.dtype, nv);
    return Flow::Normal;
  }
};

}  // namespace ptosim::frontend
