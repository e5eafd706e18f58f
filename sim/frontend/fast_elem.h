#pragma once
// The hot path of naive kernels, `C[i, j] += A[i, k] * B[k, j]`: a tensor
// named by a slot, indexed by N int variables named by slots. Unrolled over
// N, no virtual calls; anything unusual (not a tensor, a float index, out of
// bounds, a freed tensor, a fused region, a new view) falls back to the
// general Subscript path, which also produces the error messages.
#include "sim/frontend/stmt_nodes.h"

namespace ptosim::frontend {

// The physical index of the element of tensor `o` at the n ints index(k),
// or -1 for the general path. `s.cache` belongs to the subscript's node.
// *dep: the latest event an index came from (an index loaded from memory).
// Shared by FastElem and the flat loops (flat_loop.h), which name their
// operands differently.
template <class Index>
inline int64_t elem_phys(const Value& o, const Subscript& s, int n, Index index, uint32_t* dep) {
  if (__builtin_expect(o.tag != VT::Tensor, 0)) return -1;
  const TensorObj& to = *static_cast<const TensorObj*>(o.o);
  const ElemCache& c = s.cache;
  if (__builtin_expect(to.id != c.id, 0) && !s.fill_cache(to)) return -1;
  if (__builtin_expect(c.st->freed, 0)) return -1;
  int64_t p = c.offset;
  for (int k = 0; k < n; ++k) {
    const Value& iv = index(k);
    if (__builtin_expect(iv.tag != VT::Int, 0)) return -1;
    // Negative indices fail this unsigned test and take the general path.
    if (__builtin_expect(uint64_t(iv.i) >= uint64_t(c.size[k]), 0)) return -1;
    p += iv.i * c.stride[k];
    if (iv.tok > *dep) *dep = iv.tok;
  }
  return p;
}

template <int N>
struct FastElem {
  bool obj_local = false;
  int obj_slot = 0;
  bool local[N] = {};
  int slot[N] = {};

  static const Value& at(Frame& f, bool loc, int s) { return (loc ? f.locals : f.globals)[s]; }

  // Physical index, or -1 for the general path (elem_phys).
  int64_t phys(Frame& f, const Subscript& s, uint32_t* dep) const {
    return elem_phys(at(f, obj_local, obj_slot), s, N, [&](int k) -> const Value& { return at(f, local[k], slot[k]); },
                     dep);
  }
};

template <int N>
struct FastReadNode : SubscriptNode {
  FastElem<N> fe;
  explicit FastReadNode(Pos p) : SubscriptNode(p) {}
  Value eval(Frame& f) override {
    exec::ExecContext& ctx = f.in->ctx;
    uint32_t dep = 0;
    int64_t p = fe.phys(f, s, &dep);
    if (__builtin_expect(p < 0 || ctx.fusing(), 0)) return SubscriptNode::eval(f);
    return read_elem(ctx, *s.cache.st, p, s.cache.es, pos, dep);
  }
};

// Errors are reported at the '[' (s.pos), as on the general path.
template <int N>
struct FastAugStmt : AugSubscriptStmt {
  FastElem<N> fe;
  explicit FastAugStmt(Pos p) : AugSubscriptStmt(p) {}
  Flow exec(Frame& f) override {
    uint32_t dep = 0;
    int64_t p = fe.phys(f, s, &dep);
    if (__builtin_expect(p < 0 || f.in->ctx.fusing(), 0)) return AugSubscriptStmt::exec(f);
    augment_elem(f, *s.cache.st, p, s.cache.es, op, *value, s.pos, dep);
    return Flow::Normal;
  }
};

}  // namespace ptosim::frontend
