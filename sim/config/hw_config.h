#pragma once
// The hardware description, after parsing and defaulting. Every field has a
// default (see docs/CONFIG.md) except a cache's size/ways/line.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/common/error.h"
#include "sim/common/name_table.h"
#include "sim/common/registry.h"
#include "sim/common/ids.h"
#include "sim/config/npu_config.h"
#include "sim/config/op_timing.h"

namespace ptosim {

// When a `cpu` core's store requests its cache line (docs/TIMING.md, "Stores").
enum class StoreRequest { Dispatch, Drain, Rfo };
inline constexpr NameTable<StoreRequest, 3> kStoreRequests{{{
    {StoreRequest::Dispatch, "dispatch", "when the store dispatches (its address is known)"},
    {StoreRequest::Drain, "drain", "when the store queue drains it, in order after it retires"},
    {StoreRequest::Rfo, "rfo",
     "at dispatch, and again when the queue drains it if the line has left the first level by then"},
}}};

struct CoreConfig {
  // A registered core model (models/core/core_timing.h, docs/TIMING.md "The core");
  // the default is the registry's (sim/common/registry.h), as for every key that picks a model.
  std::string model = ChoiceLists::default_name(concepts::kCoreModel);
  uint32_t issue_width = 4;        // simple: accesses per cycle; cpu: instructions dispatched per cycle
  uint32_t max_outstanding = 16;   // misses in flight (memory-level parallelism)
  double flops_per_cycle = 32;     // peak compute throughput (float32's with a per-dtype table)
  std::map<std::string, double> flops_per_cycle_by_dtype;  // dtype name -> peak; empty = one figure
  uint32_t vector_bytes = 32;      // width of one vector access of a naive op
  uint32_t count = 1;              // cores, for pto.parallel
  // cpu model only.
  uint32_t rob_entries = 224;      // reorder window
  uint32_t lq_entries = 72;        // load queue
  uint32_t sq_entries = 56;        // store queue
  uint32_t load_ports = 2;         // loads started per cycle
  uint32_t store_ports = 1;        // stores started per cycle
  uint32_t forward_latency = 5;    // store-to-load forwarding, cycles
  StoreRequest store_request = StoreRequest::Dispatch;
  // With store_request: drain, the distinct lines the store queue writes a
  // cycle: stores to the line of the store before drain store_ports a
  // cycle, a store to another line waits a cycle after that line's first
  // (0: store_ports a cycle whatever the lines; docs/TIMING.md, "Stores").
  uint32_t store_lines_per_cycle = 0;
  // With store_request: drain or rfo, a store whose line arrived by a miss
  // less than store_fill_window cycles before the store drains takes
  // store_fill_cycles to drain instead of a port's cycle (0: no such cost;
  // docs/TIMING.md, "Stores").
  uint32_t store_fill_cycles = 0, store_fill_window = 0;
  uint32_t loop_uops = 2;          // instructions per loop iteration (counter, compare-and-branch)
  OpTimingTable op_timing;         // latency / throughput per op class and dtype
  NpuConfig npu;                   // npu model: the engines (core.pipes, core.vector_flops_per_cycle)

