#include "sim/analysis/sweep_plan.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "sim/common/read_file.h"

namespace ptosim::cli {
namespace {

constexpr size_t kMaxValues = 100000;

bool parse_int(const std::string& s, long long& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  out = std::strtoll(s.c_str(), &end, 10);
  return end == s.c_str() + s.size();
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t c = s.find(',', start);
    std::string p = s.substr(start, c == std::string::npos ? std::string::npos : c - start);
    while (!p.empty() && p.front() == ' ') p.erase(0, 1);
    while (!p.empty() && p.back() == ' ') p.pop_back();
    parts.push_back(p);
    if (c == std::string::npos) return parts;
    start = c + 1;
  }
}

// "16..256:x2", "0..64:+16", "1..8": integers, both ends included.
bool expand_range(const std::string& item, std::vector<std::string>& out, const SourcePos& pos, const std::string& name) {
  const size_t dots = item.find("..");
  if (dots == std::string::npos) return false;
  const std::string lo_s = item.substr(0, dots);
  std::string hi_s = item.substr(dots + 2), step_s = "+1";
  const size_t colon = hi_s.find(':');
  if (colon != std::string::npos) {
    step_s = hi_s.substr(colon + 1);
    hi_s = hi_s.substr(0, colon);
  }
  long long lo = 0, hi = 0, step = 0;
  const bool mul = !step_s.empty() && step_s[0] == 'x';
  const std::string step_num = !step_s.empty() && (step_s[0] == 'x' || step_s[0] == '+') ? step_s.substr(1) : step_s;
  if (!parse_int(lo_s, lo) || !parse_int(hi_s, hi) || !parse_int(step_num, step))
    throw InputError(pos, name, "range '" + item + "': expected LO..HI, LO..HI:+STEP or LO..HI:xFACTOR with integers");
  if (hi < lo) throw InputError(pos, name, "range '" + item + "': the end is below the start");
  if (mul ? (step < 2 || lo < 1) : step < 1)
    throw InputError(pos, name, "range '" + item + "': " + (mul ? "a factor must be 2 or more and the start at least 1" : "a step must be at least 1"));
  for (long long v = lo; v <= hi; v = mul ? v * step : v + step) {
    out.push_back(std::to_string(v));
    if (out.size() > kMaxValues) throw InputError(pos, name, "range '" + item + "' has more than 100000 values");
    if (mul && v > hi / step) break;
    if (!mul && v > hi - step) break;
  }
  return true;
}

std::string resolve(const std::string& base_dir, const std::string& p) {
  if (p.empty() || p == "-" || base_dir.empty() || std::filesystem::path(p).is_absolute()) return p;
  return (std::filesystem::path(base_dir) / p).lexically_normal().string();
}

SourcePos mark(const std::string& file, const YAML::Node& n) {
  return {file, n.Mark().line + 1, n.Mark().column + 1};
}

}  // namespace

// The index keeps names unique and in order; the config's stem and the
// axes' values say which point a file is without the CSV beside it (issue
// 28: `--json-dir` held p00001.json, ... and nothing else). Characters a
// file name should not carry become '-'; the name stays under 200 bytes.
std::string SweepPoint::id() const {
  char buf[16];
  std::snprintf(buf, sizeof buf, "p%05zu", index + 1);
  std::string id = buf;
  auto add = [&](const std::string& part) {
    std::string clean;
    for (char c : part) {
      const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '=' || c == '-';
      clean += keep ? c : '-';
    }
    if (id.size() + 1 + clean.size() <= 200) id += "_" + clean;
  };
  if (!config.empty()) add(std::filesystem::path(config).stem().string());
  for (const auto& [name, value] : sets) add(name + "=" + value);
  for (const auto& [name, value] : params) add(name + "=" + value);
  return id;
}

std::vector<std::string> expand_values(const std::string& text, const SourcePos& pos, const std::string& name) {
  std::vector<std::string> values;
  for (const std::string& item : split_commas(text)) {
    if (item.empty()) throw InputError(pos, name, "empty value in '" + text + "'");
    if (!expand_range(item, values, pos, name)) values.push_back(item);
    if (values.size() > kMaxValues) throw InputError(pos, name, "more than 100000 values");
  }
  return values;
}

SweepAxis parse_axis(const std::string& spec, const std::string& what) {
  const size_t eq = spec.find('=');
  const SourcePos pos{what, 0, 0};
  if (eq == std::string::npos || eq == 0) throw InputError(pos, spec, "expected NAME=VALUES (a,b,c or LO..HI[:+STEP|:xFACTOR])");
  SweepAxis a;
  a.name = spec.substr(0, eq);
  a.pos = pos;
  a.values = expand_values(spec.substr(eq + 1), {what + " " + spec, 0, 0}, "");
  return a;
}

