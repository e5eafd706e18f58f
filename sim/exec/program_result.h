#pragma once
// What a program's execution produced besides its events (checks, output
// checksums, footprints, reuse figures): the executor fills it and the report
// reads it, so it lives with the executor, below the frontend.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/common/error.h"

namespace ptosim {

struct CheckOutcome {
  SourcePos pos;
  bool passed = true;
  std::string message;  // on failure: first bad index, both values, max error
};

struct OutputChecksum {
  std::string tensor;
  std::string dtype;
  std::vector<int64_t> shape;
  double sum = 0;          // sum of elements (double)
  double abs_sum = 0;      // sum of |elements|
  uint64_t fnv1a = 0;      // FNV-1a over the stored bytes in logical (row-major) order
};

struct SpaceFootprint {
  uint64_t peak_bytes = 0;
  uint64_t capacity = 0;   // 0 = unbounded
};

// A `param`'s final value (its default or the -D override), for the report.
struct ProgramParam {
  enum class Kind { Int, Float, Bool, Str, Other } kind = Kind::Other;
  std::string name;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string text;  // as print() would show it; used for Str and Other
};

struct ProgramResult {
  std::vector<ProgramParam> params;  // in the order the program bound them (filled by the frontend)
  std::vector<CheckOutcome> checks;
  std::vector<OutputChecksum> outputs;
  std::map<std::string, SpaceFootprint> footprint;  // per space name
  // pto.auto_reuse blocks: peak footprint with and without buffer sharing.
  struct AutoReuse { SourcePos pos; uint64_t peak_with = 0, peak_without = 0; uint64_t distinct_with = 0, distinct_without = 0; };
  std::vector<AutoReuse> auto_reuse;
  // pto.reuse: tiles served from the reuse space vs fallen back to normal loads.
  // `why`: set when the block ends having served nothing (the warning's
  // text), so that the report says it too, not only stderr.
  struct Reuse { std::string tensor; std::string scope; uint64_t hits = 0, fallbacks = 0, fallback_bytes = 0; std::string why; };
  std::vector<Reuse> reuse;
  // Buffers left allocated in managed spaces at the end (allocation order).
  struct Leak { SourcePos pos; std::string tensor, space, scope; uint64_t bytes = 0; };
  std::vector<Leak> leaks;
  // Pictures a pto.MemoryVisualizer asked for (`generate_heatmap("x.png")`):
  // drawn from the run's report once it is complete (`kind`: heatmap or
  // timeline; the block traced ran from cycle `from` to `to`).
  struct Picture { SourcePos pos; std::string kind, path, region; double from = 0, to = 0; };
  std::vector<Picture> pictures;
  // With hot spots on: each tile tag's tensor and tile shape ("32x32").
  std::map<std::string, std::string> tile_tensor, tile_shape;
  std::vector<std::string> tensor_order;  // tensor tag names in tag-id order
  // With heatmap bins on (tile_tensor then maps bin tags): each bin tag's
  // index, each tensor's bytes (its first allocation), the bins per tensor.
  std::map<std::string, uint32_t> tile_bin;
  std::map<std::string, uint64_t> tensor_bytes;
  uint32_t heatmap_bins = 0;
  uint64_t events = 0;
  bool all_checks_passed() const {
    for (auto& c : checks) if (!c.passed) return false;
    return true;
  }
};

}  // namespace ptosim