  // The model needs the program's dataflow (event numbers, dependences).
  bool dataflow() const;
  // The model times every access itself (dataflow models do too).
  bool every_access() const;
  // Peak flops per cycle for a dtype name ("float32", ...).
  double peak_for(const std::string& dtype) const {
    auto it = flops_per_cycle_by_dtype.find(dtype);
    return it != flops_per_cycle_by_dtype.end() ? it->second : flops_per_cycle;
  }
};

enum class PagePolicy { Open, Closed };
inline constexpr NameTable<PagePolicy, 2> kPagePolicies{{{
    {PagePolicy::Open, "open", "a row stays open after its access, until another row of the bank is needed"},
    {PagePolicy::Closed, "closed", "a row is precharged once no pending burst of the request needs it"},
}}};

enum class MemoryKind { Register, Scratchpad, Constant };
inline constexpr NameTable<MemoryKind, 3> kMemoryKinds{{{
    {MemoryKind::Register, "register", "a register file: no banks, served in its latency"},
    {MemoryKind::Scratchpad, "scratchpad", "an explicitly managed SRAM with banks"},
    {MemoryKind::Constant, "constant", "read-only memory filled by the host, with an optional cache of its own"},
}}};

// An explicitly managed space: register file, shared scratchpad, constant
// memory, or an NPU buffer such as `ub` or `l0a`.
struct MemoryConfig {
  std::string name;
  MemoryKind kind = MemoryKind::Scratchpad;
  uint64_t size = 64 * 1024;
  uint32_t latency = 1;             // cycles
  double bandwidth = 64;            // bytes / cycle
  uint32_t banks = 1;
  uint32_t bank_width = 4;          // bytes
  bool read_only = false;           // true for kind constant
  std::string backing;              // constant memory: cache name serving misses, "" = none
  BufferRole role = BufferRole::None;  // its part in an NPU's cube data path (npu_config.h)
  SourcePos pos;
};

// A cache level's prefetcher (models/cache/prefetch/, docs/CACHES.md).
struct PrefetchConfig {
  static constexpr uint32_t kMaxDegree = 64;
  std::string name = ChoiceLists::default_name(concepts::kPrefetcher);  // prefetcher: a registered name
  uint32_t distance = 1;      // prefetch_distance: lines (stride: strides) ahead
  uint32_t degree = 1;        // prefetch_degree: lines proposed per trigger (next_line, stride, stream)
  uint32_t table = 16;        // prefetch_table: streams tracked (stride, stream)
  // prefetch_page: bytes (a power of two); a proposed line in another page
  // than the demand read that proposed it is dropped, as hardware
  // prefetchers working on physical addresses do (0: no bound).
  uint64_t page = 0;
  // Not a key: the cache's sub-blocks per line (1 without `subblock:`), for
  // the prefetchers that act within a line (load_forward, subblock).
  uint32_t subblocks = 1;
};

// Whether a cache level is one instance per core or one for all of them
// (docs/CACHES.md, "Several cores"). With one core both are the same cache.
enum class CacheSharing { Private, Shared };
inline constexpr NameTable<CacheSharing, 2> kCacheSharing{{{
    {CacheSharing::Private, "private", "one instance per core, kept coherent (MESI, a directory below)"},
    {CacheSharing::Shared, "shared", "one instance that every core reaches"},
}}};

struct CacheConfig {
  std::string name;
  // sharing: private is the default of the first level, shared of the others.
  CacheSharing sharing = CacheSharing::Shared;
  uint64_t size = 0;
  uint32_t ways = 0;
  uint32_t line = 0;
  uint32_t latency = 4;             // hit latency, cycles
  double bandwidth = 64;            // bytes / cycle at its port
  std::string replacement = ChoiceLists::default_name(concepts::kReplacement);  // a registered name
  bool write_back = true;           // write_policy: write_back | write_through
  bool write_allocate = true;
  // write_allocate: nofetch (Dinero IV's -walloc f): a write miss allocates
  // only when it covers the whole line (so nothing is fetched); any other
  // write miss goes below as with no-write-allocate. Implies write_allocate.
  bool allocate_nofetch = false;
  // write_allocate: fetch: a write miss fetches its line even when it covers
  // all of it (an x86 core's read for ownership: a 64 B vector store still
  // reads the line first); `true` fetches nothing for such a write, as
  // Dinero IV does. Implies write_allocate. Writebacks never fetch.
  bool allocate_fetch_whole = false;
  bool inclusive = false;           // inclusion: non_inclusive | inclusive
  uint32_t mshrs = 16;
  // slices: a shared level split by address into this many slices, each
  // with its own port of `bandwidth` (docs/CACHES.md, "Slices"); 1 = one port.
  uint32_t slices = 1;
  // set_fill_cycles: a set takes one fill every that many cycles (0 = no
  // limit); a fill arrives no sooner than that after the set's previous one.
  uint32_t set_fill_cycles = 0;
  // set_writeback_cycles: with set_fill_cycles, what a dirty victim leaving
  // a set adds to that set's spacing (the next fill arrives that much later);
  // -1 (no key) = set_fill_cycles.
  int32_t set_writeback_cycles = -1;
  uint32_t writeback_spacing() const {
    return set_writeback_cycles < 0 ? set_fill_cycles : uint32_t(set_writeback_cycles);
  }
  uint64_t seed = 1;                // for replacement: random
  PrefetchConfig prefetch;
  SourcePos pos;
  // subblock: Dinero IV's -lN-Tsbsize: a valid and a dirty bit per sub-block
  // of this many bytes, fetched and written back by sub-block. 0 (no key) =
  // the whole line, the same as subblock == line.
  uint32_t subblock = 0;

