#include "sim/exec/tensor.h"

#include <algorithm>
#include <cctype>

#include "sim/common/memory_budget.h"
#include "sim/exec/allocator.h"

namespace ptosim::exec {

std::string Layout::str() const {
  auto list = [](const std::vector<int64_t>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
  };
  switch (kind) {
    case Kind::RowMajor: return "row_major";
    case Kind::ColMajor: return "col_major";
    case Kind::Blocked: return "blocked(" + list(block) + ")";
    case Kind::Vectorized: return "vectorized(" + std::to_string(width) + ")";
  }
  return "?";
}

Layout layout_from_name(const std::string& name) {
  std::string n;
  for (char ch : name) n += char(std::tolower(static_cast<unsigned char>(ch)));
  if (n == "row_major") return Layout::row_major();
  if (n == "col_major") return Layout::col_major();
  throw OpError("unknown layout '" + name + "' (expected row_major, col_major, pto.blocked([...]) or pto.vectorized(w))");
}

Storage::~Storage() {
  memory_budget::refund(charged);
  if (!allocator) return;
  if (!freed) allocator->release(base);
  else if (early_released) allocator->drop_shadow(bytes);
}

void Storage::release(const std::string& scope) {
  if (freed) return;
  freed = true;
  freed_scope = scope;
  if (allocator) allocator->release(base);
  allocator.reset();
  std::vector<double>().swap(values);  // the values are unreachable now
  memory_budget::refund(charged);
  charged = 0;
}

void Storage::release_early() {
  if (freed) return;
  freed = true;
  early_released = true;
  if (allocator) allocator->release_early(base);
}

Tensor::Tensor(std::shared_ptr<Storage> st, Shape shape, std::vector<DimMap> dims, int64_t offset)
    : st_(std::move(st)), shape_(std::move(shape)), dims_(std::move(dims)), offset_(offset) {}

int64_t Tensor::numel() const { return exec::numel(shape_); }

void Tensor::check_live() const {
  if (!st_) throw OpError("use of an uninitialised tensor");
  if (!st_->freed) return;
  if (st_->early_released)
    throw OpError("use of freed tensor '" + st_->name + "' (freed early by pto.auto_reuse: it was dead)");
  throw OpError("use of freed tensor '" + st_->name + "' (freed at end of scope '" + st_->freed_scope + "')");
}

bool Tensor::is_whole() const {
  if (shape_ != st_->shape || offset_ != 0) return false;
  int64_t n;
  return dims_ == layout_dims(st_->shape, st_->layout, &n);
}

std::vector<DimMap> layout_dims(const Shape& shape, const Layout& layout, int64_t* phys_elems) {
  // a * b for the sizes below; past kMaxTensorElements (or an int64
  // overflow on the way) the tensor is refused.
  auto padded = [&](int64_t a, int64_t b) {
    int64_t p;
    if (__builtin_mul_overflow(a, b, &p) || p > kMaxTensorElements)
      throw OpError("a tensor of shape " + shape_str(shape) + " in layout " + layout.str() +
                    " would hold more than 2^28 elements (the limit)");
    return p;
  };
  auto ceil_div = [](int64_t a, int64_t b) { return a / b + (a % b != 0); };  // no a + b - 1 to overflow
  int r = int(shape.size());
  std::vector<DimMap> dims(r);
  for (int d = 0; d < r; ++d) dims[d].size = shape[d];
  int64_t total = 1;
  switch (layout.kind) {
    case Layout::Kind::RowMajor:
      for (int d = r - 1; d >= 0; --d) { dims[d].stride = total; total = padded(total, shape[d]); }
      break;
    case Layout::Kind::ColMajor:
      for (int d = 0; d < r; ++d) { dims[d].stride = total; total = padded(total, shape[d]); }
      break;
    case Layout::Kind::Blocked: {
      if (int(layout.block.size()) > r)
        throw OpError("blocked layout has " + std::to_string(layout.block.size()) + " block sizes for a " +
                      std::to_string(r) + "-dimensional tensor");
      std::vector<int64_t> b(r, 1), nb(r);
      for (size_t i = 0; i < layout.block.size(); ++i) {
        int64_t v = layout.block[i];
        if (v <= 0) throw OpError("blocked layout: block sizes must be positive");
        b[r - layout.block.size() + i] = v;
      }
      int64_t bsize = 1;
      for (int d = 0; d < r; ++d) { nb[d] = ceil_div(shape[d], b[d]); bsize = padded(bsize, b[d]); }
      int64_t inner = 1, outer = bsize;
      for (int d = r - 1; d >= 0; --d) {
        if (b[d] == 1) {
          dims[d].stride = outer;
        } else {
          dims[d].stride = 1;
          dims[d].block = b[d];
          dims[d].outer = outer;
          dims[d].inner = inner;
        }
        inner = padded(inner, b[d]);
        outer = padded(outer, nb[d]);
      }
      total = outer;
      break;
    }
    case Layout::Kind::Vectorized: {
      int64_t w = layout.width;
      if (w <= 0) throw OpError("vectorized layout: width must be positive");
      if (r == 0) { total = 1; break; }
      int64_t stride = w;
      for (int d = r - 2; d >= 0; --d) { dims[d].stride = stride; stride = padded(stride, shape[d]); }
      int64_t nv = ceil_div(shape[r - 1], w);
      dims[r - 1].stride = 1;
      dims[r - 1].block = w;
      dims[r - 1].outer = stride;  // one vector of every row
      dims[r - 1].inner = 1;
      total = padded(stride, nv);
      break;
    }
  }
  if (phys_elems) *phys_elems = total;
  return dims;
}

int64_t Tensor::norm_index(int dim, int64_t i) const {
  int64_t n = shape_[dim];
  int64_t j = i < 0 ? i + n : i;
  if (j < 0 || j >= n)
    throw OpError("index " + std::to_string(i) + " is out of bounds for dimension " + std::to_string(dim) +
                  " with size " + std::to_string(n));
  return j;
}

Tensor Tensor::index(const std::vector<IndexItem>& items) const {
  if (int(items.size()) > rank())
    throw OpError("too many indices for tensor '" + name() + "': tensor is " + std::to_string(rank()) +
                  "-dimensional, but " + std::to_string(items.size()) + " were indexed");
  Shape shape;
  std::vector<DimMap> dims;
  int64_t off = offset_;
  for (int d = 0; d < rank(); ++d) {
    const DimMap& m = dims_[d];
    if (d >= int(items.size())) {
      shape.push_back(shape_[d]);
      dims.push_back(m);
      continue;
    }
    const IndexItem& it = items[d];
    if (!it.is_slice) {
      off += m.contrib(norm_index(d, it.index));
      continue;
    }
    int64_t n = shape_[d];
    int64_t step = it.step.value_or(1);
    if (step == 0) throw OpError("slice step cannot be zero");
    int64_t start, stop, len;
    if (step > 0) {
      start = it.start ? *it.start : 0;
      stop = it.stop ? *it.stop : n;
      if (start < 0) start += n;
      if (stop < 0) stop += n;
      start = std::clamp<int64_t>(start, 0, n);
      stop = std::clamp<int64_t>(stop, 0, n);
      len = stop > start ? (stop - start + step - 1) / step : 0;
    } else {
      start = it.start ? *it.start : n - 1;
      stop = it.stop ? *it.stop : -n - 1;
      if (start < 0) start += n;
      if (stop < 0) stop += n;
      start = std::clamp<int64_t>(start, -1, n - 1);
      stop = std::clamp<int64_t>(stop, -1, n - 1);
      len = start > stop ? (start - stop + (-step) - 1) / (-step) : 0;
    }
    DimMap nm = m;
    nm.size = len;
    if (m.block == 0) {
      if (len > 0) off += start * m.stride;
      nm.stride = m.stride * step;
    } else {
      nm.start = m.start + start * m.stride;
      nm.stride = m.stride * step;
    }
    shape.push_back(len);
    dims.push_back(nm);
  }
  return Tensor(st_, std::move(shape), std::move(dims), off);
}

Tensor Tensor::transpose(const std::vector<int>& perm_in) const {
  std::vector<int> perm = perm_in;
  if (perm.empty())
    for (int i = rank() - 1; i >= 0; --i) perm.push_back(i);
  if (int(perm.size()) != rank())
    throw OpError("transpose: axes " + std::to_string(perm.size()) + " don't match a " + std::to_string(rank()) +
                  "-dimensional tensor");
  std::vector<bool> seen(rank(), false);
  Shape shape;
  std::vector<DimMap> dims;
  for (int p : perm) {
    int q = p < 0 ? p + rank() : p;
    if (q < 0 || q >= rank() || seen[q]) throw OpError("transpose: axes must be a permutation of 0.." + std::to_string(rank() - 1));
    seen[q] = true;
    shape.push_back(shape_[q]);
    dims.push_back(dims_[q]);
  }
  return Tensor(st_, std::move(shape), std::move(dims), offset_);
}

Shape Tensor::resolve_shape(const Shape& s) const {
  Shape r = s;
  int neg = -1;
  int64_t known = 1;
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i] == -1) {
      if (neg >= 0) throw OpError("reshape: can only specify one unknown dimension");
      neg = int(i);
    } else if (r[i] < 0) {
      throw OpError("reshape: negative dimension " + std::to_string(r[i]));
    } else {
      known *= r[i];
    }
  }
  if (neg >= 0) {
    if (known == 0 || numel() % known != 0)
      throw OpError("cannot reshape tensor of shape " + shape_str(shape_) + " into shape " + shape_str(s));
    r[neg] = numel() / known;
  }
  if (exec::numel(r) != numel())
    throw OpError("cannot reshape tensor of shape " + shape_str(shape_) + " into shape " + shape_str(s));
  return r;
}

