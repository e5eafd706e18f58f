#include "sim/config/config_override.h"

#include <yaml-cpp/yaml.h>

#include <cctype>

#include "sim/common/error.h"
#include "sim/common/read_file.h"
#include "sim/config/config_loader.h"

namespace ptosim {
namespace {

[[noreturn]] void fail(const ConfigOverride& o, const std::string& message) {
  throw InputError({"--set " + o.spec, 0, 0}, "", message);
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit((unsigned char)c)) return false;
  return true;
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

// The entry of a list named `segment`; its index, or -1.
long find_entry(const YAML::Node& list, const std::string& list_key, const std::string& segment) {
  if (all_digits(segment)) {
    const unsigned long i = std::stoul(segment);
    return i < list.size() ? long(i) : -1;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node e = list[i];
    if (!e.IsMap()) continue;
    const YAML::Node name = e["name"];
    const std::string n = name && name.IsScalar() ? name.Scalar()
                          : list_key == "caches" ? "L" + std::to_string(i + 1) : "";
    if (n == segment) return long(i);
  }
  return -1;
}

std::string entry_names(const YAML::Node& list, const std::string& list_key) {
  std::string names;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node e = list[i];
    std::string n = e.IsMap() && e["name"] && e["name"].IsScalar() ? e["name"].Scalar()
                    : list_key == "caches" ? "L" + std::to_string(i + 1) : std::to_string(i);
    names += (names.empty() ? "" : ", ") + n;
  }
  return names.empty() ? "none" : names;
}

// Applies one override; returns the key path the loader's messages use for
// it ("caches[1].ways"), so that its errors can be traced back to the --set.
std::string apply(YAML::Node root, const ConfigOverride& o) {
  YAML::Node value;
  try {
    value = YAML::Load(o.value);
  } catch (const YAML::Exception& e) {
    fail(o, "YAML syntax in the value: " + e.msg);
  }
  const std::vector<std::string> parts = split_path(o.path);
  std::string key_path;
  YAML::Node node = root;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& seg = parts[i];
    const bool last = i + 1 == parts.size();
    if (node.IsSequence()) {
      const std::string list_key = i > 0 ? parts[i - 1] : "";
      const long at = find_entry(node, list_key, seg);
      if (at < 0) fail(o, "no entry '" + seg + "' in " + key_path + " (it has: " + entry_names(node, list_key) + ")");
      key_path += "[" + std::to_string(at) + "]";
      if (last) {
        node[size_t(at)] = value;
        return key_path;
      }
      node.reset(node[size_t(at)]);
      continue;
    }
    if (!node.IsMap() && !node.IsNull())
      fail(o, "'" + key_path + "' is a value, not a section with key '" + seg + "'");
    key_path += (key_path.empty() ? "" : ".") + seg;
    if (last) {
      node[seg] = value;
      return key_path;
    }
    YAML::Node next = node[seg];
    if (!next || next.IsNull()) {
      node[seg] = YAML::Node(YAML::NodeType::Map);
      next = node[seg];
    }
    node.reset(next);
  }
  return key_path;
}

}  // namespace

ConfigOverride parse_override(const std::string& spec) {
  ConfigOverride o;
  o.spec = spec;
  const size_t eq = spec.find('=');
  if (eq == std::string::npos) fail(o, "expected dotted.path=VALUE");
  o.path = spec.substr(0, eq);
  o.value = spec.substr(eq + 1);
  if (o.path.empty()) fail(o, "the path before '=' is empty");
  for (const std::string& seg : split_path(o.path))
    if (seg.empty()) fail(o, "empty segment in '" + o.path + "'");
  if (o.value.empty()) fail(o, "the value after '=' is empty");
  return o;
}

HwConfig load_config_with_overrides(const std::string& path, const std::vector<ConfigOverride>& overrides) {
  if (overrides.empty()) return path.empty() ? default_config() : load_config_file(path);
  const std::string file = path.empty() ? "<default>" : path;
  const std::string text = path.empty() ? default_config_text() : read_input_file(path, "config");
  YAML::Node root = first_document(text, file);  // a syntax error with its position
  if (!root.IsMap()) return parse_config(text, file);
  std::vector<std::pair<std::string, const ConfigOverride*>> keys;
  for (const ConfigOverride& o : overrides) keys.emplace_back(apply(root, o), &o);
  try {
    return parse_config_node(root, file);
  } catch (const InputError& e) {
    // The last override of a key (or of a section containing it) gave the bad value.
    for (auto it = keys.rbegin(); it != keys.rend(); ++it) {
      const std::string& k = it->first;
      const std::string& ek = e.key();
      if (ek == k || (ek.size() > k.size() && ek.compare(0, k.size(), k) == 0 && (ek[k.size()] == '.' || ek[k.size()] == '[')))
        throw InputError({"--set " + it->second->spec, 0, 0}, ek, e.detail());
    }
    // A check across keys of one section (size vs ways x line) names another
    // key of it: keep the file's position and say which override took part.
    for (auto it = keys.rbegin(); it != keys.rend(); ++it) {
      const std::string& k = it->first;
      const size_t cut = k.find_last_of(".[");
      const std::string section = cut == std::string::npos ? "" : k.substr(0, k[cut] == '[' ? k.find(']', cut) + 1 : cut);
      if (!section.empty() && e.key().compare(0, section.size(), section) == 0)
        throw InputError(e.pos(), e.key(), e.detail() + " (with --set " + it->second->spec + ")");
    }
    throw;
  }
}

}  // namespace ptosim
