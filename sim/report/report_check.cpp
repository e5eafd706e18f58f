#include "sim/report/report_check.h"

#include <cmath>

#include "sim/common/error.h"
#include "sim/report/report_keys.h"

namespace ptosim {
namespace {

using nlohmann::json;

bool integral(const json& v) {
  if (v.is_number_integer()) return true;
  // A count rendered from a double (2e9) is still a count.
  return v.is_number_float() && std::isfinite(v.get<double>()) && v.get<double>() == std::floor(v.get<double>());
}

bool has_type(const json& v, const ReportKey& key, bool wildcard) {
  switch (key.type) {
    case KeyType::Count: return wildcard ? v.is_number() : integral(v);  // "per_core[].*" holds reals too
    case KeyType::Real: return v.is_number() || v.is_null();
    case KeyType::Bool: return v.is_boolean();
    case KeyType::String: return v.is_string();
    case KeyType::Object: return v.is_object();
    case KeyType::List: return v.is_array();
  }
  return true;
}

const char* article(KeyType t) {
  switch (t) {
    case KeyType::Count: return "an integer";
    case KeyType::Real: return "a number";
    case KeyType::Bool: return "a boolean";
    case KeyType::String: return "a string";
    case KeyType::Object: return "an object";
    case KeyType::List: return "an array";
  }
  return "";
}

std::string shown(const json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

// Whether the key list describes members of `pattern`'s items ("levels[]." ...).
bool items_are_objects(const std::string& pattern) {
  const std::string prefix = pattern + "[].";
  for (const ReportKey& k : report_keys())
    if (std::string(k.path).compare(0, prefix.size(), prefix) == 0) return true;
  return false;
}

void check(const json& v, const std::string& pattern, const std::string& where, const std::string& file) {
  if (const ReportKey* key = find_report_key(pattern)) {
    const bool wildcard = std::string(key->path).find('*') != std::string::npos;
    if (!has_type(v, *key, wildcard))
      throw InputError({file, 0, 0}, where, "is " + shown(v) + ", expected " + article(key->type) + " (pto-sim schema)");
    if (key->identity) return;  // parameters and config_resolved hold whatever the run was given
  }
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      check(it.value(), pattern.empty() ? it.key() : pattern + "." + it.key(),
            where.empty() ? it.key() : where + "." + it.key(), file);
  } else if (v.is_array()) {
    const bool objects = items_are_objects(pattern);
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string at = where + "[" + std::to_string(i) + "]";
      if (objects && !v[i].is_object()) throw InputError({file, 0, 0}, at, "is " + shown(v[i]) + ", expected an object");
      check(v[i], pattern + "[]", at, file);
    }
  }
}

}  // namespace

void check_report_types(const json& report, const std::string& file) { check(report, "", "", file); }

}  // namespace ptosim
