// Reads the vendor table (sim/config/host_vendor_cores.yaml, embedded at
// build time) once, strictly: a row missing a figure or holding a key
// nobody reads is a mistake in the table, said by row and key the first
// time `config host` asks (tests/sim/config/host_config_test.cpp loads it).
#include "sim/config/host_vendor_cores.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ptosim {

const std::string& host_vendor_cores_text();  // host_vendor_cores_text.cpp.in

namespace {

const char* const kTable = "sim/config/host_vendor_cores.yaml";

struct Row {
  const YAML::Node& node;
  std::string where;
  std::set<std::string> read;

  YAML::Node need(const std::string& key) {
    read.insert(key);
    if (!node[key]) throw std::logic_error(where + ": missing key " + key);
    return node[key];
  }
  template <class T>
  T get(const std::string& key) { return need(key).as<T>(); }
  void pair(const YAML::Node& n, const std::string& key, double out[2]) {
    const YAML::Node p = n[key];
    if (!p || !p.IsSequence() || p.size() != 2) throw std::logic_error(where + ": op_timing." + key + ": want [latency, throughput]");
    out[0] = p[0].as<double>();
    out[1] = p[1].as<double>();
  }
};

VendorCore parse_row(const YAML::Node& node, size_t index) {
  Row r{node, std::string(kTable) + ": row " + std::to_string(index + 1), {}};
  VendorCore c;
  c.name = r.get<std::string>("name");
  r.where += " (" + c.name + ")";
  c.source = r.get<std::string>("source");
  r.read.insert("measured");  // prose for the reader
  r.read.insert("match");
  if (const YAML::Node m = node["match"]) {
    for (const auto& kv : m) {
      const std::string k = kv.first.as<std::string>();
      if (k == "vendor_contains") c.vendor_contains = kv.second.as<std::string>();
      else if (k == "family") c.family = kv.second.as<int>();
      else if (k == "models") c.models = kv.second.as<std::vector<int>>();
      else throw std::logic_error(r.where + ": match." + k + ": not a match key (vendor_contains, family, models)");
    }
  }
  c.issue_width = r.get<unsigned>("issue_width");
  c.rob = r.get<unsigned>("rob_entries");
  c.lq = r.get<unsigned>("lq_entries");
  c.sq = r.get<unsigned>("sq_entries");
  c.load_ports = r.get<unsigned>("load_ports");
  c.store_ports = r.get<unsigned>("store_ports");
  c.forward = r.get<unsigned>("forward_latency");
  c.l1_mshrs = r.get<unsigned>("l1_mshrs");
  const YAML::Node ops = r.need("op_timing");
  r.pair(ops, "add", c.add);
  r.pair(ops, "mul", c.mul);
  r.pair(ops, "fma", c.fma);
  r.pair(ops, "div", c.div);
  r.pair(ops, "sqrt", c.sqrt);
  const auto lat = r.get<std::vector<unsigned>>("cache_latency");
  if (lat.size() != 3) throw std::logic_error(r.where + ": cache_latency: want [L1, L2, L3]");
  std::copy(lat.begin(), lat.end(), c.cache_latency);
  const YAML::Node pf = r.need("prefetch");
  if (!pf.IsSequence() || pf.size() != 3) throw std::logic_error(r.where + ": prefetch: want [L1, L2, L3]");
  for (size_t i = 0; i < 3; ++i) {
    if (pf[i].IsNull()) continue;
    c.prefetch[i] = {pf[i]["name"].as<std::string>(), pf[i]["distance"].as<unsigned>(), pf[i]["degree"].as<unsigned>(),
                     pf[i]["table"].as<unsigned>()};
  }
  c.l1_set_fill_cycles = r.get<unsigned>("l1_set_fill_cycles");
  c.l1_set_writeback_cycles = r.get<unsigned>("l1_set_writeback_cycles");
  c.l1_replacement = r.get<std::string>("l1_replacement");
  const std::string store = r.get<std::string>("store_request");
  if (store != "rfo" && store != "drain") throw std::logic_error(r.where + ": store_request: rfo or drain");
  c.rfo = store == "rfo";
  c.store_lines = r.get<unsigned>("store_lines_per_cycle");
  c.store_fill_cycles = r.get<unsigned>("store_fill_cycles");
  c.store_fill_window = r.get<unsigned>("store_fill_window");
  for (const auto& kv : node)
    if (!r.read.count(kv.first.as<std::string>()))
      throw std::logic_error(r.where + ": " + kv.first.as<std::string>() + ": not a key of the table");
  return c;
}

bool fits(const VendorCore& c, const HostFacts& f) {
  if (!c.vendor_contains.empty() && f.vendor.find(c.vendor_contains) == std::string::npos) return false;
  if (c.family && f.family != c.family) return false;
  return c.models.empty() || std::find(c.models.begin(), c.models.end(), f.model_number) != c.models.end();
}

}  // namespace

const std::vector<VendorCore>& vendor_cores() {
  static const std::vector<VendorCore> rows = [] {
    const YAML::Node doc = YAML::Load(host_vendor_cores_text());
    std::vector<VendorCore> out;
    for (size_t i = 0; i < doc.size(); ++i) out.push_back(parse_row(doc[i], i));
    const VendorCore& last = out.back();
    if (!last.vendor_contains.empty() || last.family || !last.models.empty())
      throw std::logic_error(std::string(kTable) + ": the last row must match every host (no `match`)");
    return out;
  }();
  return rows;
}

const VendorCore& vendor_core(const HostFacts& f) {
  for (const VendorCore& c : vendor_cores())
    if (fits(c, f)) return c;
  return vendor_cores().back();
}

}  // namespace ptosim
