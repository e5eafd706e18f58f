#pragma once
// What `config host --measure` hands the config writer: the probe's figures
// (sim/host) copied into HostMeasured (sim/config), which may not include
// the probe. A header of its own so that a test can feed it a made-up
// probe and find each figure in the yaml key it belongs to.
#include "sim/config/host_config.h"
#include "sim/host/host_probe.h"

namespace ptosim::cli {

inline HostMeasured measured_from(const host::HostProbe& p) {
  HostMeasured m;
  m.valid = true;
  m.clock_hz = p.clock_hz;
  m.adds_per_cycle = p.adds_per_cycle;
  m.add = p.ops.add;
  m.mul = p.ops.mul;
  m.fma = p.ops.fma;
  m.div = p.ops.div;
  m.sqrt = p.ops.sqrt;
  m.forward = p.ops.forward;
  for (const auto& l : p.latency) m.level_ns.push_back(l.ns);
  for (const auto& l : p.capacity) m.capacity.emplace_back(l.footprint, l.ns);
  for (const auto& s : p.capacity_stream) m.capacity_stream.emplace_back(s.footprint, s.bytes_per_s);
  m.stream_bytes_per_s = p.dram_stream.bytes_per_s;
  m.stream_footprint = p.dram_stream.footprint;
  m.stream_load_bytes = p.dram_stream.load_bytes;
  m.last_level_bytes_per_s = p.last_level_stream.bytes_per_s;
  m.last_level_footprint = p.last_level_stream.footprint;
  m.l2_miss_ns = p.l2_miss_ns;
  m.one_set_ns = p.one_set_ns;
  m.spread_ns = p.spread_ns;
  m.one_set_store_ns = p.one_set_store_ns;
  return m;
}

}  // namespace ptosim::cli
