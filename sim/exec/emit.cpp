#include <algorithm>

#include "sim/exec/emit.h"
#include "sim/exec/scope_states.h"

namespace ptosim::exec::detail {

Indexer::Indexer(const Tensor& t, const Shape& out) : base(t.base_addr()), es(t.elem_size()), offset(t.offset()) {
  int ro = int(out.size()), rt = t.rank();
  if (rt > ro) throw OpError("internal: broadcast to a smaller rank");
  if (ro == 0) {
    tab.push_back({0});
    return;
  }
  tab.resize(size_t(ro));
  for (int d = 0; d < ro; ++d) {
    int td = d - (ro - rt);
    auto& v = tab[size_t(d)];
    v.assign(size_t(out[size_t(d)]), 0);
    if (td < 0 || (t.shape()[size_t(td)] == 1 && out[size_t(d)] != 1)) continue;
    const DimMap& m = t.dims()[size_t(td)];
    for (int64_t i = 0; i < out[size_t(d)]; ++i) v[size_t(i)] = m.contrib(i);
  }
}

uint64_t vector_bytes(const ExecContext& c) { return std::max<uint32_t>(c.config().core.vector_bytes, 1); }

int norm_axis(int axis, int rank, const char* op) {
  int a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= std::max(rank, 1))
    throw OpError(std::string(op) + ": axis " + std::to_string(axis) + " is out of bounds for a " +
                  std::to_string(rank) + "-dimensional tensor");
  return a;
}

Mode natural_mode(const ExecContext& c, const Tensor& t) {
  switch (c.space_kind(t.space())) {
    case SpaceKind::Cached:
    case SpaceKind::Constant: return Mode::Element;
    default: return Mode::Bulk;
  }
}

uint32_t strided_elem(const ExecContext& c, const Tensor& t) {
  switch (c.space_kind(t.space())) {
    case SpaceKind::Scratchpad:
    case SpaceKind::Register: return t.elem_size();
    default: return 0;
  }
}

void check_writable(const ExecContext& c, const Tensor& t, const char* what) {
  if (c.read_only(t.space()))
    throw OpError(std::string(what) + ": cannot write to tensor '" + t.name() + "' in read-only space '" +
                  t.space_name() + "'");
}

Mode read_mode(ExecContext& c, const Tensor& t) {
  if (auto* f = c.fuse_state()) {
    uint64_t s = t.storage()->alloc_serial;
    if (f->produced.count(s)) return Mode::Reg;
    if (!f->read.insert(s).second) return Mode::Reg;
  }
  return natural_mode(c, t);
}

Mode write_mode(ExecContext& c, const Tensor& t) {
  check_writable(c, t, "result");
  if (auto* f = c.fuse_state()) {
    f->produced.insert(t.storage()->alloc_serial);
    f->results.push_back(t.storage()->alloc_serial);
    return Mode::Reg;
  }
  return natural_mode(c, t);
}

namespace {
// Rows whose inner dim is unit-stride are added as one run.
bool unit_inner(const Indexer& ix) {
  auto& in = ix.inner();
  for (size_t j = 0; j < in.size(); ++j)
    if (in[j] != int64_t(j)) return false;
  return true;
}
void add_row(Coalescer& co, const Indexer& ix, int64_t row, bool unit, int64_t len) {
  if (len <= 0) return;
  if (unit) {
    co.add(ix.addr(row), uint64_t(len) * ix.es);
    return;
  }
  auto& in = ix.inner();
  for (int64_t j = 0; j < len; ++j) co.add(ix.addr(row + in[size_t(j)]), ix.es);
}
}  // namespace

