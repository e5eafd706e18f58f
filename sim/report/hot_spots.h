#pragma once
// Hot spots at tile granularity: a run with --hot-spots tags its accesses by
// tensor tile, so each level's `tensors` table holds tiles. This folds those
// rows back into one per tensor and lists the N tiles with the most accesses
// and the most misses per level in a `hot_spots` table.
#include <map>
#include <string>
#include <vector>

#include "sim/report/stats.h"

namespace ptosim {

// tile_tensor: tile row name -> its tensor; tile_shape: -> "32x32".
void add_hot_spots(StatsNode& root, const std::map<std::string, std::string>& tile_tensor,
                   const std::map<std::string, std::string>& tile_shape, const std::vector<std::string>& order,
                   uint64_t n);

}  // namespace ptosim
