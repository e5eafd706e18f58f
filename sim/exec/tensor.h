#pragma once
// Tensors: a refcounted allocation (values + address range in a space) seen
// through a view (shape + per-dimension address maps). Slices, integer
// indexing, transpose and (layout permitting) reshape make new views of the
// same storage and cost no events.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/exec/dtype.h"
#include "sim/trace/event.h"

namespace ptosim::exec {

class SpaceAllocator;

// Physical layout of an allocation: decides the address of each logical
// element, never its value.
struct Layout {
  enum class Kind : uint8_t { RowMajor, ColMajor, Blocked, Vectorized };
  Kind kind = Kind::RowMajor;
  // Blocked: block sizes of the trailing dims (missing leading dims: block 1).
  // Physical order [ceil(d0/b0), ..., ceil(dn/bn), b0, ..., bn], row-major.
  std::vector<int64_t> block;
  // Vectorized: the innermost dim is split into ceil(dn/w) aligned vectors of
  // w lanes; physical order [ceil(dn/w), d0, ..., d(n-1), w], row-major.
  int64_t width = 0;

  static Layout row_major() { return {}; }
  static Layout col_major() { return {Kind::ColMajor, {}, 0}; }
  static Layout blocked(std::vector<int64_t> b) { return {Kind::Blocked, std::move(b), 0}; }
  static Layout vectorized(int64_t w) { return {Kind::Vectorized, {}, w}; }
  std::string str() const;  // "row_major", "col_major", "blocked([8, 8])", "vectorized(8)"
};
// "row_major" | "col_major" (case-insensitive); throws OpError otherwise.
Layout layout_from_name(const std::string& name);

// One allocation. Values are indexed by physical element index, so the
// address of a value is base + index * dtype_size.
struct Storage {
  std::vector<double> values;
  DType dtype = DType::F32;
  Shape shape;          // logical shape of the allocation
  Layout layout;
  SpaceId space = kGlobalSpace;
  std::string space_name;
  uint64_t base = 0;    // address in its space
  uint64_t bytes = 0;   // reserved bytes (physical elements * size, before alignment)
  TagId tag = 0;
  std::string name;
  bool freed = false;
  std::string freed_scope;  // scope whose exit freed it ("" = freed early by auto_reuse)
  std::shared_ptr<SpaceAllocator> allocator;  // null once the range is released
  uint64_t alloc_serial = 0;  // unique per allocation (reuse keys, fuse bookkeeping)
  // The statement that allocated it and the function it ran in ("" = the
  // top level): where a leak report points.
  int alloc_line = 0, alloc_col = 0;
  std::string alloc_scope;

  bool early_released = false;  // freed by auto_reuse: bytes still in the "without" footprint
  uint64_t charged = 0;          // bytes of `values` counted in the program's memory budget

