// The entries below are the schema (see report_keys.h). Keep them in report
// order; docs/REPORTS.md is generated from this file.
#include "sim/report/report_keys.h"

#include <mutex>
#include <nlohmann/json.hpp>
#include <unordered_map>

namespace ptosim {
namespace {

// Short names for the rows below (words, so that a row reads without a legend).
constexpr KeyType count = KeyType::Count, real = KeyType::Real, flag = KeyType::Bool, text = KeyType::String,
                  object = KeyType::Object, list = KeyType::List;
constexpr Better lower = Better::Lower, higher = Better::Higher, neither = Better::None;

const std::vector<ReportKey> kKeys = {
    // Run identity (schema_version 2): what produced the report.
    {"schema_version", count, "", "report schema version (2)", neither, true},
    {"pto_sim_version", text, "", "version of pto-sim that wrote the report", neither, true},
    {"command_line", text, "", "the command line, shell-quoted", neither, true},
    {"started_at", text, "UTC", "start time, ISO 8601", neither, true},
    {"wall_seconds", real, "s", "wall-clock time of the process until the report (not a result)", neither, true},
    {"source", text, "", "program or trace path as given", neither, true},
    {"source_hash", text, "", "ptowh64 (pto-sim's word hash) of the program's or trace's bytes (\"\" for stdin or a FIFO)", neither, true},
    {"config", text, "", "config `name:`", neither, true},
    {"config_file", text, "", "config path, `<default>` for the built-in one", neither, true},
    {"config_hash", text, "", "fnv1a64 of the fully resolved config (`config_resolved` as `config show` prints it)", neither, true},
    {"parameters", object, "", "every `param`'s final value, defaults included (program runs; {} for traces)", neither, true},
    {"parameters.*", text, "", "one parameter: integer, real, boolean or string as the program bound it", neither, true},
    {"config_overrides", object, "", "the `--set` overrides, dotted path to value as given", neither, true},
    {"config_overrides.*", text, "", "one override's value", neither, true},
    // Run results.
    {"clock_hz", real, "Hz", "core clock", neither},
    {"cycles", count, "cycles", "core cycles until the last access completed", lower},
    {"seconds", real, "s", "simulated time: cycles / clock_hz", lower},
    {"interrupted", flag, "", "present (true) only when the run stopped early, by SIGINT/SIGTERM or at `--stop-after` / `--stop-after-compute`: the figures cover events_done", neither},
    {"events_done", count, "", "interrupted runs: the events simulated before the stop", neither},
    {"values_off", flag, "", "present (true) only with `run --no-values`, or `run --sample` without --sample-values: tensor values were not computed (pto.check compared nothing); the counts are a full run's unless the program's loops or addresses depend on values", neither},
    {"prefix_warmed", flag, "", "present (true) only with `run --warm-before-compute`: the accesses before the first compute event only warmed the caches (no time, not counted): the figures cover the run from the first compute on (tune's probes)", neither},
    {"probe_periods", count, "", "present only with `run --probe-period`: the program's periods the probe covered (a period ends where a statement that computed before computes again after another one: one iteration of every phase of a blocked loop); 0 for one compute statement (tune's probes)", neither},
    {"probe_first_period_from", count, "", "`run --probe-period`: the accesses done (as epochs count them) where the first period began (the first compute of the statement that came back)", neither},
    {"probe_first_period_to", count, "", "`run --probe-period`: the accesses done where the first period ended", neither},
    {"probe_last_period_from", count, "", "`run --probe-period`: the accesses done where the last period the probe covered began (the first one's start when only one)", neither},
    {"probe_last_period_to", count, "", "`run --probe-period`: the accesses done where the last period the probe covered ended", neither},
    {"sampled", flag, "", "present (true) only with `run --sample`: cycles, seconds, dram_bytes, arithmetic_intensity and each cache level's demand_misses are estimates of the whole run (their intervals in sample.intervals); the other counts cover the accesses simulated in detail (docs/SAMPLING.md)", neither},
    {"sample", object, "", "run --sample: the sampling parameters and the estimates' intervals (docs/SAMPLING.md)", neither},
    {"sample.method", text, "", "SMARTS, one unit at a random place in each period (stratified, not systematic: docs/SAMPLING.md); \"; first touches counted\" under functional warming", neither},
    {"sample.warming", text, "", "between units: functional (the caches' tags follow every access) or none (accesses dropped)", neither},
    {"sample.unit_accesses", count, "", "U: accesses per measured unit (--sample-unit)", neither},
    {"sample.period_accesses", count, "", "k x U: one unit starts every this many accesses (--sample-every x --sample-unit)", neither},
    {"sample.warmup_accesses", count, "", "W: accesses simulated in detail, unmeasured, before each unit (--sample-warmup)", neither},
    {"sample.seed", count, "", "--sample-seed: picks each unit's place in its period", neither},
    {"sample.confidence", real, "fraction", "the intervals' confidence level (0.95)", neither},
    {"sample.units", count, "", "n: complete units measured", neither},
    {"sample.stream_accesses", count, "", "accesses in the whole stream (control records aside): the estimates are per-unit means x stream_accesses / U", neither},
    {"sample.intervals", list, "", "one row per estimated metric: cycles, seconds, <level>.demand_misses per cache level, dram_bytes", neither},
    {"sample.intervals[].name", text, "", "the metric (named as compare names it: cycles, L1.demand_misses, dram_bytes)", neither},
    {"sample.intervals[].estimate", real, "", "the whole run's estimate: the ratio estimate over units (per-unit sum / accesses x stream_accesses); under functional warming plus each level's first touches, counted over the whole stream, less what the units carried of them (docs/SAMPLING.md)", neither},
    {"sample.intervals[].low", real, "", "estimate - half_width", neither},
    {"sample.intervals[].high", real, "", "estimate + half_width", neither},
    {"sample.intervals[].half_width", real, "", "t(n-1, 0.975) x s / sqrt(n) x N x sqrt(1 - n/N), N = stream_accesses / U (Boost.Math's Student's t; the finite-population correction), s that of what is sampled (the first touches counted aside), or the occurrence bound where wider", lower},
    {"sample.intervals[].relative_half_width", real, "fraction", "half_width / |estimate| (0 when the estimate is 0)", lower},
    {"flops", count, "flop", "compute work of the run (= core.flops)", neither},
    {"gflops_per_s", real, "GFLOP/s", "flops / seconds / 1e9", higher},
    {"dram_bytes", count, "B", "the DRAM level's bytes_read + bytes_written", lower},
    {"arithmetic_intensity", real, "flop/B", "flops / dram_bytes; 0 when dram_bytes is 0", higher},
    {"peak_flops_per_s", real, "FLOP/s", "core.flops_per_cycle x clock x core.cores", neither},
    {"peak_dram_bandwidth_bytes_per_s", real, "B/s", "the DRAM level's peak bandwidth", neither},
    {"dram_bytes_per_access_byte", real, "B/B", "dram_bytes / core.access_bytes: DRAM traffic per byte the program's loads and stores consumed (the article's bandwidth figures, compared across variants whatever the width of their requests); 0 without accesses", lower},
    {"access_bandwidth_fraction", real, "fraction", "core.access_bytes / seconds / peak_dram_bandwidth_bytes_per_s: how fast the program consumed data against what DRAM alone supplies (the article's \"bandwidth utilisation\", per byte consumed; above 1 when caches feed it faster)", higher},
    {"dirty_bytes_at_end", count, "B", "bytes of the dirty lines left in the caches at the end, each address once: what a flush would still write back to memory (0 after --flush; dram_bytes does not include them)", neither},
    {"core", object, "", "the core's counters", neither},
    {"core.accesses", count, "", "loads and stores issued", neither},
    {"core.reads", count, "", "loads issued", neither},
    {"core.writes", count, "", "stores issued", neither},
    {"core.line_requests", count, "", "line-sized requests the accesses became", neither},
    {"core.access_bytes", count, "B", "bytes the loads and stores asked for: what the program consumed and produced", neither},
    {"core.flops", count, "flop", "compute work", neither},
    {"core.masked_flops", count, "flop", "flops of vector lanes issued but masked off (a register block or vector narrower than the unit): they take issue and unit time, and are not in flops", lower},
    {"core.compute_cycles", count, "cycles", "issue time spent on compute", neither},
    {"core.window_stalls", count, "", "times the miss window (max_outstanding) was full", lower},
    {"core.stall_cycles", count, "cycles",
     "time accesses waited for a miss-window slot, summed over accesses (under the cpu model they wait at once: "
     "it can exceed cycles; docs/REPORTS.md)",
     lower},
    {"core.barrier_wait_cycles", count, "cycles", "cycles the cores waited at pto.parallel barriers", lower},
    {"core.cores", count, "", "config core.cores", neither},
    {"core.model", text, "", "core.model of the config, with the cpu pipeline model only", neither},
    {"core.instructions", count, "", "cpu model: micro-ops issued", neither},
    {"core.forwarded_loads", count, "", "cpu model: loads served by store-to-load forwarding", neither},
    {"core.rob_stall_cycles", real, "cycles", "cpu model: cycles stalled on a full reorder buffer", lower},
    {"core.lq_stall_cycles", real, "cycles", "cpu model: cycles stalled on a full load queue", lower},
    {"core.sq_stall_cycles", real, "cycles", "cpu model: cycles stalled on a full store queue", lower},
    {"core.store_refetches", count, "",
     "cpu model, store_request: rfo: stores whose line had left the first cache level when the store queue "
     "drained them, so they requested it again",
     lower},
    {"core.fill_stores", count, "",
     "cpu model, store_fill_cycles: stores to another line than the store before, one that arrived by a miss "
     "within store_fill_window cycles, so they drained at store_fill_cycles",
     lower},
    {"core.operand_wait_cycles", real, "cycles", "cpu model: cycles waiting for operands", lower},
    {"core.pipes", list, "", "npu model: the AI core's engines (mte2, mte1_l0a, mte1_l0b, cube, fixpipe, vector, mte3)", neither},
    {"core.pipes[].name", text, "", "engine name", neither},
    {"core.pipes[].busy_cycles", real, "cycles", "npu model: cycles the engine worked (setup and streaming, or compute)", neither},
    {"core.pipes[].transfers", count, "", "npu model: pieces of work the engine did (transfers, or computes)", neither},
    {"core.barriers", count, "", "barriers seen (2 per parallel loop)", neither},
    {"core.per_core", list, "", "with cores > 1: the counters above per core, named core0, core1, ...", neither},
    {"core.per_core[].name", text, "", "core name", neither},
    {"core.per_core[].*", count, "", "that core's value of the core.* counter of the same name", neither},
    {"roofline", object, "", "see docs/TIMING.md, \"Roofline\"", neither},
    {"roofline.bound_flops_per_s", real, "FLOP/s", "min(peak flops, AI x peak DRAM bandwidth)", neither},
    {"roofline.bound", text, "", "`compute` or `memory`: the lower roof (a tie is compute)", neither},
    {"roofline.achieved_fraction", real, "fraction", "(flops / seconds) / bound; 0 when flops is 0", higher},
    {"levels", list, "", "hierarchy order: memories, caches L1..Ln, DRAM", neither},
    {"levels[].name", text, "", "module name from the config", neither},
    {"levels[].kind", text, "", "cache | dram | register | scratchpad | constant", neither},
    {"levels[].reads", count, "", "read requests received (one per line touched)", neither},
    {"levels[].writes", count, "", "write requests received", neither},
    {"levels[].read_hits", count, "", "reads that hit", higher},
    {"levels[].write_hits", count, "", "writes that hit", higher},
    {"levels[].read_misses", count, "", "reads that missed", lower},
    {"levels[].write_misses", count, "", "writes that missed", lower},
    {"levels[].miss_rate", real, "fraction", "(read_misses + write_misses) / (reads + writes)", lower},
    {"levels[].writeback_requests", count, "", "of the requests: writebacks and copybacks of the level above", neither, false, "cache"},
    {"levels[].demand_requests", count, "", "requests less writeback_requests", neither, false, "cache"},
    {"levels[].demand_misses", count, "", "misses less those of the writebacks", lower, false, "cache"},
    {"levels[].demand_miss_ratio", real, "fraction", "demand_misses / demand_requests", lower, false, "cache"},
    {"levels[].evictions", count, "", "valid lines replaced", lower},
    {"levels[].writebacks", count, "", "dirty lines written to the level below", lower},
    {"levels[].bytes_read", count, "B", "bytes read from this level", neither},
    {"levels[].bytes_written", count, "B", "bytes written to this level", neither},
    {"levels[].compulsory_misses", count, "", "misses to never-seen lines (3C)", lower},
    {"levels[].capacity_misses", count, "", "misses a fully associative LRU cache of the same size also has (3C)", lower},
    {"levels[].conflict_misses", count, "", "the remaining misses (3C)", lower},
    {"levels[].block_misses", count, "", "only at levels with sub-blocks: misses whose line was absent (the misses above count sub-block misses; Dinero IV's demand block misses)", lower, false, "cache"},
    {"levels[].compulsory_block_misses", count, "", "only at levels with sub-blocks: block misses to never-seen lines (3C)", lower, false, "cache"},
    {"levels[].capacity_block_misses", count, "", "only at levels with sub-blocks: block misses a fully associative cache also has (3C)", lower, false, "cache"},
    {"levels[].conflict_block_misses", count, "", "only at levels with sub-blocks: the remaining block misses (3C)", lower, false, "cache"},
    {"levels[].back_invalidations", count, "", "lines invalidated by an inclusive level below (only when non-zero)", lower, false, "cache"},
    {"levels[].coherence_misses", count, "", "several cores, a private level (summed over the cores): misses to lines another core's write invalidated here (the fourth C; not in the other three)", lower, false, "cache"},
    {"levels[].coherence_invalidations", count, "", "several cores, a private level: lines removed here by another core's write", lower, false, "cache"},
    {"levels[].bandwidth_bytes_per_s", real, "B/s", "(bytes_read + bytes_written) / seconds", neither},
    {"levels[].peak_bandwidth_bytes_per_s", real, "B/s", "port bandwidth x clock (x slices on a sliced level; from the timings for a detailed DRAM)", neither},
    {"levels[].utilization", real, "fraction", "time its port or data buses were busy / run time", neither},
    {"levels[].avg_latency_cycles", real, "cycles", "arrival to data, per request", lower},
    {"levels[].hit_latency_cycles", count, "cycles", "the level's hit latency (config)", neither, false, "cache"},
    {"levels[].misses_per_1k_accesses", real, "1/1000 accesses", "demand_misses x 1000 / core.accesses (MPKI-style)", lower, false, "cache"},
    {"levels[].misses_per_kflop", real, "1/kflop", "demand_misses x 1000 / flops; absent when the run has no flops", lower, false, "cache"},
    {"levels[].amat_cycles", real, "cycles", "average memory access time: hit_latency_cycles + demand_miss_ratio x AMAT below (a formula over the counts)", lower, false, "cache"},
    {"levels[].miss_bytes_per_access_byte", real, "B/B", "demand_miss_bytes / core.access_bytes: traffic this level asked of the one below per byte the program consumed; absent without accesses", lower, false, "cache"},
    {"levels[].byte_hit_rate", real, "fraction", "1 - miss_bytes_per_access_byte, at least 0: the article's \"cache hit rate\" per byte consumed, so fewer, wider requests are not penalised; absent without accesses", higher, false, "cache"},
    {"levels[].mshr_merges", count, "", "misses merged into one already in flight", neither, false, "cache"},
    {"levels[].mshr_stalls", count, "", "requests that waited for a free MSHR", lower, false, "cache"},
    {"levels[].demand_miss_bytes", count, "B", "demand_misses x the fetch unit (the line, or the sub-block where lines have them)", lower, false, "cache"},
    {"levels[].dirty_lines_at_end", count, "", "dirty lines held at the end (summed over a private level's cores; 0 after --flush)", neither, false, "cache"},
    {"levels[].slices", count, "", "only at sliced levels (slices > 1): the slices, each a port of the level's bandwidth (utilization: of one slice, on average)", neither, false, "cache"},
    {"levels[].set_fill_stalls", count, "", "only at levels with set_fill_cycles: fills that arrived later for their set's previous fill", lower, false, "cache"},
    {"levels[].prefetch_requests", count, "", "only at levels with a prefetcher: lines proposed and looked up (Dinero IV's prefetch fetches)", neither, false, "cache"},
    {"levels[].prefetches_issued", count, "", "proposed lines that missed, so fetched from below (Dinero IV's prefetch misses)", neither, false, "cache"},
    {"levels[].prefetch_useful", count, "", "prefetched lines hit by a demand request before leaving", higher, false, "cache"},
    {"levels[].prefetch_late", count, "", "of the useful: the demand came while the fill was on its way", lower, false, "cache"},
    {"levels[].prefetch_useless", count, "", "prefetched lines evicted or back-invalidated unused", lower, false, "cache"},
    {"levels[].prefetch_bytes", count, "B", "bytes fetched from below for prefetches", neither, false, "cache"},
    {"levels[].conflict_cycles", count, "cycles", "cycles lost to bank conflicts", lower, false, "register scratchpad constant"},
    {"levels[].bank_conflicts", count, "", "accesses that met a bank conflict", lower, false, "register scratchpad constant"},
    {"levels[].fills", count, "", "read-only memory: fills written into it", neither, false, "scratchpad constant"},
    {"levels[].fill_bytes", count, "B", "read-only memory: bytes filled", neither, false, "scratchpad constant"},
    {"levels[].broadcasts", count, "", "reads served as one broadcast", neither, false, "constant"},
    {"levels[].cache_hits", count, "", "hits of its backing cache", higher, false, "constant"},
    {"levels[].cache_misses", count, "", "misses of its backing cache", lower, false, "constant"},
    {"levels[].backing_reads", count, "", "with backing: reads sent to the backing module", neither, false, "constant"},
    {"levels[].backing_bytes", count, "B", "with backing: bytes read from the backing module", neither, false, "constant"},
    {"levels[].row_hits", count, "", "accesses to the open row (0 with timing: simple)", higher, false, "dram"},
    {"levels[].row_misses", count, "", "accesses to a closed bank", lower, false, "dram"},
    {"levels[].row_conflicts", count, "", "accesses that closed another row", lower, false, "dram"},
    {"levels[].bursts", count, "", "timing: detailed: data bursts", neither, false, "dram"},
    {"levels[].refreshes", count, "", "timing: detailed with tREFI: refreshes", neither, false, "dram"},
    {"levels[].tensors", list, "", "per-tensor traffic at this level (when tagged traffic exists)", neither},
    {"levels[].tensors[].name", text, "", "tensor name", neither},
    {"levels[].tensors[].accesses", count, "", "requests for this tensor", neither},
    {"levels[].tensors[].misses", count, "", "of which missed", lower},
    {"levels[].tensors[].bytes", count, "B", "bytes moved for this tensor", neither},
    {"levels[].regions", list, "", "per-region (pto.scope) traffic at this level", neither},
    {"levels[].regions[].name", text, "", "region name", neither},
    {"levels[].regions[].depth", count, "", "nesting depth of the region in the tree (0 = outermost); names are paths a/b/c", neither},
    {"levels[].regions[].inclusive_accesses", count, "", "requests in this region and the regions nested in it", neither},
    {"levels[].regions[].inclusive_misses", count, "", "of which missed", lower},
    {"levels[].regions[].inclusive_bytes", count, "B", "bytes moved in this region and the regions nested in it", neither},
    {"levels[].regions[].accesses", count, "", "requests in this region", neither},
    {"levels[].regions[].misses", count, "", "of which missed", lower},
    {"levels[].regions[].bytes", count, "B", "bytes moved in this region", neither},
    {"levels[].channels", list, "", "timing: detailed: per channel", neither, false, "dram"},
    {"levels[].channels[].name", text, "", "ch0, ch1, ...", neither},
    {"levels[].channels[].row_hits", count, "", "row hits in this channel", higher},
    {"levels[].channels[].row_misses", count, "", "row misses in this channel", lower},
    {"levels[].channels[].row_conflicts", count, "", "row conflicts in this channel", lower},
    {"levels[].channels[].utilization", real, "fraction", "data bus busy / run time", neither},
    {"levels[].channels[].bytes", count, "B", "bytes moved in this channel", neither},
    {"levels[].per_core", list, "", "several cores, a private level: each core's instance, named core0, core1, ...", neither, false, "cache"},
    {"levels[].per_core[].name", text, "", "core name", neither},
    {"levels[].per_core[].accesses", count, "", "requests this core's instance received", neither},
    {"levels[].per_core[].misses", count, "", "of which missed", lower},
    {"levels[].per_core[].miss_rate", real, "fraction", "misses / accesses", lower},
    {"levels[].per_core[].coherence_misses", count, "", "misses to lines another core's write invalidated here", lower},
    {"levels[].per_core[].coherence_invalidations", count, "", "lines another core's write removed here", lower},
    {"levels[].per_core[].bytes_read", count, "B", "bytes read from this core's instance", neither},
    {"levels[].per_core[].bytes_written", count, "B", "bytes written to this core's instance", neither},
    {"coherence", object, "", "several cores with private levels: the MESI directory below them (docs/CACHES.md, \"Several cores\")", neither},
    {"coherence.protocol", text, "", "mesi", neither},
    {"coherence.private_levels", count, "", "cache levels with one instance per core (L1 .. Lk)", neither},
    {"coherence.latency_cycles", count, "cycles", "a round trip to other cores (coherence.latency)", neither},
    {"coherence.invalidations_sent", count, "", "other cores' copies the cores' writes invalidated", lower},
    {"coherence.invalidations_received", count, "", "copies invalidated by another core's write (= invalidations_sent in sum)", lower},
    {"coherence.interventions", count, "", "reads that found another core's exclusive (E or M) copy", lower},
    {"coherence.upgrades", count, "", "writes to a line the core held shared (S -> M)", lower},
    {"coherence.snoop_writebacks", count, "", "dirty copies written to the shared level because another core asked for the line", lower},
    {"coherence.cache_to_cache_transfers", count, "", "fills served by another core's exclusive (E or M) private copy over the directory's port, not read from the shared level", neither},
    {"coherence.directory_requests", count, "", "fills, writes and upgrades that reached the directory", neither},
    {"coherence.bytes_below", count, "B", "bytes the private levels moved to and from the shared level (fills, writebacks, snoop writebacks)", neither},
    {"coherence.bandwidth_bytes_per_s", real, "B/s", "bytes_below / seconds", neither},
    {"coherence.stall_cycles", count, "cycles", "time requests waited for the directory: its port, round trips, a line's previous transfer", lower},
    {"coherence.directory_utilization", real, "fraction", "time the directory's port was busy with coherence messages and cache-to-cache lines / run time", neither},
    {"coherence.per_core", list, "", "the counters above per core, named core0, core1, ...", neither},
    {"coherence.per_core[].name", text, "", "core name", neither},
    {"coherence.per_core[].*", count, "", "that core's value of the coherence.* counter of the same name (invalidations_received: its copies)", neither},
    {"coherence.per_core[].bandwidth_bytes_per_s", real, "B/s", "that core's bytes_below / seconds", neither},
    {"coherence.false_sharing", list, "", "up to 10 lines with the most false-sharing invalidations, named by address", lower},
    {"coherence.false_sharing[].name", text, "", "the line's address, hex", neither},
    {"coherence.false_sharing[].false_sharing_invalidations", count, "", "invalidations where the writer and the invalidated core had touched disjoint bytes of the line", lower},
    {"coherence.false_sharing[].true_sharing_invalidations", count, "", "invalidations of the line where their bytes overlapped", neither},
    {"coherence.false_sharing[].tensors", text, "", "tensors of the accesses involved (up to 4)", neither},
    {"coherence.false_sharing[].program_lines", text, "", "program lines (file:line) of the accesses involved (up to 4)", neither},
    {"trace", object, "", "trace runs: what the reader saw", neither},
    {"trace.records", count, "", "records read", neither},
    {"trace.reads", count, "", "read records", neither},
    {"trace.writes", count, "", "write records", neither},
    {"trace.fetches", count, "", "instruction-fetch records", neither},
    {"trace.misc", count, "", "din m records (simulated as reads)", neither},
    {"trace.copybacks", count, "", "din c records: copy back dirty lines", neither},
    {"trace.invalidates", count, "", "din v records: invalidate lines", neither},
    {"trace.skipped_*", count, "", "records of another din type, counted and skipped", neither},
    {"program", object, "", "program runs: checks, outputs, footprint, reuse", neither},
    {"program.checks_passed", count, "", "pto.check calls that passed", higher},
    {"program.checks_failed", count, "", "pto.check calls that failed", lower},
    {"program.events", count, "", "events the program emitted", neither},
    {"program.checks", list, "", "one row per pto.check, named file:line", neither},
    {"program.checks[].name", text, "", "file:line of the check", neither},
    {"program.checks[].passed", flag, "", "whether it passed", neither},
    {"program.checks[].message", text, "", "on failure: first bad index, both values, max error", neither},
    {"program.outputs", list, "", "one row per pto.output", neither},
    {"program.outputs[].name", text, "", "tensor name", neither},
    {"program.outputs[].dtype", text, "", "element type", neither},
    {"program.outputs[].sum", real, "", "sum of the elements", neither},
    {"program.outputs[].abs_sum", real, "", "sum of |element|", neither},
    {"program.outputs[].fnv1a", text, "", "FNV-1a of the stored bytes, row-major", neither},
    {"program.footprint", list, "", "one row per space", neither},
    {"program.footprint[].name", text, "", "space name", neither},
    {"program.footprint[].peak_bytes", count, "B", "peak bytes allocated in the space", neither},
    {"program.footprint[].capacity", count, "B", "the space's capacity (0 = unbounded)", neither},
    {"program.reuse", list, "", "pto.reuse: one row per tensor", neither},
    {"program.reuse[].name", text, "", "tensor name", neither},
    {"program.reuse[].scope", text, "", "space the tiles are kept in", neither},
    {"program.reuse[].hits", count, "", "tiles served from the reuse space", higher},
    {"program.reuse[].fallbacks", count, "", "tiles loaded normally instead", lower},
    {"program.reuse[].fallback_bytes", count, "B", "bytes of those loads", lower},
    {"program.reuse[].why", text, "", "why the block served no tile (present only then; also a warning on stderr)", neither},
    {"program.auto_reuse", list, "", "pto.auto_reuse: one row per block, named file:line", neither},
    {"program.auto_reuse[].name", text, "", "file:line of the block", neither},
    {"program.auto_reuse[].peak_bytes_with", count, "B", "peak footprint with buffer sharing", lower},
    {"program.auto_reuse[].peak_bytes_without", count, "B", "peak footprint without", neither},
    {"program.auto_reuse[].distinct_bytes_with", count, "B", "distinct bytes with buffer sharing", neither},
    {"program.auto_reuse[].distinct_bytes_without", count, "B", "distinct bytes without", neither},
    {"program.leaks", list, "", "buffers in managed spaces still allocated at the end (not with --leaks=off), named file:line:col of the allocation", neither},
    {"program.leaks[].name", text, "", "file:line:col of the allocating statement", neither},
    {"program.leaks[].tensor", text, "", "tensor name", neither},
    {"program.leaks[].space", text, "", "the space it is allocated in", neither},
    {"program.leaks[].bytes", count, "B", "its size", lower},
    {"program.leaks[].scope", text, "", "the function it was allocated in, or `the top level`", neither},
    // Where the misses come from (docs/ATTRIBUTION.md): --by-line, --epoch, --hot-spots, --heatmap-bins.
    {"by_line", list, "", "--by-line (and annotate): one row per source line that issued events", neither},
    {"by_line[].name", text, "", "the line number, `(no line)` for events no statement issued", neither},
    {"by_line[].line", count, "", "the line number (0: no line)", neither},
    {"by_line[].source", text, "", "the line's text", neither},
    {"by_line[].accesses", count, "", "line requests its statements issued", neither},
    {"by_line[].flops", count, "flop", "compute work of its statements (ops and scalar arithmetic)", neither},
    {"by_line[].cycles", real, "cycles", "core issue time spent on its events (stalls and compute included)", lower},
    {"by_line[].dram_bytes", count, "B", "bytes read from and written to DRAM while its events ran", lower},
    {"by_line[].levels", list, "", "per level: what the line's events caused there", neither},
    {"by_line[].levels[].name", text, "", "level name", neither},
    {"by_line[].levels[].accesses", count, "", "requests at this level", neither},
    {"by_line[].levels[].misses", count, "", "of which missed", lower},
    {"by_line[].levels[].bytes", count, "B", "bytes moved at this level", neither},
    {"epoch_cycles", real, "cycles", "--epoch: the length of an epoch", neither},
    {"epoch_accesses", count, "", "--epoch-accesses: core accesses per epoch", neither},
    {"epochs", list, "", "--epoch / --epoch-accesses: one row per epoch, in time order", neither},
    {"epochs[].name", text, "", "the epoch's index", neither},
    {"epochs[].start_cycles", real, "cycles", "where the epoch begins", neither},
    {"epochs[].end_cycles", real, "cycles", "where it ends", neither},
    {"epochs[].accesses", count, "", "core events issued in it", neither},
    {"epochs[].flops", count, "flop", "compute work issued in it", neither},
    {"epochs[].region", text, "", "the region that issued the most events in it (\"\" when none)", neither},
    {"epochs[].dram_row_hits", count, "", "detailed DRAM: row-buffer hits in it", neither},
    {"epochs[].dram_row_hit_rate", real, "", "detailed DRAM: row-buffer hits / requests in it", higher},
    {"epochs[].levels", list, "", "per level: its counts in the epoch", neither},
    {"epochs[].levels[].name", text, "", "level name", neither},
    {"epochs[].levels[].accesses", count, "", "requests", neither},
    {"epochs[].levels[].misses", count, "", "of which missed", lower},
    {"epochs[].levels[].miss_rate", real, "", "misses / accesses", lower},
    {"epochs[].levels[].bytes", count, "B", "bytes moved", neither},
    {"epochs[].levels[].bandwidth_bytes_per_s", real, "B/s", "bytes / the epoch's simulated time", neither},
    {"epochs[].levels[].tensors", list, "", "per tensor (tagged traffic only): the heatmap's data", neither},
    {"epochs[].levels[].tensors[].name", text, "", "tensor name", neither},
    {"epochs[].levels[].tensors[].accesses", count, "", "requests for it", neither},
    {"epochs[].levels[].tensors[].misses", count, "", "of which missed", lower},
    {"epochs[].levels[].tensors[].bytes", count, "B", "bytes moved for it", neither},
    {"epochs[].levels[].tensors[].bins", list, "", "--heatmap-bins: its bins with traffic, by address (bin k covers bytes [k, k+1) x bin_bytes of the tensor)", neither},
    {"epochs[].levels[].tensors[].bins[].name", text, "", "the bin's index", neither},
    {"epochs[].levels[].tensors[].bins[].bin", count, "", "the bin's index (0 = the tensor's first bytes)", neither},
    {"epochs[].levels[].tensors[].bins[].accesses", count, "", "requests whose first byte lies in the bin", neither},
    {"epochs[].levels[].tensors[].bins[].misses", count, "", "of which missed", lower},
    {"epochs[].levels[].tensors[].bins[].bytes", count, "B", "bytes moved for them", neither},
    {"epochs[].footprint", list, "", "per space: its peak allocation in the epoch", neither},
    {"epochs[].footprint[].name", text, "", "space name", neither},
    {"epochs[].footprint[].peak_bytes", count, "B", "the most bytes allocated in it during the epoch", neither},
    {"heatmap_bins", count, "", "--heatmap-bins: the bins each tensor's address range is cut into", neither},
    {"heatmap_tensors", list, "", "--heatmap-bins: the tensors binned", neither},
    {"heatmap_tensors[].name", text, "", "tensor name", neither},
    {"heatmap_tensors[].bytes", count, "B", "the size of its address range (its first allocation)", neither},
    {"heatmap_tensors[].bin_bytes", real, "B", "bytes / heatmap_bins: one bin's share of the range", neither},
    {"hot_spots", list, "", "--hot-spots N: one row per level with tagged traffic", neither},
    {"hot_spots[].name", text, "", "level name", neither},
    {"hot_spots[].by_accesses", list, "", "the N tensor tiles with the most requests at the level", neither},
    {"hot_spots[].by_accesses[].name", text, "", "the tile, e.g. A[0:32, 32:64]", neither},
    {"hot_spots[].by_accesses[].tensor", text, "", "its tensor", neither},
    {"hot_spots[].by_accesses[].tile", text, "", "the tile shape, e.g. 32x32", neither},
    {"hot_spots[].by_accesses[].accesses", count, "", "requests for the tile", neither},
    {"hot_spots[].by_accesses[].misses", count, "", "of which missed", lower},
    {"hot_spots[].by_accesses[].bytes", count, "B", "bytes moved for it", neither},
    {"hot_spots[].by_misses", list, "", "the N tiles with the most misses at the level (keys as by_accesses)", neither},
    {"hot_spots[].by_misses[].name", text, "", "the tile", neither},
    {"hot_spots[].by_misses[].tensor", text, "", "its tensor", neither},
    {"hot_spots[].by_misses[].tile", text, "", "the tile shape", neither},
    {"hot_spots[].by_misses[].accesses", count, "", "requests for the tile", neither},
    {"hot_spots[].by_misses[].misses", count, "", "of which missed", lower},
    {"hot_spots[].by_misses[].bytes", count, "B", "bytes moved for it", neither},
    {"data_check", object, "", "run --check-data only: what was compared (docs/CACHES.md, \"Data-integrity mode\")", neither},
    {"data_check.reads_checked", count, "", "loads whose bytes were compared with the shadow memory", neither},
    {"data_check.tensors_compared", count, "", "live tensors compared with the executor's values after the flush", neither},
    {"config_resolved", object, "", "the fully resolved config, as `pto-sim config show` prints it (quantities as strings with units)", neither, true},
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

namespace {

const ReportKey* find_report_key_uncached(const std::string& pattern) {
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

}  // namespace

// Memoised: checking or flattening a report looks up every key of every
// epoch (patterns repeat: "epochs[].levels[].bytes"), and the list search
// was 83 % of `pto-sim tune`'s own CPU over its probes' reports.
const ReportKey* find_report_key(const std::string& pattern) {
  static std::mutex mutex;
  static std::unordered_map<std::string, const ReportKey*> cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(pattern); it != cache.end()) return it->second;
  }
  const ReportKey* k = find_report_key_uncached(pattern);
  std::lock_guard<std::mutex> lock(mutex);
  cache.emplace(pattern, k);
  return k;
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
