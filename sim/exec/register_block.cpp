// Register blocks, vector loads and packing (register_block.h): the events
// of compiled vector code, shared by the matmul and conv2d lowerings.
#include "sim/exec/register_block.h"

#include <algorithm>
#include <cstdlib>

namespace ptosim::exec::detail {

void note_runs(Operand& o) {
  const auto& in = o.ix.tab[1];
  o.run.assign(in.size(), 1);
  for (size_t j = in.size(); j-- > 1;)
    if (in[j] == in[j - 1] + 1) o.run[j - 1] = o.run[j] + 1;
}

Operand operand(const Tensor& t, bool transposed) {
  Operand o;
  o.ix = Indexer(t);
  if (transposed) std::swap(o.ix.tab[0], o.ix.tab[1]);
  o.space = t.space();
  o.tag = t.tag();
  o.t = t;
  note_runs(o);
  return o;
}

Operand packed(const Tensor& buf, std::vector<int64_t> prow, std::vector<int64_t> pcol) {
  Operand o;
  o.ix.base = buf.base_addr();
  o.ix.es = buf.elem_size();
  o.ix.offset = buf.offset();
  o.ix.tab = {std::move(prow), std::move(pcol)};
  o.space = buf.space();
  o.tag = buf.tag();
  o.t = buf;
  note_runs(o);
  return o;
}

int64_t vector_lanes(const ExecContext& c, uint32_t es) {
  return std::max<int64_t>(1, int64_t(vector_bytes(c) / std::max<uint32_t>(es, 1)));
}

int64_t vector_registers(const ExecContext& c) {
  const uint64_t vb = vector_bytes(c);
  for (const auto& m : c.config().memories)
    if (m.name == "register" || m.kind == MemoryKind::Register) return std::clamp<int64_t>(int64_t(m.size / vb), 8, 32);
  return 16;
}

MicroKernel outer_kernel_shape(const ExecContext& c, uint32_t es, int64_t m, int64_t n) {
  MicroKernel k;
  k.lanes = vector_lanes(c, es);
  const int64_t R = vector_registers(c);
  k.nv = std::clamp<int64_t>(int64_t(ceil_div(uint64_t(std::max<int64_t>(n, 1)), uint64_t(k.lanes))), 1, 2);
  k.NR = k.nv * k.lanes;
  k.MR = std::clamp<int64_t>((R - k.nv - 1) / k.nv, 1, std::max<int64_t>(m, 1));
  return k;
}

bool cpu_tile_lowering(const ExecContext& c, uint64_t acc_bytes) {
  if (c.space_kind(c.space_id(c.tile()->into)) == SpaceKind::Cached) return true;
  for (const auto& m : c.config().memories)
    if (m.name == "register" || m.kind == MemoryKind::Register) return acc_bytes > m.size;
  return true;  // no register file to hold a result tile
}

bool segment(ExecContext& c, const Operand& o, int64_t i, int64_t j0, int64_t n, AccessKind kind) {
  if (!o.lo.empty()) {
    const int64_t a = std::max(j0, o.lo[size_t(i)]), b = std::min(j0 + n, o.hi[size_t(i)]);
    j0 = a;
    n = b - a;
  }
  if (n <= 0) return false;
  const uint64_t vb = vector_bytes(c);
  const int64_t row = o.ix.offset + o.ix.tab[0][size_t(i)];
  if (o.run[size_t(j0)] >= n) {
    const uint64_t a = o.ix.addr(row + o.ix.tab[1][size_t(j0)]), bytes = uint64_t(n) * o.ix.es;
    for (uint64_t off = 0; off < bytes; off += vb) c.access(a + off, std::min(vb, bytes - off), kind, o.space, o.tag);
    return true;
  }
  Coalescer co(c, kind, o.t, vb);
  for (int64_t j = j0; j < j0 + n; ++j) co.add(o.ix.addr(row + o.ix.tab[1][size_t(j)]), o.ix.es);
  co.flush();
  return true;
}

namespace {

void element(ExecContext& c, const Operand& o, int64_t i, int64_t j) {
  c.access(o.ix.addr(o.ix.offset + o.ix.tab[0][size_t(i)] + o.ix.tab[1][size_t(j)]), o.ix.es, AccessKind::Read,
           o.space, o.tag);
}

// The FMAs of `steps` k steps of the block. Issued step by step, between
// the loads that feed them, as the compiled loop interleaves them: one
// Compute for a whole block would hold the cpu model's in-order retirement
// (and so its load queue) until all of the block's FMAs were done. `used`
// of every `width` lanes carry work; the rest are masked off and cost time
// (a 16x8 block on 16-lane vectors issues as many FMAs as a 16x16 one).
void compute(ExecContext& c, const Block& b, OpKind op, int64_t steps, int64_t used, int64_t width) {
  const double flops = double(b.mr) * double(b.nr) * double(steps) * c.op_flops(op);
  if (flops > 0) c.compute(op, flops, flops * double(width - used) / double(used));
}

}  // namespace

void c_rows(ExecContext& c, const Operand& C, const Block& b, AccessKind kind) {
  for (int64_t r = 0; r < b.mr; ++r) segment(c, C, b.i0 + r, b.j0, b.nr, kind);
}

void outer_block(ExecContext& c, const Operand& A, const Operand& B, const Operand& C, const Block& b, bool load_c,
                 OpKind op) {
  if (load_c) c_rows(c, C, b, AccessKind::Read);
  const int64_t lanes = vector_lanes(c, B.ix.es), width = int64_t(ceil_div(uint64_t(b.nr), uint64_t(lanes))) * lanes;
  // A k step of all padding loads nothing; its flops (the op's nominal work,
  // as the untiled count has them) go with the next step's.
  int64_t steps = 0;
  for (int64_t k = b.k0; k < b.k0 + b.kn; ++k) {
    ++steps;
    if (!segment(c, B, k, b.j0, b.nr, AccessKind::Read)) continue;
    for (int64_t r = 0; r < b.mr; ++r) element(c, A, b.i0 + r, k);
    compute(c, b, op, steps, b.nr, width);
    steps = 0;
  }
  if (steps) compute(c, b, op, steps, b.nr, width);
  c_rows(c, C, b, write_kind(c, C.t));
}

void dot_block(ExecContext& c, const Operand& A, const Operand& Bt, const Operand& C, const Block& b, bool load_c) {
  const int64_t lanes = vector_lanes(c, A.ix.es);
  if (load_c) c_rows(c, C, b, AccessKind::Read);
  for (int64_t k = b.k0; k < b.k0 + b.kn; k += lanes) {
    const int64_t kl = std::min(lanes, b.k0 + b.kn - k);
    for (int64_t r = 0; r < b.mr; ++r) segment(c, A, b.i0 + r, k, kl, AccessKind::Read);
    for (int64_t q = 0; q < b.nr; ++q) segment(c, Bt, b.j0 + q, k, kl, AccessKind::Read);
    compute(c, b, OpKind::Matmul, kl, kl, lanes);
  }
  c_rows(c, C, b, write_kind(c, C.t));
}

void pack(ExecContext& c, const Tensor& view, const Tensor& buf, const Operand& dst, int64_t elems) {
  const int64_t rows = view.shape()[0], cols = view.shape()[1];
  const uint64_t vb = vector_bytes(c);
  auto& dv = buf.storage()->values;
  const size_t base = size_t(buf.offset());
  // The view's elements land at distinct places below elems (a panel
  // layout): when they are as many, they cover it and nothing is padding
  // (the fill was a third of a 16x16x32 pack's instructions).
  if (rows * cols != elems) std::fill(dv.begin() + long(base), dv.begin() + long(base + size_t(elems)), 0.0);
  const Indexer src(view);
  const auto& sv = view.storage()->values;
  {
    // Row pointers and the column tables hoisted: the copy is most of a
    // pack's own work, once per tile.
    const int64_t* dcol = dst.ix.tab[1].data();
    const int64_t* scol = src.tab[1].data();
    for (int64_t i = 0; i < rows; ++i) {
      double* d = dv.data() + base + size_t(dst.ix.tab[0][size_t(i)]);
      const double* s = sv.data() + size_t(src.offset + src.tab[0][size_t(i)]);
      for (int64_t j = 0; j < cols; ++j) d[dcol[j]] = s[scol[j]];
    }
  }
  // Lines along the dimension with the smaller address step.
  auto step = [&](size_t d, int64_t n) { return n > 1 ? std::llabs(src.tab[d][1] - src.tab[d][0]) : INT64_MAX; };
  const bool by_column = step(0, rows) < step(1, cols);
  const int64_t lines = by_column ? cols : rows, len = by_column ? rows : cols;
  const uint64_t total = uint64_t(elems) * buf.elem_size();
  const AccessKind wk = write_kind(c, buf);
  const uint64_t first = dst.ix.addr(dst.ix.offset);
  uint64_t written = 0;
  // A line whose elements are adjacent (the usual row-major tile) goes to
  // the coalescer as one run.
  const auto& along = src.tab[by_column ? 0 : 1];
  bool unit = true;
  for (size_t e = 1; e < along.size() && unit; ++e) unit = along[e] == along[e - 1] + 1;
  for (int64_t l = 0; l < lines; ++l) {
    Coalescer co(c, AccessKind::Read, view, vb);
    const int64_t across = src.offset + src.tab[by_column ? 1 : 0][size_t(l)];
    if (unit && len > 0) {
      co.add_contiguous(src.addr(across + along[0]), src.es, uint64_t(len));
    } else {
      for (int64_t e = 0; e < len; ++e) co.add(src.addr(across + along[size_t(e)]), src.es);
    }
    co.flush();
    const uint64_t upto =
        l + 1 == lines ? total : std::min(total, ceil_div(total * uint64_t(l + 1), uint64_t(lines) * vb) * vb);
    for (; written < upto; written += vb) c.access(first + written, std::min(vb, upto - written), wk, dst.space, dst.tag);
  }
}

}  // namespace ptosim::exec::detail