  ~Storage();
  void release(const std::string& scope);  // give the range back; keeps values
  void release_early();                     // auto_reuse: mark_dead
  uint64_t phys_elems() const { return values.size(); }
};

// How one view dimension contributes to the physical element index.
//   linear (block == 0): contribution = v * stride
//   blocked:             c = start + v * stride;
//                        contribution = (c / block) * outer + (c % block) * inner
struct DimMap {
  int64_t size = 1;
  int64_t stride = 0;
  int64_t start = 0;
  int64_t block = 0;
  int64_t outer = 0;
  int64_t inner = 0;
  bool operator==(const DimMap& o) const {
    return size == o.size && stride == o.stride && start == o.start && block == o.block && outer == o.outer &&
           inner == o.inner;
  }
  int64_t contrib(int64_t v) const {
    if (block == 0) return v * stride;
    int64_t c = start + v * stride;
    return (c / block) * outer + (c % block) * inner;
  }
};

// The maps of a whole allocation of `shape` in `layout`; *phys_elems gets
// the number of physical elements (with blocked/vectorized padding).
// The most elements a tensor may hold, padding of its layout included.
constexpr int64_t kMaxTensorElements = int64_t(1) << 28;  // 1 GiB of float32 values, about 3 GiB in all
// Throws OpError when the layout does not fit the shape or pads it past kMaxTensorElements.
std::vector<DimMap> layout_dims(const Shape& shape, const Layout& layout, int64_t* phys_elems);

// One subscript item: X[3], X[a:b], X[a:b:s], X[:] (all fields empty).
struct IndexItem {
  bool is_slice = false;
  int64_t index = 0;                           // when !is_slice; negative counts from the end
  std::optional<int64_t> start, stop, step;    // Python slice semantics (clamped)
  static IndexItem at(int64_t i) { IndexItem x; x.index = i; return x; }
  static IndexItem slice(std::optional<int64_t> a = {}, std::optional<int64_t> b = {},
                         std::optional<int64_t> s = {}) {
    IndexItem x; x.is_slice = true; x.start = a; x.stop = b; x.step = s; return x;
  }
  static IndexItem all() { return slice(); }
};

class Tensor {
 public:
  Tensor() = default;
  Tensor(std::shared_ptr<Storage> st, Shape shape, std::vector<DimMap> dims, int64_t offset);

  bool valid() const { return st_ != nullptr; }
  const Shape& shape() const { return shape_; }
  int rank() const { return int(shape_.size()); }
  int64_t numel() const;
  DType dtype() const { return st_->dtype; }
  uint32_t elem_size() const { return dtype_size(st_->dtype); }
  SpaceId space() const { return st_->space; }
  const std::string& space_name() const { return st_->space_name; }
  const std::string& name() const { return st_->name; }
  TagId tag() const { return st_->tag; }
  uint64_t base_addr() const { return st_->base; }
  const Layout& layout() const { return st_->layout; }
  bool freed() const { return st_->freed; }
  // Throws OpError "use of freed tensor 'A' (freed at end of scope 'x')".
  void check_live() const;
  // True when this view covers its whole allocation in logical order.
  bool is_whole() const;
  bool same_storage(const Tensor& o) const { return st_ == o.st_; }

  // ---- views (no events) ----
  // NumPy basic indexing; fewer items than rank means trailing ':'.
  // Out of range integer -> OpError "index 5 is out of bounds for dimension 0 with size 4".
  Tensor index(const std::vector<IndexItem>& items) const;
  // perm empty = reverse the dims. Checks perm is a permutation.
  Tensor transpose(const std::vector<int>& perm = {}) const;
  // A view with the new shape when the strides allow it (NumPy rule, linear
  // layouts only); nullopt when a copy is needed. One dim may be -1.
  std::optional<Tensor> reshape_view(const Shape& shape) const;
  // Resolve -1 and check the element count (OpError on mismatch).
  Shape resolve_shape(const Shape& shape) const;

  // ---- functional access (no events, no liveness check) ----
  int64_t phys(const int64_t* idx) const;                 // physical element index
  uint64_t addr_of(const int64_t* idx) const { return st_->base + uint64_t(phys(idx)) * elem_size(); }
  double get(const std::vector<int64_t>& idx) const;      // idx must be in range
  void set(const std::vector<int64_t>& idx, double v);    // rounds to dtype
  std::vector<double> to_vector() const;                  // logical row-major order
  void from_vector(const std::vector<double>& v);         // logical row-major order; rounds

  // Normalised index for one dim (negative -> from end). OpError when out of range.
  int64_t norm_index(int dim, int64_t i) const;

  const std::shared_ptr<Storage>& storage() const { return st_; }
  const std::vector<DimMap>& dims() const { return dims_; }
  int64_t offset() const { return offset_; }

 private:
  std::shared_ptr<Storage> st_;
  Shape shape_;
  std::vector<DimMap> dims_;
  int64_t offset_ = 0;  // physical index of the view's first element
};

}  // namespace ptosim::exec
