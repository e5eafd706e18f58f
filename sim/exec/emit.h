#pragma once
// How the op implementations turn operands into events (not public API):
// operand modes, coalescing and strided grouping of accesses, index tables,
// and the emission helpers every op shares.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/exec/exec_context.h"
#include "sim/exec/ops.h"

namespace ptosim::exec {
namespace detail {

// How one operand of an op turns into events.
enum class Mode : uint8_t {
  Element,  // cached / constant space: per element or per vector, in loop order
  Bulk,     // scratchpad or register space: byte runs of the whole operand
  Reg,      // fused intermediate: register bytes only (space register, addr 0)
};

Mode natural_mode(const ExecContext& c, const Tensor& t);
// Under pto.tile, operands in element-mode spaces are loaded into the tile
// space; scratchpad / register operands are used in place.
inline bool needs_load(const ExecContext& c, const Tensor& t) { return natural_mode(c, t) == Mode::Element; }
// Fuse-aware: inside pto.fuse, intermediates and re-read inputs are Reg.
Mode read_mode(ExecContext& c, const Tensor& t);
// Fuse-aware: inside pto.fuse, every result is Reg (written at fuse_end if live).
Mode write_mode(ExecContext& c, const Tensor& t);
// OpError when t's space is read-only.
void check_writable(const ExecContext& c, const Tensor& t, const char* what);

// Strided grouping (memories: scratchpad and register spaces only): runs of
// exactly one element whose addresses form an arithmetic progression become
// one strided access (elem_bytes, stride, bytes = elem_bytes x count), so the
// bank model sees e.g. a column of a row-major tile as one pattern. Runs
// longer than one element stay plain contiguous accesses.
struct StridedGrouper {
  uint32_t es = 0;  // element size; 0 = no grouping (cached / constant spaces)
  uint64_t first = 0, count = 0;
  int64_t stride = 0;
  // Takes the next run; emit(addr, bytes, elem_bytes, stride, count) receives
  // finished accesses (elem_bytes 0 = contiguous).
  template <class Emit>
  void run(uint64_t a, uint64_t n, Emit&& emit) {
    if (n == es) {
      if (count == 1 && a != first && a != first + es) {
        stride = int64_t(a - first);
        count = 2;
        return;
      }
      if (count >= 2 && a == first + count * uint64_t(stride)) {
        ++count;
        return;
      }
      flush(emit);
      first = a;
      count = 1;
      return;
    }
    flush(emit);
    emit(a, n, 0u, int64_t(0), uint64_t(1));
  }
  template <class Emit>
  void flush(Emit&& emit) {
    if (count == 1) emit(first, uint64_t(es), 0u, int64_t(0), uint64_t(1));
    else if (count > 1) emit(first, uint64_t(es), es, stride, count);
    count = 0;
  }
};
// Element size for strided grouping of t's traffic: t's element size in a
// scratchpad or register space, 0 elsewhere.
uint32_t strided_elem(const ExecContext& c, const Tensor& t);
// Write, or Fill when t's space is read-only (a load/copy into constant).
inline AccessKind write_kind(const ExecContext& c, const Tensor& t) {
  return c.read_only(t.space()) ? AccessKind::Fill : AccessKind::Write;
}

// Merges consecutive addresses into one access up to `cap` bytes; an address
// inside the pending run (a broadcast repeat) is free. In scratchpad and
// register spaces, element-sized runs at a constant stride are grouped into
// strided accesses (StridedGrouper).
struct Coalescer {
  ExecContext* c;
  AccessKind kind;
  SpaceId space;
  TagId tag;
  uint64_t cap;
  uint64_t start = 0, end = 0;
  bool open = false;
  StridedGrouper group;
  Coalescer(ExecContext& ctx, AccessKind k, const Tensor& t, uint64_t cap_bytes)
      : c(&ctx), kind(k), space(t.space()), tag(t.tag()), cap(cap_bytes) {
    group.es = strided_elem(ctx, t);
  }
  void add(uint64_t a, uint64_t n) {
    if (open) {
      if (a >= start && a + n <= end) return;
      if (a == end && end - start + n <= cap) { end += n; return; }
      emit_run(start, end - start);
    }
    start = a; end = a + n; open = true;
  }
  // add(a + e * n, n) for e in [0, count), with the merges worked out per
  // run instead of per element (a packing routine's contiguous lines).
  void add_contiguous(uint64_t a, uint64_t n, uint64_t count) {
    uint64_t e = 0;
    // One by one until the next element starts where the open run ends (a
    // first element inside an earlier run may leave it elsewhere).
    while (e < count && !(n > 0 && open && end == a + e * n)) add(a + e * n, n), ++e;
    while (e < count) {
      const uint64_t held = end - start;
      const uint64_t fit = held < cap ? (cap - held) / n : 0;
      if (fit == 0) {  // as add() with a == end and the run full
        emit_run(start, held);
        start = end;
        end = start + n;
        ++e;
        continue;
      }
      const uint64_t take = std::min(fit, count - e);
      end += take * n;
      e += take;
    }
  }
  void flush() {
    if (open) { emit_run(start, end - start); open = false; }
    if (group.es) group.flush(Emit{this});
  }

