#include <nlohmann/json.hpp>

#include "sim/report/render.h"

namespace ptosim {
namespace {

using nlohmann::ordered_json;

ordered_json value(const StatValue& v) {
  if (auto p = std::get_if<uint64_t>(&v)) return *p;
  if (auto p = std::get_if<double>(&v)) return *p;
  if (auto p = std::get_if<bool>(&v)) return *p;
  return std::get<std::string>(v);
}

// Lists and tables become arrays of objects that carry their name (and kind);
// any other child becomes a member named after it.
ordered_json object(const StatsNode& n, bool with_identity) {
  ordered_json o = ordered_json::object();
  if (with_identity) {
    o["name"] = n.name;
    if (n.kind != NodeKind::Row) o["kind"] = node_kind_name(n.kind);
  }
  for (auto& [k, v] : n.values) o[k] = value(v);
  for (auto& c : n.children) {
    if (c.kind == NodeKind::List || c.kind == NodeKind::Table) {
      ordered_json arr = ordered_json::array();
      for (auto& item : c.children) arr.push_back(object(item, true));
      o[c.name] = std::move(arr);  // (a copy here copied every table once per level of nesting)
    } else {
      o[c.name] = object(c, false);
    }
  }
  return o;
}

}  // namespace

std::string render_json(const StatsNode& root) {
  ordered_json o;
  o["schema_version"] = kReportSchemaVersion;
  ordered_json body = object(root, false);
  for (auto it = body.begin(); it != body.end(); ++it) o[it.key()] = std::move(it.value());
  // Names come from programs, configs and traces as bytes: a byte that is
  // not UTF-8 is written as U+FFFD rather than failing the report.
  return o.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::string render(const StatsNode& root, const std::string& format) {
  if (format == "text") return render_text(root);
  if (format == "json") return render_json(root);
  if (format == "csv") return render_csv(root);
  throw std::invalid_argument("unknown report format '" + format + "' (expected text, json or csv)");
}

}  // namespace ptosim