  uint64_t lines() const { return size / line; }
  // Whether lines are split into sub-blocks (subblock given and below the line).
  bool has_subblocks() const { return subblock != 0 && subblock < line; }
  uint64_t sets() const { return size / (uint64_t(ways) * line); }
};

// How the private cache levels of several cores are kept coherent
// (docs/CACHES.md, "Several cores"): a MESI directory at the first shared
// level. Only used when core.cores > 1 and a level is private.
struct CoherenceConfig {
  // Cycles a directory action that reaches other cores adds to the request
  // that caused it (an invalidation's or an intervention's round trip);
  // 0 (no key) = the first shared level's hit latency, where the directory
  // lives (the last private level's when every level is private).
  uint32_t latency = 0;
  // Bytes of one coherence message (request, invalidation, acknowledgement)
  // on the directory's port, which moves the first shared level's
  // bandwidth: the interconnect's share of coherence traffic.
  uint32_t message_bytes = 8;
  SourcePos pos;
};

struct DramConfig {
  std::string name = "DRAM";
  double latency_ns = 80;          // flat latency used when timing: simple
  double bandwidth = 25.6e9;       // bytes / s, flat model peak
  std::string timing = ChoiceLists::default_name(concepts::kDramTiming);  // a registered name
  uint32_t channels = 1;
  uint32_t ranks = 1;
  uint32_t banks = 8;
  uint64_t row_size = 8192;        // bytes per row (per bank)
  uint32_t bus_width = 64;         // bits per channel
  double data_rate = 3200e6;       // transfers / s
  uint32_t burst_length = 8;
  // Timings in ns (a config may write them in DRAM clocks: tCK = 2 / data_rate).
  double tCL = 13.75, tRCD = 13.75, tRP = 13.75, tRAS = 32;
  double tREFI = 0, tRFC = 0;      // 0 = no refresh
  // detailed: the path from the last cache to the channel and back (mesh or
  // fabric, controller queues), ns added to every request's latency.
  double controller_latency = 0;
  PagePolicy page_policy = PagePolicy::Open;
  std::string mapping = "ro-ba-ra-ch-co";
  SourcePos pos;

  // bytes / s: channels x bus width x data rate when detailed, else `bandwidth`.
  double peak_bandwidth() const;
};

class HwConfig {
 public:
  std::string name = "default";
  std::string source;             // file it came from, "<default>" for the built-in one
  double clock_hz = 2e9;
  CoreConfig core;
  std::vector<MemoryConfig> memories;
  std::vector<CacheConfig> caches;  // L1 first
  DramConfig dram;
  CoherenceConfig coherence;
  // space name -> module name (a memory, a cache or the DRAM); "global" is
  // always present and maps to the first cache (or DRAM without caches).
  std::map<std::string, std::string> spaces;
  uint64_t alignment = 64;          // allocation alignment (max with largest line)
  std::map<std::string, double> op_costs;  // flops per element overrides

  // Space ids for events: index into this list; [0] == "global".
  std::vector<std::string> space_names() const;
  std::optional<SpaceId> space_id(const std::string& space) const;
  const MemoryConfig* memory(const std::string& name) const;
  // The memory playing `role` (memories[].role), or null.
  const MemoryConfig* memory(BufferRole role) const;
  // Each space's role (index = SpaceId): the role of the memory it maps to.
  std::vector<BufferRole> space_roles() const;
  const CacheConfig* cache(const std::string& name) const;
  // A cache named only by a memory's `backing:` is that memory's private
  // constant cache: not a level of the hierarchy nor of the report.
  bool private_cache(const std::string& cache) const;
  // The cache levels that are one instance per core (a prefix of `caches`);
  // 0 with one core, where private and shared are the same.
  size_t private_levels() const;
  // coherence.latency after its default.
  uint32_t coherence_latency() const;
  // The report's levels in order: memories, caches L1..Ln, DRAM; (name, kind).
  std::vector<std::pair<std::string, std::string>> report_levels() const;
};

}  // namespace ptosim
