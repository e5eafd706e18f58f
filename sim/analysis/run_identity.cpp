#include "sim/analysis/run_identity.h"

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdlib>
#include <ctime>

#include "sim/common/content_hash.h"
#include "sim/common/version.h"
#include "sim/config/config_loader.h"

namespace ptosim::cli {
namespace {

std::string g_command_line;
std::string g_started_at;
std::chrono::steady_clock::time_point g_start = std::chrono::steady_clock::now();

// A YAML scalar as the JSON type it stands for: config show writes counts
// and flags bare, quantities with their unit (strings).
StatValue typed(const std::string& s) {
  if (s == "true") return true;
  if (s == "false") return false;
  if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos && s.size() < 20)
    return uint64_t(std::strtoull(s.c_str(), nullptr, 10));
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (!s.empty() && end == s.c_str() + s.size() && s.find_first_of("0123456789") != std::string::npos) return d;
  return s;
}

void yaml_into(StatsNode& node, const YAML::Node& y);

void yaml_member(StatsNode& parent, const std::string& key, const YAML::Node& v) {
  if (v.IsMap()) yaml_into(parent.child(key, NodeKind::Object), v);
  else if (v.IsSequence()) {
    StatsNode& list = parent.child(key, NodeKind::List);
    for (size_t i = 0; i < v.size(); ++i) {
      const YAML::Node e = v[i];
      StatsNode& item = list.child(e.IsMap() && e["name"] ? e["name"].Scalar() : std::to_string(i), NodeKind::Row);
      if (e.IsMap()) yaml_into(item, e);
    }
  } else {
    parent.set(key, typed(v.Scalar()));
  }
}

void yaml_into(StatsNode& node, const YAML::Node& y) {
  for (auto it = y.begin(); it != y.end(); ++it) yaml_member(node, it->first.Scalar(), it->second);
}

}  // namespace

void record_invocation(int argc, char* argv[]) {
  g_start = std::chrono::steady_clock::now();
  g_command_line.clear();
  for (int i = 0; i < argc; ++i) g_command_line += (i ? " " : "") + shell_quote(argv[i]);
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  g_started_at = buf;
}

const std::string& command_line() { return g_command_line; }

std::string shell_quote(const std::string& a) {
  if (!a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./:,@%") ==
                        std::string::npos)
    return a;
  std::string q = "'";
  for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string config_hash(const HwConfig& config) { return hash_text(to_yaml(config)); }

void add_run_identity(StatsNode& root, const RunInputs& in) {
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - g_start).count();
  StatsNode id;
  id.set("pto_sim_version", kPtoSimVersion);
  id.set("command_line", g_command_line);
  id.set("started_at", g_started_at);
  id.set("wall_seconds", wall);
  id.set("source", in.source);
  id.set("source_hash", in.source_hash.empty() ? hash_file(in.source) : in.source_hash);
  id.set("config", in.config->name);
  id.set("config_file", in.config_file.empty() ? "<default>" : in.config_file);
  const std::string yaml = to_yaml(*in.config);
  id.set("config_hash", hash_text(yaml));
  for (auto& kv : root.values)
    if (!id.find(kv.first)) id.values.push_back(kv);
  root.values = std::move(id.values);

  std::vector<StatsNode> first;
  StatsNode params{"parameters", NodeKind::Object, {}, {}};
  if (in.params)
    for (const ProgramParam& p : *in.params) {
      switch (p.kind) {
        case ProgramParam::Kind::Int:
          if (p.i >= 0) params.set(p.name, uint64_t(p.i));
          else params.set(p.name, double(p.i));
          break;
        case ProgramParam::Kind::Float: params.set(p.name, p.f); break;
        case ProgramParam::Kind::Bool: params.set(p.name, p.b); break;
        default: params.set(p.name, p.text);
      }
    }
  first.push_back(std::move(params));
  StatsNode sets{"config_overrides", NodeKind::Object, {}, {}};
  if (in.overrides)
    for (const ConfigOverride& o : *in.overrides) sets.set(o.path, o.value);
  first.push_back(std::move(sets));
  root.children.insert(root.children.begin(), first.begin(), first.end());
  StatsNode& resolved = root.child("config_resolved", NodeKind::Object);
  yaml_into(resolved, YAML::Load(yaml));
}

}  // namespace ptosim::cli