 private:
  struct Emit {
    Coalescer* co;
    void operator()(uint64_t a, uint64_t n, uint32_t eb, int64_t st, uint64_t cnt) const {
      if (eb) co->c->access_strided(a, eb, cnt, st, co->kind, co->space, co->tag);
      else co->c->access(a, n, co->kind, co->space, co->tag);
    }
  };
  void emit_run(uint64_t a, uint64_t n) {
    if (!group.es) c->access(a, n, kind, space, tag);
    else group.run(a, n, Emit{this});
  }
};

// Physical-index tables of a view, optionally broadcast (right-aligned) to a
// larger shape: phys(idx) = offset + sum_d tab[d][idx[d]].
struct Indexer {
  uint64_t base = 0;
  uint32_t es = 4;
  int64_t offset = 0;
  std::vector<std::vector<int64_t>> tab;  // one per dim of the (broadcast) shape; rank 0 -> {{0}}
  Indexer() = default;
  explicit Indexer(const Tensor& t) : Indexer(t, t.shape()) {}
  Indexer(const Tensor& t, const Shape& out);
  // Sum over all dims but the last.
  int64_t row(const int64_t* outer) const {
    int64_t p = offset;
    for (size_t d = 0; d + 1 < tab.size(); ++d) p += tab[d][size_t(outer[d])];
    return p;
  }
  const std::vector<int64_t>& inner() const { return tab.back(); }
  uint64_t addr(int64_t phys) const { return base + uint64_t(phys) * es; }
};

// Iterates the rows (all dims but the last) of a shape; rank 0 is one row of
// one element. fn(const int64_t* outer_idx, int64_t row_number).
template <class F>
void for_each_row(const Shape& shape, F&& fn) {
  if (numel(shape) == 0) return;
  size_t r = shape.size();
  size_t outer = r > 0 ? r - 1 : 0;
  std::vector<int64_t> idx(outer + 1, 0);
  int64_t rows = 1;
  for (size_t d = 0; d < outer; ++d) rows *= shape[d];
  for (int64_t n = 0; n < rows; ++n) {
    fn(idx.data(), n);
    for (size_t d = outer; d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}
inline int64_t inner_len(const Shape& s) { return s.empty() ? 1 : s.back(); }

// All elements of t in logical order as byte runs (no cap), `passes` times.
void emit_bulk(ExecContext& c, const Tensor& t, AccessKind kind, uint64_t passes = 1);
// Register bytes of a fused intermediate.
void emit_reg(ExecContext& c, const Tensor& t, AccessKind kind, uint64_t bytes);
// Per-vector runs of t in logical order (element mode of a whole operand):
// runs are cut at vector_bytes and at every row end.
void emit_vectors(ExecContext& c, const Tensor& t, AccessKind kind);
// The traffic of an operand read or written once in the given mode.
void emit_whole(ExecContext& c, const Tensor& t, AccessKind kind, Mode m);
// Data movement src -> dst (same shape, or src broadcastable to dst): reads of
// src coalesced into runs in logical order, then the writes of dst likewise.
void move_events(ExecContext& c, const Tensor& src, const Tensor& dst);
// Values only (no events): dst = src (broadcast), rounded to dst's dtype.
void copy_values(const Tensor& src, const Tensor& dst);

// Allocation of an op result: name = the statement's result name, else "<hint>#n".
Tensor alloc_result(ExecContext& c, const Shape& shape, DType dtype, SpaceId space, const char* hint);

uint64_t vector_bytes(const ExecContext& c);

// The element-mode walk behind emit_vectors: t in logical order, row by row,
// one (coalesced) access per chunk of vector_bytes along the row;
// after_row(row_len) is called at the end of each row.
template <class F>
void vector_rows(ExecContext& c, const Tensor& t, AccessKind kind, F&& after_row) {
  uint64_t vb = vector_bytes(c);
  Indexer ix(t);
  Coalescer co(c, kind, t, vb);
  int64_t len = inner_len(t.shape());
  int64_t V = std::max<int64_t>(1, int64_t(vb / ix.es));
  for_each_row(t.shape(), [&](const int64_t* outer, int64_t) {
    int64_t row = ix.row(outer);
    for (int64_t j0 = 0; j0 < len; j0 += V) {
      int64_t j1 = std::min(len, j0 + V);
      for (int64_t j = j0; j < j1; ++j) co.add(ix.addr(row + ix.inner()[size_t(j)]), ix.es);
      co.flush();
    }
    after_row(len);
  });
}
inline uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
int norm_axis(int axis, int rank, const char* op);

}  // namespace detail
}  // namespace ptosim::exec
