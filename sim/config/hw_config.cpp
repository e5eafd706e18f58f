#include "sim/config/hw_config.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "sim/config/config_loader.h"
#include "sim/config/params.h"
#include "sim/config/shared_keys.h"
#include "sim/common/registry.h"
#include "sim/common/units.h"

namespace ptosim {

double DramConfig::peak_bandwidth() const {
  if (ChoiceLists::has_trait(concepts::kDramTiming, timing, traits::kBanked)) return double(channels) * (bus_width / 8.0) * data_rate;
  return bandwidth;
}

bool CoreConfig::dataflow() const { return ChoiceLists::has_trait(concepts::kCoreModel, model, traits::kDataflow); }
bool CoreConfig::every_access() const {
  return dataflow() || ChoiceLists::has_trait(concepts::kCoreModel, model, traits::kEveryAccess);
}

std::vector<std::string> HwConfig::space_names() const {
  std::vector<std::string> names{"global"};
  for (auto& [space, module] : spaces)
    if (space != "global") names.push_back(space);
  return names;
}

std::optional<SpaceId> HwConfig::space_id(const std::string& space) const {
  auto names = space_names();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == space) return SpaceId(i);
  return std::nullopt;
}

const MemoryConfig* HwConfig::memory(const std::string& n) const {
  for (auto& m : memories)
    if (m.name == n) return &m;
  return nullptr;
}

const MemoryConfig* HwConfig::memory(BufferRole role) const {
  for (auto& m : memories)
    if (m.role == role) return &m;
  return nullptr;
}

std::vector<BufferRole> HwConfig::space_roles() const {
  std::vector<BufferRole> roles;
  for (const std::string& space : space_names()) {
    auto it = spaces.find(space);
    const MemoryConfig* m = it == spaces.end() ? nullptr : memory(it->second);
    roles.push_back(m ? m->role : BufferRole::None);
  }
  return roles;
}

const CacheConfig* HwConfig::cache(const std::string& n) const {
  for (auto& c : caches)
    if (c.name == n) return &c;
  return nullptr;
}

bool HwConfig::private_cache(const std::string& c) const {
  bool backs = false;
  for (auto& m : memories) backs = backs || m.backing == c;
  for (auto& [space, target] : spaces)
    if (target == c) return false;
  return backs;
}

size_t HwConfig::private_levels() const {
  if (core.count <= 1) return 0;
  size_t n = 0;
  for (auto& c : caches) {
    if (private_cache(c.name)) continue;  // a memory's own cache: no level of the chain
    if (c.sharing != CacheSharing::Private) break;
    ++n;
  }
  return n;
}

uint32_t HwConfig::coherence_latency() const {
  if (coherence.latency) return coherence.latency;
  const CacheConfig* last_private = nullptr;
  for (auto& c : caches) {
    if (private_cache(c.name)) continue;
    if (c.sharing == CacheSharing::Shared) return c.latency;
    last_private = &c;
  }
  return last_private ? last_private->latency : 0;
}

std::vector<std::pair<std::string, std::string>> HwConfig::report_levels() const {
  std::vector<std::pair<std::string, std::string>> levels;
  for (auto& m : memories) levels.emplace_back(m.name, kMemoryKinds.name(m.kind));
  for (auto& c : caches)
    if (!private_cache(c.name)) levels.emplace_back(c.name, "cache");
  levels.emplace_back(dram.name, "dram");
  return levels;
}

namespace {
std::string bw_cycle(double v) { return units::format_number(v) + " B/cycle"; }
// The keys declared for this section (sim/config/params.h,
// shared_keys.h) whose rank is in [lo, hi), in their order: the ranks place
// them around the keys still written by hand (the core's model, issue_width
// and max_outstanding before its flops_per_cycle table).
constexpr int kFirst = std::numeric_limits<int>::min(), kLast = std::numeric_limits<int>::max();
template <class Cfg>
void write_params(std::ostringstream& o, const char* indent, const Cfg& cfg, int lo = kFirst, int hi = kLast) {
  for (const Param<Cfg>& p : Params<Cfg>::all())
    if (p.rank >= lo && p.rank < hi && (!p.shown || p.shown(cfg))) o << indent << p.key << ": " << p.format(cfg) << "\n";
}
}  // namespace