void emit_bulk(ExecContext& c, const Tensor& t, AccessKind kind, uint64_t passes) {
  if (passes == 0 || t.numel() == 0) return;
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  Indexer ix(t);
  bool unit = unit_inner(ix);
  uint64_t start = 0, end = 0;
  bool open = false;
  auto add = [&](uint64_t a, uint64_t n) {
    if (open && a >= start && a + n <= end) return;
    if (open && a == end) { end += n; return; }
    if (open) runs.push_back({start, end - start});
    start = a; end = a + n; open = true;
  };
  int64_t len = inner_len(t.shape());
  for_each_row(t.shape(), [&](const int64_t* outer, int64_t) {
    int64_t row = ix.row(outer);
    if (unit) { add(ix.addr(row), uint64_t(len) * ix.es); return; }
    for (int64_t j = 0; j < len; ++j) add(ix.addr(row + ix.inner()[size_t(j)]), ix.es);
  });
  if (open) runs.push_back({start, end - start});
  const SpaceId space = t.space();
  const TagId tag = t.tag();
  StridedGrouper group;
  group.es = strided_elem(c, t);
  if (group.es == 0 || runs.size() == 1) {
    for (uint64_t p = 0; p < passes; ++p)
      for (auto& r : runs) c.access(r.first, r.second, kind, space, tag);
    return;
  }
  // Group once, replay per pass.
  struct Item { uint64_t addr, bytes; uint32_t eb; int64_t stride; uint64_t count; };
  std::vector<Item> items;
  auto collect = [&](uint64_t a, uint64_t n, uint32_t eb, int64_t st, uint64_t cnt) { items.push_back({a, n, eb, st, cnt}); };
  for (auto& r : runs) group.run(r.first, r.second, collect);
  group.flush(collect);
  for (uint64_t p = 0; p < passes; ++p)
    for (auto& it : items) {
      if (it.eb) c.access_strided(it.addr, it.eb, it.count, it.stride, kind, space, tag);
      else c.access(it.addr, it.bytes, kind, space, tag);
    }
}

void emit_reg(ExecContext& c, const Tensor& t, AccessKind kind, uint64_t bytes) {
  if (bytes == 0) return;
  SpaceId reg;
  try {
    reg = c.register_space();
  } catch (const OpError&) {
    return;  // a config without a register file: intermediates are free
  }
  c.access(0, bytes, kind, reg, t.tag());
}

void emit_vectors(ExecContext& c, const Tensor& t, AccessKind kind) {
  if (t.numel() == 0) return;
  vector_rows(c, t, kind, [](int64_t) {});
}

void emit_whole(ExecContext& c, const Tensor& t, AccessKind kind, Mode m) {
  switch (m) {
    case Mode::Element: emit_vectors(c, t, kind); break;
    case Mode::Bulk: emit_bulk(c, t, kind, 1); break;
    case Mode::Reg: emit_reg(c, t, kind, uint64_t(t.numel()) * t.elem_size()); break;
  }
}

void move_events(ExecContext& c, const Tensor& src, const Tensor& dst) {
  if (dst.numel() == 0) return;
  Indexer si(src, dst.shape()), di(dst);
  bool su = unit_inner(si), du = unit_inner(di);
  Coalescer rs(c, AccessKind::Read, src, UINT64_MAX), ws(c, write_kind(c, dst), dst, UINT64_MAX);
  int64_t len = inner_len(dst.shape());
  // Reads are issued as their runs complete; writes of a run once its data
  // has been read, i.e. a contiguous destination is written after the reads.
  for_each_row(dst.shape(), [&](const int64_t* outer, int64_t) {
    add_row(rs, si, si.row(outer), su, len);
    add_row(ws, di, di.row(outer), du, len);
  });
  rs.flush();
  ws.flush();
}

void copy_values(const Tensor& src, const Tensor& dst) {
  if (dst.numel() == 0) return;
  Indexer si(src, dst.shape()), di(dst);
  const auto& sv = src.storage()->values;
  auto& dv = dst.storage()->values;
  DType dt = dst.dtype();
  bool same = src.dtype() == dt || (dt == DType::F32 && src.dtype() != DType::I32);
  int64_t len = inner_len(dst.shape());
  for_each_row(dst.shape(), [&](const int64_t* outer, int64_t) {
    int64_t sr = si.row(outer), dr = di.row(outer);
    for (int64_t j = 0; j < len; ++j) {
      double v = sv[size_t(sr + si.inner()[size_t(j)])];
      dv[size_t(dr + di.inner()[size_t(j)])] = same ? v : round_to(dt, v);
    }
  });
}

Tensor alloc_result(ExecContext& c, const Shape& shape, DType dtype, SpaceId space, const char* hint) {
  static uint64_t counter = 0;
  if (!c.result_name().empty()) return c.alloc(shape, dtype, space, {}, c.result_name(), c.result_name());
  return c.alloc(shape, dtype, space, {}, std::string(hint) + "#" + std::to_string(++counter),
                 std::string("tmp.") + hint);
}

}  // namespace ptosim::exec::detail
