#include "sim/config/host_config.h"

#include "sim/config/cpuid_caches.h"
#include "sim/config/host_vendor_cores.h"

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <fstream>
#include <sstream>

#include "sim/common/error.h"
#include "sim/common/units.h"
#include "sim/config/hw_config.h"

namespace ptosim {
namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

uint64_t parse_sysfs_size(const std::string& s) {  // "32K", "1024K", "32768K"
  if (s.empty()) return 0;
  uint64_t v = std::stoull(s);
  const char u = s.back();
  if (u == 'K') v <<= 10;
  if (u == 'M') v <<= 20;
  if (u == 'G') v <<= 30;
  return v;
}

// A transcendental's cost (flops an element at the float32 peak, the unit of
// sim/exec/op_table.h) is the time this core took to run its sequence: exp
// and GELU are timed; tanh, sigmoid and softmax follow exp by their base op.
void write_op_costs(std::ostream& o, const HostMeasured& m, unsigned vec) {
  if (!m.valid || m.exp_ns <= 0 || m.clock_hz <= 0) return;
  const double peak = 2.0 * (vec / 4) * 2;  // float32 flops a cycle, as flops_per_cycle below
  auto cost = [&](double ns) { return std::max(1.0, std::round(ns * 1e-9 * m.clock_hz * peak)); };
  o << "ops:   # flops an element at the float32 peak: the vector sequence timed on this core\n"
    << "  exp: " << units::format_number(cost(m.exp_ns)) << "   # measured, " << units::format_number(std::round(m.exp_ns * 1000) / 1000)
    << " ns an element (sim/host/vector_math.h); tanh, sigmoid, softmax follow it\n";
  if (m.gelu_ns > 0)
    o << "  gelu: " << units::format_number(cost(m.gelu_ns)) << "   # measured, "
      << units::format_number(std::round(m.gelu_ns * 1000) / 1000) << " ns an element\n";
}
// Where a stream figure comes from, for its comment: "one core's stream of
// 32-byte loads over 2 MiB, 85.3 GB/s, its fastest run".
std::string stream_note(unsigned load_bytes, uint64_t footprint, double bytes_per_s) {
  std::string s = "one core's stream";
  if (load_bytes) s += " of " + std::to_string(load_bytes) + "-byte loads";
  if (footprint) s += " over " + units::format_bytes(footprint);
  return s + ", " + units::format_number(std::round(bytes_per_s / 1e8) / 10) + " GB/s, its fastest run";
}
}  // namespace

unsigned cpu_list_count(const std::string& list) {
  unsigned n = 0;
  size_t at = 0;
  while (at < list.size()) {
    const size_t comma = std::min(list.find(',', at), list.size());
    const std::string part = list.substr(at, comma - at);
    unsigned lo = 0, hi = 0;
    char extra = 0;
    const int got = std::sscanf(part.c_str(), "%u-%u%c", &lo, &hi, &extra);
    if (got == 1) hi = lo;
    else if (got != 2 || hi < lo) return 0;
    n += hi - lo + 1;
    at = comma + 1;
  }
  return n;
}

