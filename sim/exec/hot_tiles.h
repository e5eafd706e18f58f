#pragma once
// Hot spots at tile granularity (`--hot-spots N`): while on, every access
// is tagged with the tile of its tensor that its first byte falls in
// ("A[0:32, 0:32]") instead of the tensor, so the levels' per-tensor tables
// count accesses and misses per tile exactly, with nothing added to the
// simulation. Tile shape: --hot-tile (the last dims), else the program's
// first pto.tile directive (M x N, dim_0 x dim_1 or H x W), else 32 x 32;
// dims before those are whole.
//
// The same tagging cuts each tensor's address range into `bins` equal parts
// instead (`--heatmap-bins N`: the access heatmap by address within each
// tensor over the epochs), "A[bin 3/16]".
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/exec/tensor.h"

namespace ptosim::exec {

class ExecContext;

class HotTiles {
 public:
  // `tile`: the last dims' tile sizes, empty = from the program or 32 x 32.
  explicit HotTiles(std::vector<int64_t> tile, uint32_t bins = 0) : given_(std::move(tile)), bins_(bins) {}
  // `tag_name`: the name the tensor's tag has (temporaries share "tmp").
  void note_alloc(const std::shared_ptr<Storage>& st, const std::string& tag_name);
  void note_directive(const std::map<std::string, int64_t>& sizes);
  // The tag of the tile `addr` lies in, or `fallback` outside any tensor.
  TagId tag(ExecContext& ctx, uint64_t addr, TagId fallback);
  // Tile tag name -> the tensor it belongs to, and the tile shape used.
  const std::map<std::string, std::string>& tensor_of() const { return tensor_of_; }
  const std::map<std::string, std::string>& shape_of() const { return shape_of_; }
  // Tensor tag names in the order of their first allocation (= their tag ids).
  const std::vector<std::string>& tensor_order() const { return order_; }
  // Bins: tag name -> bin index; tensor -> bytes of its first allocation.
  const std::map<std::string, uint32_t>& bin_of() const { return bin_of_; }
  const std::map<std::string, uint64_t>& bytes_of() const { return bytes_of_; }

 private:
  struct Map {
    std::weak_ptr<Storage> st;
    std::string name;
    uint64_t base = 0, end = 0;
    uint32_t elem = 1;
    bool built = false;
    std::vector<uint32_t> tile_of_phys;  // physical element -> tile index
    std::vector<int64_t> tile;           // per dim
    std::vector<TagId> tags;             // per tile, 0 = not named yet
  };
  void build(ExecContext& ctx, Map& m, const Storage& st);
  TagId bin_tag(ExecContext& ctx, Map& m, uint64_t addr, TagId fallback);
  std::vector<int64_t> given_, program_;
  uint32_t bins_;
  std::map<std::string, uint32_t> bin_of_;
  std::map<std::string, uint64_t> bytes_of_;
  std::map<uint64_t, Map> by_base_;  // live allocations by address
  Map* last_ = nullptr;
  std::map<std::string, std::string> tensor_of_, shape_of_;
  std::vector<std::string> order_;
};

}  // namespace ptosim::exec
