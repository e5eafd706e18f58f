#include "sim/report/stats.h"

#include "sim/common/name_table.h"

#include "sim/common/units.h"

namespace ptosim {

namespace {
constexpr NameTable<NodeKind, 15> kNodeKinds{{{
    {NodeKind::Run, "run", "the whole run: header figures"},
    {NodeKind::Core, "core", "the core (issue, stalls, compute)"},
    {NodeKind::Roofline, "roofline", "the run placed on its roofline"},
    {NodeKind::Cache, "cache", "a cache level"},
    {NodeKind::Dram, "dram", "the DRAM"},
    {NodeKind::Register, "register", "a register file"},
    {NodeKind::Scratchpad, "scratchpad", "a scratchpad memory"},
    {NodeKind::Constant, "constant", "a constant memory"},
    {NodeKind::List, "list", "a list of nodes"},
    {NodeKind::Table, "table", "a table of rows"},
    {NodeKind::Row, "row", "a row of a table"},
    {NodeKind::Trace, "trace", "what a replayed trace held"},
    {NodeKind::Program, "program", "what a program's execution produced"},
    {NodeKind::Object, "object", "named values: parameters, overrides, the resolved config"},
    {NodeKind::DataCheck, "data_check", "what run --check-data compared"},
}}};
}  // namespace

const char* node_kind_name(NodeKind k) { return kNodeKinds.name(k); }

StatsNode& StatsNode::set(const std::string& key, StatValue v) {
  for (auto& kv : values)
    if (kv.first == key) {
      kv.second = std::move(v);
      return *this;
    }
  values.emplace_back(key, std::move(v));
  return *this;
}

StatsNode& StatsNode::child(const std::string& n, NodeKind k) {
  children.push_back(StatsNode{n, k, {}, {}});
  return children.back();
}

const StatValue* StatsNode::find(const std::string& key) const {
  for (auto& kv : values)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

const StatsNode* StatsNode::find_child(const std::string& n) const {
  for (auto& c : children)
    if (c.name == n) return &c;
  return nullptr;
}

uint64_t StatsNode::u64(const std::string& key) const {
  const StatValue* v = find(key);
  if (!v) return 0;
  if (auto p = std::get_if<uint64_t>(v)) return *p;
  if (auto p = std::get_if<double>(v)) return uint64_t(*p);
  return 0;
}

double StatsNode::num(const std::string& key) const {
  const StatValue* v = find(key);
  if (!v) return 0;
  if (auto p = std::get_if<uint64_t>(v)) return double(*p);
  if (auto p = std::get_if<double>(v)) return *p;
  return 0;
}

std::string to_string(const StatValue& v) {
  if (auto p = std::get_if<uint64_t>(&v)) return std::to_string(*p);
  if (auto p = std::get_if<double>(&v)) return units::format_number(*p);
  if (auto p = std::get_if<bool>(&v)) return *p ? "true" : "false";
  return std::get<std::string>(v);
}

}  // namespace ptosim
