#pragma once
// The one statistics tree: every module adds a node with its counters, and
// the text / JSON / CSV reports only walk it. Values keep their insertion
// order so reports print in the order modules chose.
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace ptosim {

// What a node is: renderers choose its layout by kind (a level's table, a
// list of rows). Named once, in kNodeKinds (stats.cpp).
enum class NodeKind : uint8_t { Run, Core, Roofline, Cache, Dram, Register, Scratchpad, Constant, List, Table, Row, Trace, Program, Object, DataCheck };
const char* node_kind_name(NodeKind k);

// Counts are uint64_t, quantities double, flags bool: a report's JSON types
// say what a value is (docs/REPORTS.md). A string literal stays a string
// (C++20's variant rules, which GCC 12 applies in C++17 too).
using StatValue = std::variant<uint64_t, double, std::string, bool>;

struct StatsNode {
  std::string name;
  NodeKind kind = NodeKind::Run;
  std::vector<std::pair<std::string, StatValue>> values;
  std::vector<StatsNode> children;

  StatsNode& set(const std::string& key, StatValue v);
  StatsNode& child(const std::string& name, NodeKind kind);  // appends
  const StatValue* find(const std::string& key) const;
  const StatsNode* find_child(const std::string& name) const;
  uint64_t u64(const std::string& key) const;  // 0 when absent
  double num(const std::string& key) const;    // any numeric value as double; 0 when absent
};

std::string to_string(const StatValue& v);
inline std::ostream& operator<<(std::ostream& o, NodeKind k) { return o << node_kind_name(k); }

}  // namespace ptosim