HostFacts read_host_facts(const std::string& root) {
  HostFacts f;
  f.smt_siblings = read_line(root + "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list");
  const std::string base = root + "/sys/devices/system/cpu/cpu0/cache/";
  for (int i = 0; i < 16; ++i) {
    const std::string d = base + "index" + std::to_string(i) + "/";
    const std::string level = read_line(d + "level");
    if (level.empty()) continue;
    HostCache c;
    c.level = std::atoi(level.c_str());
    c.type = read_line(d + "type");
    if (c.type == "Instruction") continue;
    c.size = parse_sysfs_size(read_line(d + "size"));
    c.ways = uint32_t(std::atoi(read_line(d + "ways_of_associativity").c_str()));
    c.line = uint32_t(std::atoi(read_line(d + "coherency_line_size").c_str()));
    c.shared_cpus = read_line(d + "shared_cpu_list");
    if (!c.size || !c.line) continue;
    if (!c.ways || c.size % (uint64_t(c.ways) * c.line)) c.ways = uint32_t(c.size / c.line);  // fully associative
    f.caches.push_back(c);
  }
  std::sort(f.caches.begin(), f.caches.end(), [](const HostCache& a, const HostCache& b) { return a.level < b.level; });
  // Some VMs have no cache directory in sysfs; the CPU still reports its
  // caches (only for the real machine: a test's root stands for a fake one).
  if (f.caches.empty() && root.empty()) f.caches = cpuid_caches();
  if (f.caches.empty())
    throw InputError({base, 0, 0}, "", "no cache levels in sysfs (nor from CPUID): cannot describe this machine");
  std::ifstream cpuinfo(root + "/proc/cpuinfo");
  std::string line;
  f.cpus = 0;
  while (std::getline(cpuinfo, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon), val = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
    key.erase(key.find_last_not_of(" \t") + 1);
    if (key == "processor") ++f.cpus;
    if (key == "model name" && f.model.empty()) f.model = val;
    if (key == "vendor_id" && f.vendor.empty()) f.vendor = val;
    if (key == "cpu MHz" && f.mhz == 0) f.mhz = std::atof(val.c_str());
    if (key == "cpu family" && f.family == 0) f.family = std::atoi(val.c_str());
    if (key == "model" && f.model_number == 0) f.model_number = std::atoi(val.c_str());
    if (key == "flags" && !f.avx2) {
      std::istringstream in(val);
      std::string flag;
      while (in >> flag) {
        f.avx512 = f.avx512 || flag == "avx512f";
        f.avx2 = f.avx2 || flag == "avx2";
      }
    }
  }
  if (!f.cpus) f.cpus = 1;
  return f;
}

std::vector<uint64_t> host_probe_footprints(const HostFacts& f) {
  std::vector<uint64_t> v;
  // Half of each level; a level past the second at most twice the one above:
  // a shared last level (and a VM's slice of it) holds a working set a few
  // times L2 but rarely half of its nominal size for one core.
  for (size_t i = 0; i < f.caches.size(); ++i)
    v.push_back(i >= 2 ? std::min(f.caches[i].size / 2, f.caches[i - 1].size * 2) : f.caches[i].size / 2);
  v.push_back(f.caches.back().size * 8);
  return v;
}

uint64_t host_last_level_stream_footprint(const HostFacts& f) {
  if (f.caches.size() < 3) return 0;
  const uint64_t above = f.caches[f.caches.size() - 2].size, last = f.caches.back().size;
  const uint64_t at = std::min(4 * above, last / 2);
  return at >= 2 * above ? at : 0;
}

uint64_t host_dram_stream_footprint(const HostFacts& f) {
  return std::max<uint64_t>(512ull << 20, f.caches.empty() ? 0 : 4 * f.caches.back().size);
}

std::vector<uint64_t> host_capacity_footprints(const HostFacts& f) {
  std::vector<uint64_t> v;
  if (f.caches.size() < 2) return v;
  const uint64_t top = f.caches.back().size;
  // Twice the level above, then alternately x1.5 and x4/3: 2, 3, 4, 6, 8 ... MiB.
  for (uint64_t x = 2 * f.caches[f.caches.size() - 2].size, step = 0; x <= top; ++step) {
    v.push_back(x);
    x = step % 2 == 0 ? x * 3 / 2 : x * 4 / 3;
  }
  if (v.size() < 2) v.clear();
  return v;
}

unsigned host_vector_bytes(const HostFacts& f) { return f.avx512 ? 64 : f.avx2 ? 32 : 16; }

unsigned host_vector_registers(const HostFacts& f) { return f.avx512 ? 32 : 16; }

