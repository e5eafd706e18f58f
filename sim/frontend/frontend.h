#pragma once
// Entry point of the PTO frontend: interpret a .pto program, computing real
// values and pushing its memory/compute events into a sink.
#include <cstdint>
#include <functional>
#include <set>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/hw_config.h"
#include "sim/exec/program_result.h"
#include "sim/exec/run_figures.h"
#include "sim/trace/event.h"

namespace ptosim {

struct ProgramOptions {
  std::vector<std::pair<std::string, std::string>> defines;  // -D NAME=VALUE, in order
  uint64_t max_events = 2'000'000'000ull;  // guard against runaway loops
  uint64_t max_memory = 0;                 // bytes of lists, strings, tensors; 0 = a quarter of the machine's memory
  uint64_t max_value_memory = 0;           // bytes of lists, strings, dicts; 0 = memory_budget::kDefaultValueLimit
  std::ostream* print_stream = nullptr;    // where pto `print` writes; null = stdout
  std::ostream* warning_stream = nullptr;  // `file:line:col: warning: ...` lines; null = stderr
  // --hot-spots: tag accesses by tensor tile; hot_tile = the last dims' tile
  // sizes (empty: the program's first pto.tile, else 32 x 32).
  bool hot_spots = false;
  std::vector<int64_t> hot_tile;
  // --timeline: mark where each op's events begin and end (EventSink::op_mark).
  bool op_marks = false;
  // --heatmap-bins N: tag accesses by N-th of their tensor's address range
  // (not with hot_spots: both tag by part of a tensor).
  uint32_t heatmap_bins = 0;
  // --check-data: the sink also receives the bytes of writes, allocations
  // and the final memory (exec/data_tap.h), and events' positions.
  bool check_data = false;
  // --no-values: events only (ExecContext::disable_values).
  bool values = true;
  // false: loops run as their statement tree, never in the flat form of
  // sim/frontend/flat_loop.h (its tests compare the two; the same events).
  bool flat_loops = true;
  // pto.MemoryProfiler / MemoryVisualizer: the figures of the simulation so
  // far, every event sent before the call simulated (null: nothing is
  // simulated, `pto-sim check` and `trace`).
  std::function<exec::RunFigures()> figures;
  // pto.CacheSimulator's side model (null: CacheSimulator is an error).
  exec::CacheModelFactory cache_model;
};

// Throws InputError("file:line:col: message\n<source line>\n<caret>") on a bad
// program. sink may be null (functional execution only: `pto-sim check`).
ProgramResult run_program(const std::string& path, const HwConfig& config,
                          const ProgramOptions& options, EventSink* sink);

// The names of the program's `param` statements in source order, without
// running it (a sweep checks its -D names and fixes its columns up front).
std::vector<std::string> declared_parameters(const std::string& path);

// The `pto.X` names the program refers to (`MemoryVisualizer`, ...), without
// running it: a run turns on what their objects read (epochs, hot tiles).
std::set<std::string> pto_names_used(const std::string& path);

}  // namespace ptosim
