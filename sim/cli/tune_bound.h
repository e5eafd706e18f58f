#pragma once
// What no tile can beat: a lower bound on any point's objective, so that
// `pto-sim tune` can prune with it (a point whose bound is not below the
// best simulated figure cannot win) and say how much better any point it
// did not simulate could at most be. Only bounds that hold for every
// schedule of the same work on the same hardware: the compute roof (the
// program's flops at the config's peak), the DRAM roof, and for a program
// whose work is a matmul named by the user, the I/O bound of a classical
// matmul on a fast memory of S elements (Hong and Kung 1981; the leading
// term 2·M·N·K/√S is Smith, Lowery, Langou and van de Geijn's, 2019), less
// 3S elements: a margin for the theorems' lower-order terms and for data
// already in fast memory at the start (cli_tune checks it against sweeps).
#include <nlohmann/json.hpp>
#include <string>

#include "sim/cli/tune_estimate.h"
#include "sim/config/hw_config.h"

namespace ptosim::cli {

struct MatmulShape {
  double m = 0, n = 0, k = 0, element_bytes = 4;
};

// Bytes any schedule of an M x N x K matmul reads from below a fast memory
// of `fast_bytes` (every register, scratchpad and cache of every core);
// 0 when the bound says nothing (the matrices fit).
double matmul_traffic_bound(const MatmulShape& mm, double fast_bytes);
// Every byte that can hold data above DRAM: memories and caches, private
// levels once per core (an over-count weakens the bound, never breaks it).
double fast_memory_bytes(const HwConfig& config);

struct LowerBound {
  double value = 0;  // objective units; 0: nothing known
  std::string why;   // how, with the figures
};
// The bound on every point of one hardware config, from the report of a
// point run to its end: its flops (the same for every tile: a tile
// reorders the work, cli_tune checks it) and the config's peaks; `mm` the
// program's matmul when the user named one (m == 0: none).
LowerBound lower_bound(const HwConfig& config, const nlohmann::json& finished, const MatmulShape& mm,
                       TuneObjective objective);

}  // namespace ptosim::cli
