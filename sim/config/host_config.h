#pragma once
// `pto-sim config host`: a config of the machine pto-sim runs on, from
// sysfs (cache levels: size, ways, line, sharing) and /proc/cpuinfo (model,
// vendor, clock, vector width), with core timings of the vendor's current
// cores; measured latencies, clock and bandwidth replace the defaults when
// given (`--measure`, sim/host/host_probe.h).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ptosim {

struct HostCache {
  int level = 0;
  std::string type;  // Data | Unified
  uint64_t size = 0;
  uint32_t ways = 0, line = 0;
  std::string shared_cpus;
  // Where the level comes from CPUID (no sysfs list): the logical CPUs it
  // says share it (leaf 4 / 0x8000001D EAX[25:14] + 1); 0 = unknown.
  unsigned sharing_threads = 0;
};

struct HostFacts {
  std::string model, vendor;
  double mhz = 0;
  int family = 0, model_number = 0;  // /proc/cpuinfo "cpu family", "model"
  bool avx512 = false, avx2 = false;
  unsigned cpus = 1;
  // cpu0's SMT siblings (topology/thread_siblings_list; "" = unknown): a
  // level shared only by them is private to one core.
  std::string smt_siblings;
  std::vector<HostCache> caches;  // data and unified levels, L1 first
};

// The CPUs of a sysfs CPU list ("0-3,8,10-11" -> 7); 0 for "" or a malformed list.
unsigned cpu_list_count(const std::string& list);

// Reads /sys/devices/system/cpu/cpu0/cache and /proc/cpuinfo under `root`
// ("" = the real ones); throws InputError when there is no cache level.
HostFacts read_host_facts(const std::string& root = "");

struct HostMeasured {
  bool valid = false;
  double clock_hz = 0;
  double adds_per_cycle = 0;  // independent integer adds a cycle (0 = not measured)
  std::vector<double> level_ns;  // per cache level, then DRAM: dependent-load latency at a footprint in it
  // One core's read stream (sim/host/stream_probe.h): from DRAM (a
  // footprint far past the last level) and from the last level (a footprint
  // between it and the level above), bytes a second, 0 = not measured; the
  // load width and footprints, for the config's comments.
  double stream_bytes_per_s = 0, last_level_bytes_per_s = 0;
  uint64_t stream_footprint = 0, last_level_footprint = 0;
  unsigned stream_load_bytes = 0;
  double l2_miss_ns = 0;  // independent L1D misses that hit L2: ns apart (0 = not measured)
  // A column walk at an L1D way's stride (one set) and a line more (a new
  // set each row), ns a load; 0 = not measured.
  double one_set_ns = 0, spread_ns = 0;
  double one_set_store_ns = 0;  // the one-set walk storing: a fill and a dirty victim a row
  // The L1D replacement policy that explains a set-conflict probe's times
  // best (models/cache/replacement_fit.h), and a comment on the fit
  // (its residual and the runner-up's); empty = not measured.
  std::string l1_replacement, l1_replacement_fit;
  // Scalar float latencies in cycles (chains of each; 0 = not measured),
  // and the store-to-load forward of a chain through memory.
  double add = 0, mul = 0, fma = 0, div = 0, sqrt = 0, forward = -1;  // forward -1: not measured
  // The last level's chase latency (ns) at host_capacity_footprints (empty:
  // not measured): how much of it this core's data really gets.
  std::vector<std::pair<uint64_t, double>> capacity;
  // One core's wide-load stream at the same footprints, bytes a second
  // (empty: not measured).
  std::vector<std::pair<uint64_t, double>> capacity_stream;
  // exp and GELU as a vector math library runs them (sim/host/vector_math.h)
  // over data in L1: ns an element at the config's vector width (0 = not
  // measured).
  double exp_ns = 0, gelu_ns = 0;
};

// The vector width config host writes: AVX-512 64 B, AVX2 32, else 16.
unsigned host_vector_bytes(const HostFacts& f);
// Its architectural vector registers, the register file config host writes: 32 with AVX-512, else 16.
unsigned host_vector_registers(const HostFacts& f);

// The footprints `--measure` chases at: half of each cache level (past L2 at
// most twice the level above), then 8x the last level (DRAM).
std::vector<uint64_t> host_probe_footprints(const HostFacts& f);
// Where `--measure` streams from the last level: four times the level above,
// at most half the last (a VM's neighbours fill the rest), at least twice
// the level above; 0 (not measured) with fewer than three levels or no room
// between the last two.
uint64_t host_last_level_stream_footprint(const HostFacts& f);
// Where it streams from DRAM: 512 MiB, or four times a larger last level.
uint64_t host_dram_stream_footprint(const HostFacts& f);
// A ladder of footprints from twice the level above the last to the last
// level's nominal size (steps of 1.5x and 4/3x); empty with fewer than two
// levels or a last level no bigger than twice the one above.
std::vector<uint64_t> host_capacity_footprints(const HostFacts& f);
// The last level's effective capacity from the ladder: at each footprint F
// the share h of chase loads that hit (its latency between the ladder's
// first point, all hits, and DRAM's), h x F the bytes that stayed; the
// same from the stream's time a byte (between the ladder's first point and
// the DRAM stream's); the largest of those, to a whole MiB (0: not
// measured; the nominal size when within 10 % of it).
uint64_t effective_last_level_bytes(const HostFacts& f, const HostMeasured& m);
std::string host_config_yaml(const HostFacts& f, const HostMeasured& m);

}  // namespace ptosim
