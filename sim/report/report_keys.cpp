// The entries below are the schema (see report_keys.h). Keep them in report
// order; docs/REPORTS.md is generated from this file.
#include "sim/report/report_keys.h"

#include <nlohmann/json.hpp>

namespace ptosim {
namespace {

constexpr KeyType C = KeyType::Count, R = KeyType::Real, B = KeyType::Bool, S = KeyType::String,
                  O = KeyType::Object, L = KeyType::List;
constexpr Better lo = Better::Lower, hi = Better::Higher, no = Better::None;

const std::vector<ReportKey> kKeys = {
    // Run identity (schema_version 2): what produced the report.
    {"schema_version", C, "", "report schema version (2)", no, true},
    {"pto_sim_version", S, "", "version of pto-sim that wrote the report", no, true},
    {"command_line", S, "", "the command line, shell-quoted", no, true},
    {"started_at", S, "UTC", "start time, ISO 8601", no, true},
    {"wall_seconds", R, "s", "wall-clock time of the process until the report (not a result)", no, true},
    {"source", S, "", "program or trace path as given", no, true},
    {"source_hash", S, "", "ptowh64 (pto-sim's word hash) of the program's or trace's bytes (\"\" for stdin or a FIFO)", no, true},
    {"config", S, "", "config `name:`", no, true},
    {"config_file", S, "", "config path, `<default>` for the built-in one", no, true},
    {"config_hash", S, "", "fnv1a64 of the fully resolved config (`config_resolved` as `config show` prints it)", no, true},
    {"parameters", O, "", "every `param`'s final value, defaults included (program runs; {} for traces)", no, true},
    {"parameters.*", S, "", "one parameter: integer, real, boolean or string as the program bound it", no, true},
    {"config_overrides", O, "", "the `--set` overrides, dotted path to value as given", no, true},
    {"config_overrides.*", S, "", "one override's value", no, true},
    // Run results.
    {"clock_hz", R, "Hz", "core clock", no},
    {"cycles", C, "cycles", "core cycles until the last access completed", lo},
    {"seconds", R, "s", "simulated time: cycles / clock_hz", lo},
    {"interrupted", B, "", "present (true) only when SIGINT/SIGTERM stopped the run: the figures cover events_done", no},
    {"events_done", C, "", "interrupted runs: the events simulated before the stop", no},
    {"values_off", B, "", "present (true) only with `run --no-values`: tensor values were not computed (pto.check compared nothing); the counts are a full run's unless the program's loops or addresses depend on values", no},
    {"flops", C, "flop", "compute work of the run (= core.flops)", no},
    {"gflops_per_s", R, "GFLOP/s", "flops / seconds / 1e9", hi},
    {"dram_bytes", C, "B", "the DRAM level's bytes_read + bytes_written", lo},
    {"arithmetic_intensity", R, "flop/B", "flops / dram_bytes; 0 when dram_bytes is 0", hi},
    {"peak_flops_per_s", R, "FLOP/s", "core.flops_per_cycle x clock", no},
    {"peak_dram_bandwidth_bytes_per_s", R, "B/s", "the DRAM level's peak bandwidth", no},
    {"dram_bytes_per_access_byte", R, "B/B", "dram_bytes / core.access_bytes: DRAM traffic per byte the program's loads and stores consumed (the article's bandwidth figures, compared across variants whatever the width of their requests); 0 without accesses", lo},
    {"access_bandwidth_fraction", R, "fraction", "core.access_bytes / seconds / peak_dram_bandwidth_bytes_per_s: how fast the program consumed data against what DRAM alone supplies (the article's \"bandwidth utilisation\", per byte consumed; above 1 when caches feed it faster)", hi},
    {"dirty_bytes_at_end", C, "B", "bytes of the dirty lines left in the caches at the end, each address once: what a flush would still write back to memory (0 after --flush; dram_bytes does not include them)", no},
    {"core", O, "", "the core's counters", no},
    {"core.accesses", C, "", "loads and stores issued", no},
    {"core.reads", C, "", "loads issued", no},
    {"core.writes", C, "", "stores issued", no},
    {"core.line_requests", C, "", "line-sized requests the accesses became", no},
    {"core.access_bytes", C, "B", "bytes the loads and stores asked for: what the program consumed and produced", no},
    {"core.flops", C, "flop", "compute work", no},
    {"core.compute_cycles", C, "cycles", "issue time spent on compute", no},
    {"core.window_stalls", C, "", "times the miss window (max_outstanding) was full", lo},
    {"core.stall_cycles", C, "cycles",
     "time accesses waited for a miss-window slot, summed over accesses (under the cpu model they wait at once: "
     "it can exceed cycles; docs/REPORTS.md)",
     lo},
    {"core.barrier_wait_cycles", C, "cycles", "cycles the cores waited at pto.parallel barriers", lo},
    {"core.cores", C, "", "config core.cores", no},
    {"core.model", S, "", "core.model of the config, with the cpu pipeline model only", no},
    {"core.instructions", C, "", "cpu model: micro-ops issued", no},
    {"core.forwarded_loads", C, "", "cpu model: loads served by store-to-load forwarding", no},
    {"core.rob_stall_cycles", R, "cycles", "cpu model: cycles stalled on a full reorder buffer", lo},
    {"core.lq_stall_cycles", R, "cycles", "cpu model: cycles stalled on a full load queue", lo},
    {"core.sq_stall_cycles", R, "cycles", "cpu model: cycles stalled on a full store queue", lo},
    {"core.store_refetches", C, "",
     "cpu model, store_request: rfo: stores whose line had left the first cache level when the store queue "
     "drained them, so they requested it again",
     lo},
    {"core.fill_stores", C, "",
     "cpu model, store_fill_cycles: stores to another line than the store before, one that arrived by a miss "
     "within store_fill_window cycles, so they drained at store_fill_cycles",
     lo},
    {"core.operand_wait_cycles", R, "cycles", "cpu model: cycles waiting for operands", lo},
    {"core.pipes", L, "", "npu model: the AI core's engines (mte2, mte1_l0a, mte1_l0b, cube, fixpipe, vector, mte3)", no},
    {"core.pipes[].name", S, "", "engine name", no},
    {"core.pipes[].busy_cycles", R, "cycles", "npu model: cycles the engine worked (setup and streaming, or compute)", no},
    {"core.pipes[].transfers", C, "", "npu model: pieces of work the engine did (transfers, or computes)", no},
    {"core.barriers", C, "", "barriers seen (2 per parallel loop)", no},
    {"core.per_core", L, "", "with cores > 1: the counters above per core, named core0, core1, ...", no},
    {"core.per_core[].name", S, "", "core name", no},
    {"core.per_core[].*", C, "", "that core's value of the core.* counter of the same name", no},
    {"roofline", O, "", "see docs/TIMING.md, \"Roofline\"", no},
    {"roofline.bound_flops_per_s", R, "FLOP/s", "min(peak flops, AI x peak DRAM bandwidth)", no},
    {"roofline.bound", S, "", "`compute` or `memory`: the lower roof (a tie is compute)", no},
    {"roofline.achieved_fraction", R, "fraction", "(flops / seconds) / bound; 0 when flops is 0", hi},
    {"levels", L, "", "hierarchy order: memories, caches L1..Ln, DRAM", no},
    {"levels[].name", S, "", "module name from the config", no},
    {"levels[].kind", S, "", "cache | dram | register | scratchpad | constant", no},
    {"levels[].reads", C, "", "read requests received (one per line touched)", no},
    {"levels[].writes", C, "", "write requests received", no},
    {"levels[].read_hits", C, "", "reads that hit", hi},
    {"levels[].write_hits", C, "", "writes that hit", hi},
    {"levels[].read_misses", C, "", "reads that missed", lo},
    {"levels[].write_misses", C, "", "writes that missed", lo},
    {"levels[].miss_rate", R, "fraction", "(read_misses + write_misses) / (reads + writes)", lo},
    {"levels[].writeback_requests", C, "", "of the requests: writebacks and copybacks of the level above", no, false, "cache"},
    {"levels[].demand_requests", C, "", "requests less writeback_requests", no, false, "cache"},
    {"levels[].demand_misses", C, "", "misses less those of the writebacks", lo, false, "cache"},
    {"levels[].demand_miss_ratio", R, "fraction", "demand_misses / demand_requests", lo, false, "cache"},
    {"levels[].evictions", C, "", "valid lines replaced", lo},
    {"levels[].writebacks", C, "", "dirty lines written to the level below", lo},
    {"levels[].bytes_read", C, "B", "bytes read from this level", no},
    {"levels[].bytes_written", C, "B", "bytes written to this level", no},
    {"levels[].compulsory_misses", C, "", "misses to never-seen lines (3C)", lo},
    {"levels[].capacity_misses", C, "", "misses a fully associative LRU cache of the same size also has (3C)", lo},
    {"levels[].conflict_misses", C, "", "the remaining misses (3C)", lo},
    {"levels[].block_misses", C, "", "only at levels with sub-blocks: misses whose line was absent (the misses above count sub-block misses; Dinero IV's demand block misses)", lo, false, "cache"},
    {"levels[].compulsory_block_misses", C, "", "only at levels with sub-blocks: block misses to never-seen lines (3C)", lo, false, "cache"},
    {"levels[].capacity_block_misses", C, "", "only at levels with sub-blocks: block misses a fully associative cache also has (3C)", lo, false, "cache"},
    {"levels[].conflict_block_misses", C, "", "only at levels with sub-blocks: the remaining block misses (3C)", lo, false, "cache"},
    {"levels[].back_invalidations", C, "", "lines invalidated by an inclusive level below (only when non-zero)", lo, false, "cache"},
    {"levels[].coherence_misses", C, "", "several cores, a private level (summed over the cores): misses to lines another core's write invalidated here (the fourth C; not in the other three)", lo, false, "cache"},
    {"levels[].coherence_invalidations", C, "", "several cores, a private level: lines removed here by another core's write", lo, false, "cache"},
    {"levels[].bandwidth_bytes_per_s", R, "B/s", "(bytes_read + bytes_written) / seconds", no},
    {"levels[].peak_bandwidth_bytes_per_s", R, "B/s", "port bandwidth x clock (from the timings for a detailed DRAM)", no},
    {"levels[].utilization", R, "fraction", "time its port or data buses were busy / run time", no},
    {"levels[].avg_latency_cycles", R, "cycles", "arrival to data, per request", lo},
    {"levels[].hit_latency_cycles", C, "cycles", "the level's hit latency (config)", no, false, "cache"},
    {"levels[].misses_per_1k_accesses", R, "1/1000 accesses", "demand_misses x 1000 / core.accesses (MPKI-style)", lo, false, "cache"},
    {"levels[].misses_per_kflop", R, "1/kflop", "demand_misses x 1000 / flops; absent when the run has no flops", lo, false, "cache"},
    {"levels[].amat_cycles", R, "cycles", "average memory access time: hit_latency_cycles + demand_miss_ratio x AMAT below (a formula over the counts)", lo, false, "cache"},
    {"levels[].miss_bytes_per_access_byte", R, "B/B", "demand_miss_bytes / core.access_bytes: traffic this level asked of the one below per byte the program consumed; absent without accesses", lo, false, "cache"},
    {"levels[].byte_hit_rate", R, "fraction", "1 - miss_bytes_per_access_byte, at least 0: the article's \"cache hit rate\" per byte consumed, so fewer, wider requests are not penalised; absent without accesses", hi, false, "cache"},
    {"levels[].mshr_merges", C, "", "misses merged into one already in flight", no, false, "cache"},
    {"levels[].mshr_stalls", C, "", "requests that waited for a free MSHR", lo, false, "cache"},
    {"levels[].demand_miss_bytes", C, "B", "demand_misses x the fetch unit (the line, or the sub-block where lines have them)", lo, false, "cache"},
    {"levels[].dirty_lines_at_end", C, "", "dirty lines held at the end (summed over a private level's cores; 0 after --flush)", no, false, "cache"},
    {"levels[].set_fill_stalls", C, "", "only at levels with set_fill_cycles: fills that arrived later for their set's previous fill", lo, false, "cache"},
    {"levels[].prefetch_requests", C, "", "only at levels with a prefetcher: lines proposed and looked up (Dinero IV's prefetch fetches)", no, false, "cache"},
    {"levels[].prefetches_issued", C, "", "proposed lines that missed, so fetched from below (Dinero IV's prefetch misses)", no, false, "cache"},
    {"levels[].prefetch_useful", C, "", "prefetched lines hit by a demand request before leaving", hi, false, "cache"},
    {"levels[].prefetch_late", C, "", "of the useful: the demand came while the fill was on its way", lo, false, "cache"},
    {"levels[].prefetch_useless", C, "", "prefetched lines evicted or back-invalidated unused", lo, false, "cache"},
    {"levels[].prefetch_bytes", C, "B", "bytes fetched from below for prefetches", no, false, "cache"},
    {"levels[].conflict_cycles", C, "cycles", "cycles lost to bank conflicts", lo, false, "register scratchpad constant"},
    {"levels[].bank_conflicts", C, "", "accesses that met a bank conflict", lo, false, "register scratchpad constant"},
    {"levels[].fills", C, "", "read-only memory: fills written into it", no, false, "scratchpad constant"},
    {"levels[].fill_bytes", C, "B", "read-only memory: bytes filled", no, false, "scratchpad constant"},
    {"levels[].broadcasts", C, "", "reads served as one broadcast", no, false, "constant"},
    {"levels[].cache_hits", C, "", "hits of its backing cache", hi, false, "constant"},
    {"levels[].cache_misses", C, "", "misses of its backing cache", lo, false, "constant"},
    {"levels[].backing_reads", C, "", "with backing: reads sent to the backing module", no, false, "constant"},
    {"levels[].backing_bytes", C, "B", "with backing: bytes read from the backing module", no, false, "constant"},
    {"levels[].row_hits", C, "", "accesses to the open row (0 with timing: simple)", hi, false, "dram"},
    {"levels[].row_misses", C, "", "accesses to a closed bank", lo, false, "dram"},
    {"levels[].row_conflicts", C, "", "accesses that closed another row", lo, false, "dram"},
    {"levels[].bursts", C, "", "timing: detailed: data bursts", no, false, "dram"},
    {"levels[].refreshes", C, "", "timing: detailed with tREFI: refreshes", no, false, "dram"},
    {"levels[].tensors", L, "", "per-tensor traffic at this level (when tagged traffic exists)", no},
    {"levels[].tensors[].name", S, "", "tensor name", no},
    {"levels[].tensors[].accesses", C, "", "requests for this tensor", no},
    {"levels[].tensors[].misses", C, "", "of which missed", lo},
    {"levels[].tensors[].bytes", C, "B", "bytes moved for this tensor", no},
    {"levels[].regions", L, "", "per-region (pto.scope) traffic at this level", no},
    {"levels[].regions[].name", S, "", "region name", no},
    {"levels[].regions[].depth", C, "", "nesting depth of the region in the tree (0 = outermost); names are paths a/b/c", no},
    {"levels[].regions[].inclusive_accesses", C, "", "requests in this region and the regions nested in it", no},
    {"levels[].regions[].inclusive_misses", C, "", "of which missed", lo},
    {"levels[].regions[].inclusive_bytes", C, "B", "bytes moved in this region and the regions nested in it", no},
    {"levels[].regions[].accesses", C, "", "requests in this region", no},
    {"levels[].regions[].misses", C, "", "of which missed", lo},
    {"levels[].regions[].bytes", C, "B", "bytes moved in this region", no},
    {"levels[].channels", L, "", "timing: detailed: per channel", no, false, "dram"},
    {"levels[].channels[].name", S, "", "ch0, ch1, ...", no},
    {"levels[].channels[].row_hits", C, "", "row hits in this channel", hi},
    {"levels[].channels[].row_misses", C, "", "row misses in this channel", lo},
    {"levels[].channels[].row_conflicts", C, "", "row conflicts in this channel", lo},
    {"levels[].channels[].utilization", R, "fraction", "data bus busy / run time", no},
    {"levels[].channels[].bytes", C, "B", "bytes moved in this channel", no},
    {"levels[].per_core", L, "", "several cores, a private level: each core's instance, named core0, core1, ...", no, false, "cache"},
    {"levels[].per_core[].name", S, "", "core name", no},
    {"levels[].per_core[].accesses", C, "", "requests this core's instance received", no},
    {"levels[].per_core[].misses", C, "", "of which missed", lo},
    {"levels[].per_core[].miss_rate", R, "fraction", "misses / accesses", lo},
    {"levels[].per_core[].coherence_misses", C, "", "misses to lines another core's write invalidated here", lo},
    {"levels[].per_core[].coherence_invalidations", C, "", "lines another core's write removed here", lo},
    {"levels[].per_core[].bytes_read", C, "B", "bytes read from this core's instance", no},
    {"levels[].per_core[].bytes_written", C, "B", "bytes written to this core's instance", no},
    {"coherence", O, "", "several cores with private levels: the MESI directory below them (docs/CACHES.md, \"Several cores\")", no},
    {"coherence.protocol", S, "", "mesi", no},
    {"coherence.private_levels", C, "", "cache levels with one instance per core (L1 .. Lk)", no},
    {"coherence.latency_cycles", C, "cycles", "a round trip to other cores (coherence.latency)", no},
    {"coherence.invalidations_sent", C, "", "other cores' copies the cores' writes invalidated", lo},
    {"coherence.invalidations_received", C, "", "copies invalidated by another core's write (= invalidations_sent in sum)", lo},
    {"coherence.interventions", C, "", "reads that found another core's exclusive (E or M) copy", lo},
    {"coherence.upgrades", C, "", "writes to a line the core held shared (S -> M)", lo},
    {"coherence.snoop_writebacks", C, "", "dirty copies written to the shared level because another core asked for the line", lo},
    {"coherence.directory_requests", C, "", "fills, writes and upgrades that reached the directory", no},
    {"coherence.bytes_below", C, "B", "bytes the private levels moved to and from the shared level (fills, writebacks, snoop writebacks)", no},
    {"coherence.bandwidth_bytes_per_s", R, "B/s", "bytes_below / seconds", no},
    {"coherence.stall_cycles", C, "cycles", "time requests waited for the directory: its port, round trips, a line's previous transfer", lo},
    {"coherence.directory_utilization", R, "fraction", "time the directory's port was busy with coherence messages / run time", no},
    {"coherence.per_core", L, "", "the counters above per core, named core0, core1, ...", no},
    {"coherence.per_core[].name", S, "", "core name", no},
    {"coherence.per_core[].*", C, "", "that core's value of the coherence.* counter of the same name (invalidations_received: its copies)", no},
    {"coherence.per_core[].bandwidth_bytes_per_s", R, "B/s", "that core's bytes_below / seconds", no},
    {"coherence.false_sharing", L, "", "up to 10 lines with the most false-sharing invalidations, named by address", lo},
    {"coherence.false_sharing[].name", S, "", "the line's address, hex", no},
    {"coherence.false_sharing[].false_sharing_invalidations", C, "", "invalidations where the writer and the invalidated core had touched disjoint bytes of the line", lo},
    {"coherence.false_sharing[].true_sharing_invalidations", C, "", "invalidations of the line where their bytes overlapped", no},
    {"coherence.false_sharing[].tensors", S, "", "tensors of the accesses involved (up to 4)", no},
    {"coherence.false_sharing[].program_lines", S, "", "program lines (file:line) of the accesses involved (up to 4)", no},
    {"trace", O, "", "trace runs: what the reader saw", no},
    {"trace.records", C, "", "records read", no},
    {"trace.reads", C, "", "read records", no},
    {"trace.writes", C, "", "write records", no},
    {"trace.fetches", C, "", "instruction-fetch records", no},
    {"trace.misc", C, "", "din m records (simulated as reads)", no},
    {"trace.copybacks", C, "", "din c records: copy back dirty lines", no},
    {"trace.invalidates", C, "", "din v records: invalidate lines", no},
    {"trace.skipped_*", C, "", "records of another din type, counted and skipped", no},
    {"program", O, "", "program runs: checks, outputs, footprint, reuse", no},
    {"program.checks_passed", C, "", "pto.check calls that passed", hi},
    {"program.checks_failed", C, "", "pto.check calls that failed", lo},
    {"program.events", C, "", "events the program emitted", no},
    {"program.checks", L, "", "one row per pto.check, named file:line", no},
    {"program.checks[].name", S, "", "file:line of the check", no},
    {"program.checks[].passed", B, "", "whether it passed", no},
    {"program.checks[].message", S, "", "on failure: first bad index, both values, max error", no},
    {"program.outputs", L, "", "one row per pto.output", no},
    {"program.outputs[].name", S, "", "tensor name", no},
    {"program.outputs[].dtype", S, "", "element type", no},
    {"program.outputs[].sum", R, "", "sum of the elements", no},
    {"program.outputs[].abs_sum", R, "", "sum of |element|", no},
    {"program.outputs[].fnv1a", S, "", "FNV-1a of the stored bytes, row-major", no},
    {"program.footprint", L, "", "one row per space", no},
    {"program.footprint[].name", S, "", "space name", no},
    {"program.footprint[].peak_bytes", C, "B", "peak bytes allocated in the space", no},
    {"program.footprint[].capacity", C, "B", "the space's capacity (0 = unbounded)", no},
    {"program.reuse", L, "", "pto.reuse: one row per tensor", no},
    {"program.reuse[].name", S, "", "tensor name", no},
    {"program.reuse[].scope", S, "", "space the tiles are kept in", no},
    {"program.reuse[].hits", C, "", "tiles served from the reuse space", hi},
    {"program.reuse[].fallbacks", C, "", "tiles loaded normally instead", lo},
    {"program.reuse[].fallback_bytes", C, "B", "bytes of those loads", lo},
    {"program.auto_reuse", L, "", "pto.auto_reuse: one row per block, named file:line", no},
    {"program.auto_reuse[].name", S, "", "file:line of the block", no},
    {"program.auto_reuse[].peak_bytes_with", C, "B", "peak footprint with buffer sharing", lo},
    {"program.auto_reuse[].peak_bytes_without", C, "B", "peak footprint without", no},
    {"program.auto_reuse[].distinct_bytes_with", C, "B", "distinct bytes with buffer sharing", no},
    {"program.auto_reuse[].distinct_bytes_without", C, "B", "distinct bytes without", no},
    {"program.leaks", L, "", "buffers in managed spaces still allocated at the end (not with --leaks=off), named file:line:col of the allocation", no},
    {"program.leaks[].name", S, "", "file:line:col of the allocating statement", no},
    {"program.leaks[].tensor", S, "", "tensor name", no},
    {"program.leaks[].space", S, "", "the space it is allocated in", no},
    {"program.leaks[].bytes", C, "B", "its size", lo},
    {"program.leaks[].scope", S, "", "the function it was allocated in, or `the top level`", no},
    // Where the misses come from (docs/ATTRIBUTION.md): --by-line, --epoch, --hot-spots, --heatmap-bins.
    {"by_line", L, "", "--by-line (and annotate): one row per source line that issued events", no},
    {"by_line[].name", S, "", "the line number, `(no line)` for events no statement issued", no},
    {"by_line[].line", C, "", "the line number (0: no line)", no},
    {"by_line[].source", S, "", "the line's text", no},
    {"by_line[].accesses", C, "", "line requests its statements issued", no},
    {"by_line[].flops", C, "flop", "compute work of its statements (ops and scalar arithmetic)", no},
    {"by_line[].cycles", R, "cycles", "core issue time spent on its events (stalls and compute included)", lo},
    {"by_line[].dram_bytes", C, "B", "bytes read from and written to DRAM while its events ran", lo},
    {"by_line[].levels", L, "", "per level: what the line's events caused there", no},
    {"by_line[].levels[].name", S, "", "level name", no},
    {"by_line[].levels[].accesses", C, "", "requests at this level", no},
    {"by_line[].levels[].misses", C, "", "of which missed", lo},
    {"by_line[].levels[].bytes", C, "B", "bytes moved at this level", no},
    {"epoch_cycles", R, "cycles", "--epoch: the length of an epoch", no},
    {"epoch_accesses", C, "", "--epoch-accesses: core accesses per epoch", no},
    {"epochs", L, "", "--epoch / --epoch-accesses: one row per epoch, in time order", no},
    {"epochs[].name", S, "", "the epoch's index", no},
    {"epochs[].start_cycles", R, "cycles", "where the epoch begins", no},
    {"epochs[].end_cycles", R, "cycles", "where it ends", no},
    {"epochs[].accesses", C, "", "core events issued in it", no},
    {"epochs[].flops", C, "flop", "compute work issued in it", no},
    {"epochs[].region", S, "", "the region that issued the most events in it (\"\" when none)", no},
    {"epochs[].dram_row_hits", C, "", "detailed DRAM: row-buffer hits in it", no},
    {"epochs[].dram_row_hit_rate", R, "", "detailed DRAM: row-buffer hits / requests in it", hi},
    {"epochs[].levels", L, "", "per level: its counts in the epoch", no},
    {"epochs[].levels[].name", S, "", "level name", no},
    {"epochs[].levels[].accesses", C, "", "requests", no},
    {"epochs[].levels[].misses", C, "", "of which missed", lo},
    {"epochs[].levels[].miss_rate", R, "", "misses / accesses", lo},
    {"epochs[].levels[].bytes", C, "B", "bytes moved", no},
    {"epochs[].levels[].bandwidth_bytes_per_s", R, "B/s", "bytes / the epoch's simulated time", no},
    {"epochs[].levels[].tensors", L, "", "per tensor (tagged traffic only): the heatmap's data", no},
    {"epochs[].levels[].tensors[].name", S, "", "tensor name", no},
    {"epochs[].levels[].tensors[].accesses", C, "", "requests for it", no},
    {"epochs[].levels[].tensors[].misses", C, "", "of which missed", lo},
    {"epochs[].levels[].tensors[].bytes", C, "B", "bytes moved for it", no},
    {"epochs[].levels[].tensors[].bins", L, "", "--heatmap-bins: its bins with traffic, by address (bin k covers bytes [k, k+1) x bin_bytes of the tensor)", no},
    {"epochs[].levels[].tensors[].bins[].name", S, "", "the bin's index", no},
    {"epochs[].levels[].tensors[].bins[].bin", C, "", "the bin's index (0 = the tensor's first bytes)", no},
    {"epochs[].levels[].tensors[].bins[].accesses", C, "", "requests whose first byte lies in the bin", no},
    {"epochs[].levels[].tensors[].bins[].misses", C, "", "of which missed", lo},
    {"epochs[].levels[].tensors[].bins[].bytes", C, "B", "bytes moved for them", no},
    {"epochs[].footprint", L, "", "per space: its peak allocation in the epoch", no},
    {"epochs[].footprint[].name", S, "", "space name", no},
    {"epochs[].footprint[].peak_bytes", C, "B", "the most bytes allocated in it during the epoch", no},
    {"heatmap_bins", C, "", "--heatmap-bins: the bins each tensor's address range is cut into", no},
    {"heatmap_tensors", L, "", "--heatmap-bins: the tensors binned", no},
    {"heatmap_tensors[].name", S, "", "tensor name", no},
    {"heatmap_tensors[].bytes", C, "B", "the size of its address range (its first allocation)", no},
    {"heatmap_tensors[].bin_bytes", R, "B", "bytes / heatmap_bins: one bin's share of the range", no},
    {"hot_spots", L, "", "--hot-spots N: one row per level with tagged traffic", no},
    {"hot_spots[].name", S, "", "level name", no},
    {"hot_spots[].by_accesses", L, "", "the N tensor tiles with the most requests at the level", no},
    {"hot_spots[].by_accesses[].name", S, "", "the tile, e.g. A[0:32, 32:64]", no},
    {"hot_spots[].by_accesses[].tensor", S, "", "its tensor", no},
    {"hot_spots[].by_accesses[].tile", S, "", "the tile shape, e.g. 32x32", no},
    {"hot_spots[].by_accesses[].accesses", C, "", "requests for the tile", no},
    {"hot_spots[].by_accesses[].misses", C, "", "of which missed", lo},
    {"hot_spots[].by_accesses[].bytes", C, "B", "bytes moved for it", no},
    {"hot_spots[].by_misses", L, "", "the N tiles with the most misses at the level (keys as by_accesses)", no},
    {"hot_spots[].by_misses[].name", S, "", "the tile", no},
    {"hot_spots[].by_misses[].tensor", S, "", "its tensor", no},
    {"hot_spots[].by_misses[].tile", S, "", "the tile shape", no},
    {"hot_spots[].by_misses[].accesses", C, "", "requests for the tile", no},
    {"hot_spots[].by_misses[].misses", C, "", "of which missed", lo},
    {"hot_spots[].by_misses[].bytes", C, "B", "bytes moved for it", no},
    {"data_check", O, "", "run --check-data only: what was compared (docs/CACHES.md, \"Data-integrity mode\")", no},
    {"data_check.reads_checked", C, "", "loads whose bytes were compared with the shadow memory", no},
    {"data_check.tensors_compared", C, "", "live tensors compared with the executor's values after the flush", no},
    {"config_resolved", O, "", "the fully resolved config, as `pto-sim config show` prints it (quantities as strings with units)", no, true},
};

bool matches(const std::string& entry, const std::string& pattern) {
  // '*' in an entry stands for one name (no '.' or '[').
  size_t e = 0, p = 0;
  while (e < entry.size()) {
    if (entry[e] == '*') {
      ++e;
      const size_t stop = pattern.find_first_of(".[", p);
      const size_t end = stop == std::string::npos ? pattern.size() : stop;
      if (end == p) return false;
      p = end;
      continue;
    }
    if (p >= pattern.size() || entry[e] != pattern[p]) return false;
    ++e, ++p;
  }
  return p == pattern.size();
}

std::string md_escape(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '|' ? std::string("\\|") : std::string(1, c);
  return o;
}

}  // namespace

const std::vector<ReportKey>& report_keys() { return kKeys; }

const ReportKey* find_report_key(const std::string& pattern) {
  for (const ReportKey& k : kKeys)
    if (k.path == pattern) return &k;
  for (const ReportKey& k : kKeys)
    if (matches(k.path, pattern)) return &k;
  // Everything inside an identity object ("config_overrides.caches.L1.size") is identity too.
  for (size_t dot = pattern.rfind('.'); dot != std::string::npos && dot > 0; dot = pattern.rfind('.', dot - 1)) {
    const ReportKey* parent = find_report_key(pattern.substr(0, dot));
    if (parent && parent->identity) return parent;
  }
  return nullptr;
}

const char* type_name(KeyType t) {
  switch (t) {
    case KeyType::Count: return "integer";
    case KeyType::Real: return "real";
    case KeyType::Bool: return "boolean";
    case KeyType::String: return "string";
    case KeyType::Object: return "object";
    case KeyType::List: return "array";
  }
  return "";
}

bool key_applies_to(const ReportKey& key, const std::string& kind) {
  const std::string kinds = std::string(" ") + key.kinds + " ";
  return kinds == "  " || kinds.find(" " + kind + " ") != std::string::npos;
}

std::string report_keys_markdown() {
  std::string o = "| key | type | unit | better | meaning |\n|---|---|---|---|---|\n";
  // A kind-specific level key says so before its meaning.
  for (const ReportKey& k : kKeys) {
    const char* better = k.identity ? "identity" : k.better == Better::Lower ? "lower" : k.better == Better::Higher ? "higher" : "";
    o += std::string("| `") + k.path + "` | " + type_name(k.type) + " | " + md_escape(k.unit) + " | " + better + " | " +
         (*k.kinds ? std::string("(") + k.kinds + ") " : std::string()) + md_escape(k.meaning) + " |\n";
  }
  return o;
}

std::string report_keys_json() {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const ReportKey& k : kKeys)
    a.push_back({{"path", k.path},
                 {"type", type_name(k.type)},
                 {"unit", k.unit},
                 {"better", k.better == Better::Lower ? "lower" : k.better == Better::Higher ? "higher" : ""},
                 {"identity", k.identity},
                 {"kinds", k.kinds},
                 {"meaning", k.meaning}});
  return a.dump(1) + "\n";
}

}  // namespace ptosim