std::optional<Tensor> Tensor::reshape_view(const Shape& s) const {
  Shape ns = resolve_shape(s);
  for (auto& d : dims_)
    if (d.block != 0) return std::nullopt;
  std::vector<DimMap> nd(ns.size());
  for (size_t i = 0; i < ns.size(); ++i) nd[i].size = ns[i];
  if (numel() == 0 || numel() == 1) return Tensor(st_, ns, nd, offset_);
  // NumPy's no-copy reshape: match groups of old and new dims with equal products.
  std::vector<int64_t> od, os;
  for (int i = 0; i < rank(); ++i)
    if (shape_[i] != 1) { od.push_back(shape_[i]); os.push_back(dims_[i].stride); }
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < ns.size() && oi < od.size()) {
    int64_t np = ns[ni], op = od[oi];
    while (np != op) {
      if (np < op) np *= ns[nj++];
      else op *= od[oj++];
    }
    for (size_t ok = oi; ok + 1 < oj; ++ok)
      if (os[ok] != od[ok + 1] * os[ok + 1]) return std::nullopt;
    nd[nj - 1].stride = os[oj - 1];
    for (size_t nk = nj - 1; nk > ni; --nk) nd[nk - 1].stride = nd[nk].stride * ns[nk];
    ni = nj++;
    oi = oj++;
  }
  return Tensor(st_, ns, nd, offset_);
}

