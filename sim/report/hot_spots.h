#pragma once
// Hot spots at tile granularity: a run with --hot-spots tags its accesses by
// tensor tile, so each level's `tensors` table holds tiles. This folds those
// rows back into one per tensor and lists the N tiles with the most accesses
// and the most misses per level in a `hot_spots` table. A run with
// --heatmap-bins tags them by bin of each tensor's address range instead:
// the same folding, and each epoch's tensor rows keep their bins.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/report/stats.h"

namespace ptosim {

// tile_tensor: tile row name -> its tensor; tile_shape: -> "32x32".
void add_hot_spots(StatsNode& root, const std::map<std::string, std::string>& tile_tensor,
                   const std::map<std::string, std::string>& tile_shape, const std::vector<std::string>& order,
                   uint64_t n);

// bin_tensor: bin row name -> its tensor; bin_index: -> its bin; bytes:
// tensor -> its address range's size. Adds `heatmap_bins` and a
// `heatmap_tensors` table (bytes, bin_bytes per tensor).
void add_heatmap_bins(StatsNode& root, const std::map<std::string, std::string>& bin_tensor,
                      const std::map<std::string, uint32_t>& bin_index, const std::map<std::string, uint64_t>& bytes,
                      const std::vector<std::string>& order, uint32_t bins);

}  // namespace ptosim
