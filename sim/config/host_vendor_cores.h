#pragma once
// The vendors' core figures `pto-sim config host` writes when it does not
// measure them (widths, queues, fill buffers, latencies, prefetchers). They
// are facts about chips, so they are data: sim/config/host_vendor_cores.yaml,
// one row a core family with its source, embedded at build time. This file
// is the question the writer asks the table: which row fits this host.
#include <string>
#include <vector>

#include "sim/config/host_config.h"

namespace ptosim {

struct VendorPrefetch {
  std::string name;  // empty: no prefetcher at the level
  unsigned distance = 0, degree = 0, table = 0;
};

struct VendorCore {
  std::string name;    // whose figures, for the config's comment
  std::string source;  // where they come from (the table's `source`)
  std::string vendor_contains;  // match: the vendor string holds it ("" = any)
  int family = 0;               // match: cpu family (0 = any)
  std::vector<int> models;      // match: one of these models (empty = any)
  unsigned issue_width = 0, rob = 0, lq = 0, sq = 0, load_ports = 0, store_ports = 0, forward = 0;
  unsigned l1_mshrs = 0;  // L1D miss buffers (fill buffers)
  double add[2] = {}, mul[2] = {}, fma[2] = {}, div[2] = {}, sqrt[2] = {};  // latency, throughput
  unsigned cache_latency[3] = {};  // L1 L2 L3 cycles when not measured
  VendorPrefetch prefetch[3];      // L1 L2 L3
  unsigned l1_set_fill_cycles = 0, l1_set_writeback_cycles = 0;  // when not measured; 0: no spacing
  std::string l1_replacement;  // when not measured
  bool rfo = false;            // store_request: rfo (else drain)
  unsigned store_lines = 0;    // store_lines_per_cycle (0: no bound)
  unsigned store_fill_cycles = 0, store_fill_window = 0;  // 0: no such cost
};

// Every row, in the table's order (the last one matches every host).
const std::vector<VendorCore>& vendor_cores();
// The first row that fits `f`.
const VendorCore& vendor_core(const HostFacts& f);

}  // namespace ptosim