void load_sweep_file(const std::string& path, SweepSpec& spec) {
  const std::string text = read_input_file(path, "sweep");
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError({path, e.mark.line + 1, e.mark.column + 1}, "", "YAML syntax: " + e.msg);
  }
  if (!root.IsMap()) throw InputError({path, 1, 1}, "", "a sweep file is a mapping (program:, parameters:, set:, configs:, ...)");
  spec.file = path;
  const std::string dir = std::filesystem::path(path).parent_path().string();
  auto scalar = [&](const YAML::Node& n, const std::string& key) {
    if (!n.IsScalar()) throw InputError(mark(path, n), key, "expected a single value");
    return n.Scalar();
  };
  auto axes = [&](const YAML::Node& n, const std::string& key, std::vector<SweepAxis>& out) {
    if (!n.IsMap()) throw InputError(mark(path, n), key, "expected a mapping of NAME: values");
    for (auto it = n.begin(); it != n.end(); ++it) {
      SweepAxis a;
      a.name = it->first.Scalar();
      a.pos = mark(path, it->second);
      const std::string k = key + "." + a.name;
      const YAML::Node values = it->second;
      if (values.IsSequence()) {
        for (size_t i = 0; i < values.size(); ++i) {
          const YAML::Node v = values[i];
          const std::vector<std::string> e = expand_values(scalar(v, k), mark(path, v), k);
          a.values.insert(a.values.end(), e.begin(), e.end());
        }
      } else {
        a.values = expand_values(scalar(it->second, k), a.pos, k);
      }
      if (a.values.empty()) throw InputError(a.pos, k, "no values");
      out.push_back(a);
    }
  };
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string key = it->first.Scalar();
    const YAML::Node v = it->second;
    if (key == "program") spec.program = resolve(dir, scalar(v, key));
    else if (key == "trace") spec.trace = resolve(dir, scalar(v, key));
    else if (key == "parameters") axes(v, key, spec.params);
    else if (key == "set") axes(v, key, spec.sets);
    else if (key == "config" || key == "configs") {
      spec.configs.clear();
      if (v.IsSequence()) {
        for (size_t i = 0; i < v.size(); ++i) spec.configs.push_back(resolve(dir, scalar(v[i], key)));
      } else {
        for (const std::string& c : split_commas(scalar(v, key))) spec.configs.push_back(resolve(dir, c));
      }
    } else if (key == "jobs" || key == "timeout" || key == "max_events") {
      long long n = 0;
      if (!parse_int(scalar(v, key), n) || n < (key == "timeout" ? 0 : 1))
        throw InputError(mark(path, v), key, "expected a whole number" + std::string(key == "timeout" ? " of seconds" : " >= 1"));
      if (key == "jobs") spec.jobs = unsigned(std::min(n, 4096LL));
      else if (key == "timeout") spec.timeout_s = double(n);
      else spec.max_events = uint64_t(n);
    } else if (key == "flush" || key == "precheck") {
      const std::string s = scalar(v, key);
      if (s != "true" && s != "false") throw InputError(mark(path, v), key, "expected true or false");
      (key == "flush" ? spec.flush : spec.precheck) = s == "true";
    } else if (key == "output") spec.output = resolve(dir, scalar(v, key));
    else if (key == "json_dir") spec.json_dir = resolve(dir, scalar(v, key));
    else
      throw InputError(mark(path, it->first), key,
                       "unknown key (expected program, trace, parameters, set, configs, jobs, timeout, max_events, flush, precheck, output, json_dir)");
  }
}

std::vector<SweepPoint> expand_points(const SweepSpec& spec) {
  std::vector<const SweepAxis*> axes;
  for (auto& a : spec.sets) axes.push_back(&a);
  for (auto& a : spec.params) axes.push_back(&a);
  size_t total = spec.configs.size();
  for (const SweepAxis* a : axes) {
    if (a->values.empty()) return {};
    if (total > 1000000 / a->values.size())
      throw InputError(a->pos, a->name, "the sweep has more than 1000000 points");
    total *= a->values.size();
  }
  std::vector<SweepPoint> points;
  points.reserve(total);
  for (size_t i = 0; i < total; ++i) {
    SweepPoint p;
    p.index = i;
    // The last axis varies fastest, configs slowest.
    size_t rest = i;
    std::vector<size_t> at(axes.size());
    for (size_t k = axes.size(); k-- > 0;) {
      at[k] = rest % axes[k]->values.size();
      rest /= axes[k]->values.size();
    }
    p.config = spec.configs[rest];
    p.spelled = "config=" + (p.config.empty() ? std::string("<default>") : p.config);
    for (size_t k = 0; k < axes.size(); ++k) {
      const bool is_set = k < spec.sets.size();
      auto& list = is_set ? p.sets : p.params;
      list.emplace_back(axes[k]->name, axes[k]->values[at[k]]);
      p.spelled += std::string(" ") + (is_set ? "set." : "") + axes[k]->name + "=" + axes[k]->values[at[k]];
    }
    p.key = p.spelled;  // until name_points resolves it
    points.push_back(std::move(p));
  }
  return points;
}

}  // namespace ptosim::cli
