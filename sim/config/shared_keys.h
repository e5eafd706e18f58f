#pragma once
// The config keys that belong to no one model, declared once as the models
// declare theirs (PTOSIM_PARAMS, sim/config/params.h): a memory's, a cache
// level's, the core's shared figures and coherence's. Every memory module
// reads a memory's keys, every replacement policy and prefetcher a level's,
// every core model issue_width, so they live beside the sections' structs
// rather than in a model's file; the loader, `config show`, `pto-sim schema
// --params` and docs/CONFIG.md's key table come from these rows as from the
// models'. A header (inline variables register once however many files
// include it) because the config library is linked as a static library: a
// .cpp no one refers to would be dropped, and with it the keys.
//
// The keys that pick a model (core.model, dram.timing; a level's
// replacement here, its prefetcher in models/cache/prefetch/) are
// param::registered: their range, default and example are the registry's.
// Kept by hand in the loader (params.h says why): `name`, a level's
// `sharing`, the nested tables and the checks that span keys.
#include "sim/config/hw_config.h"
#include "sim/config/params.h"

namespace ptosim::shared_keys {

// A memory named after a kind is of that kind unless it says otherwise; a
// constant memory is read-only unless it says otherwise (the loader sets
// both defaults before the keys, so `kind` sets `read_only`'s).
inline Param<MemoryConfig> memory_kind() {
  Param<MemoryConfig> p = param::choice("kind", &MemoryConfig::kind, kMemoryKinds);
  p.parse = [](MemoryConfig& m, const std::string& s, const ParamContext&) {
    auto v = kMemoryKinds.find(s);
    if (!v) throw std::invalid_argument("'" + s + "' is not one of " + kMemoryKinds.listing());
    m.kind = *v;
    m.read_only = *v == MemoryKind::Constant;
  };
  return p;
}

PTOSIM_PARAMS(MemoryConfig, Memories,
  memory_kind()
      .about("", "every memory", "what the memory is (`register`: no banks; `scratchpad`: banked SRAM; `constant`: "
             "read-only, filled by the host)", "register", 10)
      .default_said("from the name: register and constant by name, else scratchpad"),
  param::bytes("size", &MemoryConfig::size)
      .about("", "every memory", "capacity (positive)", "256 KiB", 20),
  param::latency("latency", &MemoryConfig::latency)
      .about("", "every memory", "access latency", "3 cycles", 30),
  param::port_bandwidth("bandwidth", &MemoryConfig::bandwidth)
      .about("", "every memory", "its port's peak (B/cycle of the core clock, or B/s)", "128 B/cycle", 40),
  param::count("banks", &MemoryConfig::banks, 1, 4096)
      .about("", "every memory", "banks a scratchpad's accesses spread over", "8", 50),
  param::bytes32("bank_width", &MemoryConfig::bank_width)
      .about("", "every memory", "bytes of one bank's row (positive)", "8 B", 60),
  param::flag("read_only", &MemoryConfig::read_only)
      .about("", "every memory", "writes other than the host's fills are an error", "true", 70)
      .default_said("true for kind: constant"),
  param::text("backing", &MemoryConfig::backing)
      .about("", "every memory", "a cache (or the DRAM) whose misses serve the memory's, for constant memory; "
             "empty: none", "L1", 80)
      .shown_when([](const MemoryConfig& m) { return !m.backing.empty(); }),
  param::choice("role", &MemoryConfig::role, kBufferRoles)
      .about("", "every memory", "the buffer's part in an NPU's cube data path, each role at most once and only on "
             "scratchpads; with `l0a`, `l0b` and `l0c` present, pto.tile's matmul travels them (docs/EXEC.md, "
             "\"pto.tile on an NPU\")", "l1", 90)
      .shown_when([](const MemoryConfig& m) { return m.role != BufferRole::None; }));

inline std::string write_allocate_text(const CacheConfig& c) {
  return c.allocate_nofetch ? "nofetch" : c.allocate_fetch_whole ? "fetch" : c.write_allocate ? "true" : "false";
}

PTOSIM_PARAMS(CacheConfig, CacheLevels,
  param::bytes("size", &CacheConfig::size)
      .about("", "every level", "capacity (required): a multiple of ways x line, at most 2^24 lines", "64 KiB", 10),
  param::count("ways", &CacheConfig::ways, 1)
      .about("", "every level", "associativity (required); ways = size / line is fully associative, built in the "
             "memory of the lines it comes to hold, not of its ways (a 1 GiB level of 2^24 ways starts in 13 MB); "
             "the set count need not be a power of two (sets are indexed by line number modulo the set count)",
             "16", 20),
  param::bytes32("line", &CacheConfig::line)
      .about("", "every level", "line size (required), a power of two", "128 B", 30),
  param::bytes32("subblock", &CacheConfig::subblock)
      .about("", "every level", "Dinero IV's `-lN-Tsbsize`: a valid and dirty bit per sub-block of this many bytes, "
             "fetched and written back by sub-block; a power of two, at most the line and at least line / 32 "
             "(docs/CACHES.md, \"Sub-blocks\"). Not on a private level of several cores", "16 B", 40)
      .default_said("none (the whole line)")
      .shown_when([](const CacheConfig& c) { return c.has_subblocks(); }),
  param::latency("latency", &CacheConfig::latency)
      .about("", "every level", "hit latency", "12 cycles", 50),
  param::port_bandwidth("bandwidth", &CacheConfig::bandwidth)
      .about("", "every level", "its port's peak (B/cycle of the core clock, or B/s); with `slices`, each slice's",
             "32 B/cycle", 60),
  param::registered("replacement", &CacheConfig::replacement, concepts::kReplacement)
      .about("", "every level", "a registered replacement policy (models/cache/replacement/; the error lists them, as "
             "`pto-sim schema --choices` does)", "", 70),
  param::two_names("write_policy", &CacheConfig::write_back, "write_back", "write_through")
      .about("", "every level", "whether a write hit marks the line dirty or goes below at once", "write_through", 80),
  param::custom<CacheConfig>(
      "write_allocate", "choice", "", "true | false | nofetch | fetch",
      [](CacheConfig& c, const std::string& s, const ParamContext&) {
        if (s != "true" && s != "yes" && s != "on" && s != "false" && s != "no" && s != "off" && s != "nofetch" &&
            s != "fetch")
          throw std::invalid_argument("expected true, false, nofetch or fetch, got '" + s + "'");
        c.write_allocate = s != "false" && s != "no" && s != "off";
        c.allocate_nofetch = s == "nofetch";
        c.allocate_fetch_whole = s == "fetch";
      },
      write_allocate_text)
      .about("", "every level", "`true`: a write miss allocates, and one that covers the whole line (with `subblock`, "
             "its sub-blocks exactly) fetches nothing, as Dinero IV; `false`: no-write-allocate; `nofetch`: allocate "
             "only a write that covers the whole line, Dinero IV's `-walloc f`; `fetch`: allocate and read the line "
             "first even when the write covers it, as an x86 core's read for ownership does for a 64 B vector store "
             "(a writeback from above still fetches nothing; `config host` writes it on the L1D: docs/notes/"
             "2026-12-07-lead-3.md)", "nofetch", 90),
  param::two_names("inclusion", &CacheConfig::inclusive, "non_inclusive", "inclusive", false)
      .about("", "every level", "an inclusive level evicts its lines from the levels above; its line must be at "
             "least that of every level above", "inclusive", 100),
  param::count("mshrs", &CacheConfig::mshrs, 1, 4096)
      .about("", "every level", "misses the level keeps in flight", "32", 110),
  param::count("slices", &CacheConfig::slices, 1, 1024)
      .about("", "every level", "a shared level only: split by address into this many slices, each with its own "
             "port of `bandwidth`, so cores contend per slice; counts do not depend on it (docs/CACHES.md, "
             "\"Slices\")", "2", 120)
      .shown_when([](const CacheConfig& c) { return c.slices > 1; }),
  param::count("set_fill_cycles", &CacheConfig::set_fill_cycles, 0, 4096)
      .about("", "every level", "a set takes one fill every that many cycles (0 = no limit; docs/CACHES.md, \"Fills "
             "per set\")", "5", 130)
      .shown_when([](const CacheConfig& c) { return c.set_fill_cycles != 0; }),
  param::custom<CacheConfig>(
      "set_writeback_cycles", "count", "", "0..4096",
      [](CacheConfig& c, const std::string& s, const ParamContext& ctx) {
        CacheConfig bounds;  // the count's own checks and message
        param::count("set_writeback_cycles", &CacheConfig::mshrs, 0, 4096).parse(bounds, s, ctx);
        c.set_writeback_cycles = int32_t(bounds.mshrs);
      },
      [](const CacheConfig& c) { return std::to_string(c.writeback_spacing()); })
      .about("", "every level", "needs `set_fill_cycles`: what a dirty victim leaving a set adds to its spacing",
             "3", 140)
      .default_said("set_fill_cycles")
      .shown_when([](const CacheConfig& c) { return c.set_fill_cycles != 0; }));

// One issue slot must still be a whole femtosecond or more.
inline Param<CoreConfig> issue_width() {
  Param<CoreConfig> p = param::count("issue_width", &CoreConfig::issue_width, 1, 1024);
  auto count = p.parse;
  p.parse = [count](CoreConfig& k, const std::string& s, const ParamContext& ctx) {
    count(k, s, ctx);
    if (k.issue_width > 1)
      time_limits::check_step(1e15 / ctx.clock_hz / k.issue_width,
                              "at " + units::format_frequency(ctx.clock_hz) + " one issue slot");
  };
  return p;
}

// At most kMaxCores, said at the key by the loader ("at most 256 cores").
inline Param<CoreConfig> cores() {
  Param<CoreConfig> p = param::count("cores", &CoreConfig::count, 1);
  p.range = "1.." + std::to_string(kMaxCores);
  return p;
}

// Ranks below -100 are written before core.flops_per_cycle, those from -100
// to 0 after it, before the NPU's tables (hw_config.cpp's to_yaml).
PTOSIM_PARAMS(CoreConfig, CoreShared,
  param::registered("model", &CoreConfig::model, concepts::kCoreModel)
      .about("", "the core", "the core model: what times the events (models/core/; docs/TIMING.md, \"The core\")", "",
             -1000),
  issue_width()
      .about("", "every core model", "`simple`: accesses issued per cycle; `cpu`: instructions dispatched (and "
             "retired) per cycle", "2", -190),
  param::count("max_outstanding", &CoreConfig::max_outstanding, 1, 4096)
      .about("", "every core model", "misses in flight (memory-level parallelism)", "32", -180),
  param::bytes32("vector_bytes", &CoreConfig::vector_bytes)
      .about("", "every core model", "width of one vector access of a naive (untiled) op (positive)", "64 B", -90),
  cores()
      .about("", "every core model", "cores for `pto.parallel`: each has its own issue slots, miss window and clock, "
             "and its own instance of every `sharing: private` cache level; they share the rest (docs/TIMING.md, "
             "docs/CACHES.md \"Several cores\")", "2", -80));

// Written between the simple model's latency and bandwidth (negative ranks)
// and the detailed model's keys, where config show always wrote it; read
// first, as the loader always did.
PTOSIM_PARAMS(DramConfig, DramShared,
  param::registered("timing", &DramConfig::timing, concepts::kDramTiming)
      .about("", "the DRAM", "the DRAM timing model (models/dram/; docs/TIMING.md)", "", -5)
      .read_before_the_rest());

PTOSIM_PARAMS(CoherenceConfig, Coherence,
  param::latency("latency", &CoherenceConfig::latency)
      .about("", "the directory", "with several cores and private levels: cycles a directory action that reaches "
             "other cores (an invalidation, an intervention, an upgrade) adds to the request; the directory lives at "
             "the first shared level", "20 cycles", 10)
      .default_said("the first shared level's latency (the last private level's when every level is private)"),
  param::bytes32("message_bytes", &CoherenceConfig::message_bytes)
      .about("", "the directory", "one coherence message (request, invalidation, acknowledgement) on the directory's "
             "port, which moves the first shared level's `bandwidth` (positive)", "16 B", 20));

}  // namespace ptosim::shared_keys