uint64_t effective_last_level_bytes(const HostFacts& f, const HostMeasured& m) {
  if (!m.valid || m.capacity.size() < 2 || m.level_ns.size() <= f.caches.size()) return 0;
  const double hit = m.capacity.front().second, dram = m.level_ns[f.caches.size()];
  if (dram <= hit) return 0;
  double kept = 0;
  for (const auto& [bytes, ns] : m.capacity)
    kept = std::max(kept, std::clamp((dram - ns) / (dram - hit), 0.0, 1.0) * double(bytes));
  // The larger of the chase's and the stream's: neighbours only ever evict
  // this core's data, and each probe under-reads what stays its own way. On
  // the Zen 3 VM of 2026-12-06 at load 11, the chase by page read 40-45 ns
  // from 6 MiB to 256 MiB (its DRAM reference flattered by the page order),
  // while the stream read L3 rates (50-58 GB/s) to 12 MiB and DRAM's 16 GB/s
  // only from 32 MiB; with the chase's 3 MiB the op suite scored 13 of 23,
  // with the nominal 32 MiB 14 (docs/notes/2026-12-07-probe.md).
  if (m.capacity_stream.size() >= 2 && m.stream_bytes_per_s > 0) {
    const double t_hit = 1 / m.capacity_stream.front().second, t_dram = 1 / m.stream_bytes_per_s;
    if (t_dram > t_hit)
      for (const auto& [bytes, rate] : m.capacity_stream)
        kept = std::max(kept, std::clamp((t_dram - 1 / rate) / (t_dram - t_hit), 0.0, 1.0) * double(bytes));
  }
  const uint64_t nominal = f.caches.back().size, mib = 1ull << 20;
  if (kept >= 0.9 * double(nominal)) return nominal;
  return std::max<uint64_t>(mib, uint64_t(std::llround(kept / double(mib))) * mib);
}