int64_t Tensor::phys(const int64_t* idx) const {
  int64_t p = offset_;
  for (size_t d = 0; d < dims_.size(); ++d) p += dims_[d].contrib(idx[d]);
  return p;
}

double Tensor::get(const std::vector<int64_t>& idx) const { return st_->values[size_t(phys(idx.data()))]; }

void Tensor::set(const std::vector<int64_t>& idx, double v) {
  st_->values[size_t(phys(idx.data()))] = round_to(st_->dtype, v);
}

namespace {

// f(physical index, e) for each element e of a view in row-major order: the
// outer indices' contributions once per row, the last dimension's by its
// stride where it has no blocking (to_vector / from_vector walked every
// element's index through every dimension, ~85 instructions an element).
template <class F>
void for_each_element(const std::vector<DimMap>& dims, const Shape& shape, int64_t offset, int64_t n, F&& f) {
  if (n == 0) return;
  if (shape.empty()) return f(offset, int64_t(0));
  const size_t r = shape.size(), last = r - 1;
  const DimMap& in = dims[last];
  const int64_t len = shape[last];
  std::vector<int64_t> idx(last, 0);
  for (int64_t e = 0; e < n;) {
    int64_t row = offset;
    for (size_t d = 0; d < last; ++d) row += dims[d].contrib(idx[d]);
    if (in.block == 0) {
      for (int64_t v = 0; v < len; ++v, ++e) f(row + v * in.stride, e);
    } else {
      for (int64_t v = 0; v < len; ++v, ++e) f(row + in.contrib(v), e);
    }
    for (size_t d = last; d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace

std::vector<double> Tensor::to_vector() const {
  const int64_t n = numel();
  std::vector<double> out;
  if (n == 0) return out;
  out.reserve(size_t(n));  // not sized: zeroing it first cost a pass (memset) over the copy
  const double* src = st_->values.data();
  for_each_element(dims_, shape_, offset_, n, [&](int64_t p, int64_t) { out.push_back(src[p]); });
  return out;
}

void Tensor::from_vector(const std::vector<double>& v) {
  const int64_t n = numel();
  if (int64_t(v.size()) != n) throw OpError("from_vector: size mismatch");
  if (n == 0) return;
  double* dst = st_->values.data();
  const double* src = v.data();
  const DType dt = st_->dtype;
  for_each_element(dims_, shape_, offset_, n, [&](int64_t p, int64_t e) { dst[p] = round_to(dt, src[e]); });
}

}  // namespace ptosim::exec