std::string to_yaml(const HwConfig& c) {
  std::ostringstream o;
  using units::format_bytes;
  using units::format_number;
  o << "name: " << c.name << "\n";
  o << "clock: " << units::format_frequency(c.clock_hz) << "\n";
  const CoreConfig& k = c.core;
  o << "core:\n";
  write_params(o, "  ", k, kFirst, -100);  // model, issue_width, max_outstanding
  if (k.flops_per_cycle_by_dtype.empty()) {
    o << "  flops_per_cycle: " << format_number(k.flops_per_cycle) << "\n";
  } else {
    o << "  flops_per_cycle:\n";
    for (auto& [dt, v] : k.flops_per_cycle_by_dtype) o << "    " << dt << ": " << format_number(v) << "\n";
  }
  write_params(o, "  ", k, -100, 0);  // vector_bytes, cores
  bool roles = false;
  for (auto& m : c.memories) roles = roles || m.role != BufferRole::None;
  if (roles) {  // an NPU's data path: its engines' figures
    o << "  vector_flops_per_cycle: " << format_number(k.npu.vector_flops_per_cycle) << "\n  pipes:\n";
    for (size_t p = 0; p < size_t(Pipe::Count); ++p) {
      const PipeConfig& pc = k.npu.pipes[p];
      if (Pipe(p) == Pipe::Cube || Pipe(p) == Pipe::Vector) continue;  // timed by flops
      o << "    " << kPipes.name(Pipe(p)) << ": {bandwidth: " << bw_cycle(pc.bandwidth) << ", setup: " << pc.setup
        << " cycles}\n";
    }
  }
  write_params(o, "  ", k, 0);  // the core model's own keys
  if (k.dataflow()) {  // the pipeline's op table
    o << "  op_timing:\n";
    auto entry = [&](const std::string& key, const OpTiming& t) {
      o << "    " << key << ": {latency: " << format_number(t.latency)
        << ", throughput: " << format_number(t.throughput) << "}\n";
    };
    for (size_t ci = 0; ci < size_t(OpClass::Count); ++ci) {
      const OpClass cl = OpClass(ci);
      const OpTiming& f32 = k.op_timing.at(cl, 0);
      entry(op_class_name(cl), f32);
      for (size_t d = 1; d < kTimedDtypes; ++d) {
        const OpTiming& t = k.op_timing.at(cl, d);
        if (t.latency != f32.latency || t.throughput != f32.throughput)
          entry(std::string(op_class_name(cl)) + "." + timed_dtype_name(d), t);
      }
    }
  }
  o << (c.memories.empty() ? "memories: []\n" : "memories:\n");
  for (auto& m : c.memories) {
    o << "  - name: " << m.name << "\n";
    write_params(o, "    ", m);
  }
  o << "caches:\n";
  for (auto& k : c.caches) {
    o << "  - name: " << k.name << "\n"
      << "    sharing: " << kCacheSharing.name(k.sharing) << "\n";
    write_params(o, "    ", k);  // a level's keys, then the replacement policies'
    write_params(o, "    ", k.prefetch);  // prefetcher, then the prefetchers' keys
  }
  const DramConfig& d = c.dram;
  o << "dram:\n"
    << "  name: " << d.name << "\n";
  write_params(o, "  ", d);  // the simple model's latency and bandwidth, timing, the detailed model's keys
  if (c.private_levels()) {
    CoherenceConfig shown = c.coherence;
    shown.latency = c.coherence_latency();  // its default, resolved
    o << "coherence:\n";
    write_params(o, "  ", shown);
  }
  o << "spaces:\n";
  for (auto& [space, module] : c.spaces) o << "  " << space << ": " << module << "\n";
  o << "alignment: " << format_bytes(c.alignment) << "\n";
  if (!c.op_costs.empty()) {
    o << "ops:\n";
    for (auto& [op, cost] : c.op_costs) o << "  " << op << ": " << format_number(cost) << "\n";
  }
  return o.str();
}

}  // namespace ptosim