std::string host_config_yaml(const HostFacts& f, const HostMeasured& m) {
  const VendorCore& k = vendor_core(f);
  const double clock = m.valid && m.clock_hz > 0 ? m.clock_hz : (f.mhz > 0 ? f.mhz * 1e6 : 2e9);
  const unsigned vec = host_vector_bytes(f);
  using units::format_number;
  auto cycles_of = [&](double ns) { return std::max(1.0, std::round(ns * clock / 1e9)); };
  // The L1D keeps the vendor's fill buffers in flight; what a column walk
  // whose every load misses L1D and hits L2 measures, a miss every few
  // cycles, is the L2's pace in answering them: its port's bandwidth, a
  // line per measured spacing. Until 2026-12-05 the spacing set the misses
  // in flight instead, which held a stream from DRAM to 3 lines a DRAM
  // latency (the measurements: docs/notes/2026-12-06-seams.md, "host
  // config").
  const unsigned l1_mshrs = k.l1_mshrs;
  double l2_bandwidth = vec;
  std::string l2_note;
  if (m.valid && m.l2_miss_ns > 0 && f.caches.size() > 1) {
    const double spacing = m.l2_miss_ns * clock / 1e9;
    l2_bandwidth = std::min<double>(vec, std::round(f.caches[1].line / std::max(spacing, 0.1) * 10) / 10);
    l2_note = "; bandwidth measured: a column walk's L1D misses hit here " + format_number(std::round(spacing * 10) / 10) +
              " cycles apart";
  }
  // The last level's port: what one core's wide-load stream reads from it
  // (sim/host/stream_probe.h), bytes a cycle at the measured clock, at most
  // the L1D's two vectors a cycle (a faster reading was not the last
  // level's). The table's vector a cycle read 64 B/cycle on a Zen 5 VM
  // whose L3 streamed 25.6 (docs/notes/2026-12-06-probe-clock.md).
  const size_t last = f.caches.size() - 1;
  double ll_bandwidth = vec;
  std::string ll_note;
  if (last >= 2 && m.valid && m.last_level_bytes_per_s > 0) {
    ll_bandwidth = std::clamp(std::round(m.last_level_bytes_per_s / clock * 10) / 10, 0.1, 2.0 * vec);
    ll_note = "; bandwidth measured: " + stream_note(m.stream_load_bytes, m.last_level_footprint, m.last_level_bytes_per_s);
  } else if (last >= 2) {
    ll_note = "; bandwidth a vector a cycle (not measured)";
  }
  std::ostringstream o;
  o << "# Written by `pto-sim config host`" << (m.valid ? " --measure" : "") << " on " << f.model << " ("
    << f.vendor << ", " << f.cpus << " CPUs).\n"
    << "# Caches from "
    << (f.caches[0].shared_cpus.rfind("CPUID", 0) == 0 ? "CPUID (this VM has no /sys/devices/system/cpu/cpu0/cache)"
                                                        : "/sys/devices/system/cpu/cpu0/cache")
    << "; core timings are "
    << k.name << " figures\n"
    << "# (vendor optimisation guides, Agner Fog's tables); "
    << (m.valid ? "clock, cache and DRAM latencies and\n# bandwidth measured by sim/host/host_probe (dependent add chain, pointer chase, wide-load stream).\n"
                : "clock from /proc/cpuinfo, latencies are\n# typical figures (run with --measure to measure them).\n");
  // On a shared VM another tenant's thread may share the core: dependent
  // chains (the clock, latencies) measure right, throughput (the column
  // walks, so the misses in flight) slow. Said where the user reads it
  // (measured: docs/notes/2026-12-06-seams.md, "host config").
  if (m.valid && m.adds_per_cycle > 0)
    o << "# While measuring: " << format_number(std::round(m.adds_per_cycle * 100) / 100)
      << " independent adds a cycle (another thread sharing the core lowers it).\n";
  if (m.valid && m.adds_per_cycle > 0 && m.adds_per_cycle < 3)
    o << "# WARNING: measured while another thread shared this core (" << format_number(std::round(m.adds_per_cycle * 100) / 100)
      << " independent adds a cycle, 3.5 or more when idle):\n# throughput figures (max_outstanding, set spacings) "
         "may be slow; measure again when the machine is quiet.\n";
  o << "name: host\n";
  o << "clock: " << format_number(std::round(clock / 1e6)) << " MHz\n";
  o << "core:\n"
    << "  model: cpu\n"
    << "  issue_width: " << k.issue_width << "\n"
    << "  max_outstanding: " << l1_mshrs << "      # L1D fill buffers (the vendor's)\n"
    << "  rob_entries: " << k.rob << "\n"
    << "  lq_entries: " << k.lq << "\n"
    << "  sq_entries: " << k.sq << "\n"
    << "  load_ports: " << k.load_ports << "\n"
    << "  store_ports: " << k.store_ports << "\n"
    << "  forward_latency: " << k.forward;
  // A compiled loop keeps a value it stores in a register rather than load it
  // back (GCC -O2 keeps mm_ijk's C[i][j] in a register across k, storing it
  // each iteration): a .pto twin's reload is that register, whatever the
  // store queue's own forward costs (measured here, for the record).
  if (m.valid && m.forward >= 0)
    o << "    # the store queue's own forward measured " << format_number(std::round(m.forward))
      << " cycles (a float stored and loaded back); compiled loops keep such values in registers";
  o << "\n";
  // The row's `measured` notes say where rfo, the store-queue bound and the
  // fill cost were measured (sim/config/host_vendor_cores.yaml).
  if (k.rfo)
    o << "  store_request: rfo      # a store's line at dispatch, again at commit if the loads evicted it (docs/TIMING.md, \"Stores\")\n";
  else
    o << "  store_request: drain    # a store requests its line as the store queue drains it (docs/TIMING.md, \"Stores\")\n";
  if (k.store_lines) o << "  store_lines_per_cycle: " << k.store_lines << "   # the store queue writes one line a cycle\n";
  if (k.store_fill_cycles)
    o << "  store_fill_cycles: " << k.store_fill_cycles << "       # a store turning to a line that just came by a miss\n"
      << "  store_fill_window: " << k.store_fill_window << "     # cycles after its arrival (docs/TIMING.md, \"Stores\")\n";
  o
    << "  vector_bytes: " << vec << " B\n"
    << "  flops_per_cycle:        # 2 FMA pipes x lanes x 2\n"
    << "    float32: " << 2 * (vec / 4) * 2 << "\n"
    << "    float16: " << 2 * (vec / 4) * 2 / 2 << "\n"
    << "    bfloat16: " << 2 * (vec / 4) * 2 / 2 << "\n"
    << "    int32: " << 2 * (vec / 4) << "\n"
    << "    int8: " << 2 * vec * 2 << "\n"
    << "  op_timing:\n";
  // A measured latency (a chain of the instruction) replaces the table's;
  // throughputs stay the table's.
  auto op = [&](const char* name, const double* t, double measured) {
    const double latency = m.valid && measured > 0 ? std::max(1.0, std::round(measured)) : t[0];
    o << "    " << name << ": {latency: " << format_number(latency) << ", throughput: " << format_number(t[1]) << "}"
      << (m.valid && measured > 0 ? "   # latency measured" : "") << "\n";
  };
  op("add", k.add, m.add);
  op("mul", k.mul, m.mul);
  op("fma", k.fma, m.fma);
  op("div", k.div, m.div);
  op("sqrt", k.sqrt, m.sqrt);
  write_op_costs(o, m, vec);
  // The architectural vector registers (32 zmm with AVX-512, 16 ymm or xmm without): the lowering sizes its
  // micro-kernel from them (docs/EXEC.md), as a compiled kernel's register allocation is bounded by them.
  o << "memories:\n"
    << "  - {name: register, size: " << units::format_bytes(uint64_t(host_vector_registers(f)) * vec)
    << ", latency: 0 cycles, bandwidth: " << 3 * vec << " B/cycle}   # " << host_vector_registers(f)
    << " vector registers of " << vec << " B\n";
  o << "spaces: {shared: L1D, constant: L1D}   # a CPU has no scratchpad: tiles live in the caches\n";
  o << "# core.cores stays 1 (one core's view); --set core.cores=N runs pto.parallel on N cores, each with\n"
    << "# its own private levels, kept coherent (docs/CACHES.md, \"Several cores\").\n";
  o << "caches:\n";
  double above_ns = 0;
  bool still_private = true;
  // A VM shares its last level with other tenants' cores: the capacity its
  // data keeps is measured, not CPUID's: with the nominal size the op
  // suite's working sets ran from L3 in the model and from DRAM on the
  // machine (docs/notes/2026-12-06-seams.md, "host config").
  const uint64_t effective_ll = effective_last_level_bytes(f, m);
  for (size_t i = 0; i < f.caches.size(); ++i) {
    const HostCache& c = f.caches[i];
    const std::string name = i == 0 ? "L1D" : "L" + std::to_string(c.level);
    double lat;
    if (m.valid && i < m.level_ns.size()) {
      lat = std::max(1.0, cycles_of(m.level_ns[i] - above_ns));
      above_ns = m.level_ns[i];
    } else {
      lat = k.cache_latency[std::min<size_t>(i, 2)];
    }
    // A level that only cpu0's SMT siblings share is one core's own; the
    // first level shared wider, and every one below it, is shared
    // (docs/CACHES.md, "Several cores"). Unknown lists say nothing. Levels
    // from CPUID (a VM without sysfs caches) give a count of threads; the
    // L1D is one core's on every x86, so its count is the core's threads.
    // An AMD VM whose CPUID hides TOPOEXT (leaf 0x8000001D empty, as on the
    // Zen 5 VM of 2026-12-06) gives only the legacy leaves, no counts: its
    // L1D and L2 are one core's own on every Zen (family 0x17 on, AMD's
    // optimization guides), the L3 a CCX's.
    const unsigned core_threads = std::max({1u, cpu_list_count(f.smt_siblings), f.caches[0].sharing_threads});
    const bool zen_core_level = f.vendor.find("AMD") != std::string::npos && f.family >= 0x17 && c.level <= 2 &&
                                c.shared_cpus.rfind("CPUID (legacy leaves)", 0) == 0;
    const unsigned sharers = cpu_list_count(c.shared_cpus) ? cpu_list_count(c.shared_cpus)
                             : c.sharing_threads         ? c.sharing_threads
                             : zen_core_level            ? core_threads
                                                         : 0;
    const char* sharing = nullptr;
    if (sharers) {
      still_private = still_private && sharers <= core_threads;
      sharing = still_private ? "private" : "shared";
    }
    o << "  - {name: " << name << (sharing ? std::string(", sharing: ") + sharing : std::string()) << ", size: " << units::format_bytes(i + 1 == f.caches.size() && effective_ll ? effective_ll : c.size) << ", ways: " << c.ways
      << ", line: " << c.line << " B, latency: " << format_number(lat) << " cycles, bandwidth: " << format_number(i == 0 ? 2 * vec : i == 1 ? l2_bandwidth : i == last ? ll_bandwidth : vec)
      << " B/cycle, mshrs: " << (i == 0 ? l1_mshrs : 48);
    if (i == 0) {
      // Measured: a column walk within one set at least twice as slow as
      // the same walk spread over the sets takes that long a fill; else none.
      const double spacing = m.valid && m.one_set_ns > 0
                                 ? (m.one_set_ns >= 2 * m.spread_ns ? cycles_of(m.one_set_ns) : 0)
                                 : k.l1_set_fill_cycles;
      if (spacing > 0) {
        o << ", set_fill_cycles: " << format_number(spacing);
        const double wb = !(m.valid && m.one_set_store_ns > 0) ? k.l1_set_writeback_cycles
                          : m.one_set_store_ns > m.one_set_ns   ? cycles_of(m.one_set_store_ns - m.one_set_ns)
                                                                : 0;
        o << ", set_writeback_cycles: " << format_number(wb);
      }
      const std::string& policy = m.valid && !m.l1_replacement.empty() ? m.l1_replacement : k.l1_replacement;
      if (policy != CacheConfig{}.replacement) o << ", replacement: " << policy;  // the default goes unsaid
      // An x86 core reads a line for ownership before it writes it, even
      // when a 64 B vector store covers all of it (only non-temporal stores
      // do not). It matters on AVX-512 hosts alone (narrower vectors cover
      // part of a line, which fetches anyway): on the Zen 5 VM the op suite
      // ranks at Spearman 0.947 with it, 0.908 without, the loop nests and
      // the Zen 3 (AVX2) op suite unchanged (docs/notes/2026-12-07-lead-3.md).
      o << ", write_allocate: fetch";
    }
    const VendorPrefetch& pf = k.prefetch[std::min<size_t>(i, 2)];
    if (!pf.name.empty())
      o << ", prefetcher: " << pf.name << ", prefetch_distance: " << pf.distance << ", prefetch_degree: " << pf.degree
        << ", prefetch_table: " << pf.table
        // Hardware prefetchers work on physical addresses and stop at a 4 KiB
        // page (the vendors' guides say so; a one-set column walk at a
        // 4 KiB stride measures one set fill a load where an unbounded
        // stride prefetcher would add a second: docs/CACHES.md).
        << ", prefetch_page: 4 KiB";
    o << "}   # shared by CPUs " << c.shared_cpus;
    if (i == 0 && m.valid && !m.l1_replacement_fit.empty()) o << "; replacement " << m.l1_replacement_fit;
    if (i == 1) o << l2_note;
    if (i == last && last >= 2) o << ll_note;
    if (i + 1 == f.caches.size() && effective_ll) {
      o << "; size measured (chase ns at";
      for (const auto& [bytes, ns] : m.capacity) o << " " << units::format_bytes(bytes) << " " << format_number(std::round(ns * 10) / 10);
      o << ", DRAM " << format_number(std::round(m.level_ns[f.caches.size()] * 10) / 10) << ")";
      if (!m.capacity_stream.empty()) {
        o << " and stream GB/s at";
        for (const auto& [bytes, rate] : m.capacity_stream)
          o << " " << units::format_bytes(bytes) << " " << format_number(std::round(rate / 1e8) / 10);
        o << ", DRAM " << format_number(std::round(m.stream_bytes_per_s / 1e8) / 10);
      }
      o << ": of the nominal "
        << units::format_bytes(c.size) << ", what this core's data keeps";
    }
    o << "\n";
  }
  double dram_ns = 90;
  if (m.valid && m.level_ns.size() > f.caches.size()) dram_ns = std::max(1.0, m.level_ns[f.caches.size()] - above_ns);
  const bool bw_measured = m.valid && m.stream_bytes_per_s > 0;
  const double bw = bw_measured ? m.stream_bytes_per_s : 20e9;
  o << "dram:\n"
    << "  timing: simple          # a VM does not show the DIMMs: latency and bandwidth only\n"
    << "  latency: " << format_number(std::round(dram_ns * 10) / 10) << " ns"
    << (m.valid && m.level_ns.size() > f.caches.size() ? "   # measured: a chase past the last level, less its latency" : "   # a typical figure (not measured)")
    << "\n"
    << "  bandwidth: " << format_number(std::round(bw / 1e8) / 10) << " GB/s   # "
    << (bw_measured ? "measured: " + stream_note(m.stream_load_bytes, m.stream_footprint, m.stream_bytes_per_s)
                    : std::string("a typical figure (not measured)"))
    << "\n";
  return o.str();
}

}  // namespace ptosim
