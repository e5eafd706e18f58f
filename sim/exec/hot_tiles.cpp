#include "sim/exec/hot_tiles.h"

#include <algorithm>

#include "sim/exec/exec_context.h"

namespace ptosim::exec {

namespace {
// Bigger tensors keep their tensor tag: the table would cost 4 bytes per element.
constexpr int64_t kMaxElements = int64_t(1) << 26;
}  // namespace

void HotTiles::note_alloc(const std::shared_ptr<Storage>& st, const std::string& tag_name) {
  Map m;
  m.st = st;
  m.name = tag_name;
  if (std::find(order_.begin(), order_.end(), tag_name) == order_.end()) order_.push_back(tag_name);
  m.base = st->base;
  m.end = st->base + std::max<uint64_t>(st->bytes, 1);
  m.elem = uint32_t(dtype_size(st->dtype));
  bytes_of_.emplace(tag_name, m.end - m.base);
  last_ = nullptr;
  by_base_[st->base] = std::move(m);
}

void HotTiles::note_directive(const std::map<std::string, int64_t>& s) {
  if (!program_.empty()) return;
  for (auto [a, b] : {std::pair<const char*, const char*>{"M", "N"}, {"dim_0", "dim_1"}, {"H", "W"}}) {
    auto i = s.find(a), j = s.find(b);
    if (i != s.end() && j != s.end() && i->second > 0 && j->second > 0) {
      program_ = {i->second, j->second};
      return;
    }
  }
}

void HotTiles::build(ExecContext& ctx, Map& m, const Storage& st) {
  (void)ctx;
  m.built = true;
  const Shape& shape = st.shape;
  const size_t rank = shape.size();
  int64_t numel = 1;
  for (int64_t d : shape) numel *= d;
  if (rank == 0 || numel <= 0 || numel > kMaxElements) return;
  const std::vector<int64_t>& spec = !given_.empty() ? given_ : !program_.empty() ? program_ : std::vector<int64_t>{32, 32};
  m.tile.assign(rank, 0);
  for (size_t d = 0; d < rank; ++d) m.tile[d] = shape[d] ? shape[d] : 1;  // leading dims: whole
  for (size_t k = 0; k < spec.size() && k < rank; ++k)
    m.tile[rank - 1 - k] = std::max<int64_t>(1, std::min(spec[spec.size() - 1 - k], std::max<int64_t>(shape[rank - 1 - k], 1)));
  int64_t phys = 0;
  const std::vector<DimMap> dims = layout_dims(shape, st.layout, &phys);
  std::vector<int64_t> grid(rank);
  size_t tiles = 1;
  for (size_t d = 0; d < rank; ++d) {
    grid[d] = (shape[d] + m.tile[d] - 1) / m.tile[d];
    tiles *= size_t(grid[d]);
  }
  m.tile_of_phys.assign(size_t(phys), UINT32_MAX);
  m.tags.assign(tiles, 0);
  std::vector<int64_t> v(rank, 0);
  for (int64_t n = 0; n < numel; ++n) {
    int64_t p = 0, t = 0;
    for (size_t d = 0; d < rank; ++d) {
      p += dims[d].contrib(v[d]);
      t = t * grid[d] + v[d] / m.tile[d];
    }
    if (p >= 0 && p < phys) m.tile_of_phys[size_t(p)] = uint32_t(t);
    for (size_t d = rank; d-- > 0;) {  // odometer, last dim fastest
      if (++v[d] < shape[d]) break;
      v[d] = 0;
    }
  }
}

TagId HotTiles::tag(ExecContext& ctx, uint64_t addr, TagId fallback) {
  Map* m = last_;
  if (!m || addr < m->base || addr >= m->end) {
    auto it = by_base_.upper_bound(addr);
    if (it == by_base_.begin()) return fallback;
    --it;
    if (addr >= it->second.end) return fallback;
    m = last_ = &it->second;
  }
  auto st = m->st.lock();
  if (!st || st->freed) return fallback;
  if (bins_) return bin_tag(ctx, *m, addr, fallback);
  if (!m->built) build(ctx, *m, *st);
  const uint64_t p = (addr - m->base) / m->elem;
  if (p >= m->tile_of_phys.size() || m->tile_of_phys[p] == UINT32_MAX) return fallback;
  const uint32_t t = m->tile_of_phys[p];
  if (!m->tags[t]) {
    // The tile's index ranges, e.g. A[0:32, 32:64].
    const size_t rank = st->shape.size();
    std::vector<int64_t> lo(rank);
    uint64_t rest = t;
    for (size_t d = rank; d-- > 0;) {
      const int64_t g = (st->shape[d] + m->tile[d] - 1) / m->tile[d];
      lo[d] = int64_t(rest % uint64_t(g)) * m->tile[d];
      rest /= uint64_t(g);
    }
    std::string name = m->name + "[";
    std::string shape;
    for (size_t d = 0; d < rank; ++d) {
      name += (d ? ", " : "") + std::to_string(lo[d]) + ":" + std::to_string(std::min(lo[d] + m->tile[d], st->shape[d]));
      shape += (d ? "x" : "") + std::to_string(m->tile[d]);
    }
    name += "]";
    const TagId id = ctx.tensor_tag(name);
    m->tags[t] = id ? id : fallback;
    tensor_of_[name] = m->name;
    shape_of_[name] = shape;
  }
  return m->tags[t];
}

TagId HotTiles::bin_tag(ExecContext& ctx, Map& m, uint64_t addr, TagId fallback) {
  if (m.tags.empty()) m.tags.assign(bins_, 0);
  const uint32_t b = uint32_t((addr - m.base) * bins_ / (m.end - m.base));
  if (!m.tags[b]) {
    const std::string name = m.name + "[bin " + std::to_string(b) + "/" + std::to_string(bins_) + "]";
    const TagId id = ctx.tensor_tag(name);
    m.tags[b] = id ? id : fallback;
    tensor_of_[name] = m.name;
    bin_of_[name] = b;
  }
  return m.tags[b];
}

}  // namespace ptosim::exec
