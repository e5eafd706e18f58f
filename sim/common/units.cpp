#include "sim/common/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ptosim::units {
namespace {

// Splits "32 KiB" into 32 and "KiB"; the number must be finite and >= 0.
std::pair<double, std::string> split(const std::string& text, const char* what) {
  size_t i = 0;
  while (i < text.size() && std::isspace((unsigned char)text[i])) ++i;
  size_t start = i;
  while (i < text.size() && (std::isdigit((unsigned char)text[i]) || text[i] == '.' || text[i] == 'e' ||
                             text[i] == 'E' || ((text[i] == '+' || text[i] == '-') && i > start &&
                                                (text[i - 1] == 'e' || text[i - 1] == 'E'))))
    ++i;
  if (i == start) throw std::invalid_argument("expected " + std::string(what) + ", got '" + text + "'");
  std::string num = text.substr(start, i - start);
  char* end = nullptr;
  double v = std::strtod(num.c_str(), &end);
  if (end != num.c_str() + num.size() || !std::isfinite(v) || v < 0)
    throw std::invalid_argument("expected " + std::string(what) + ", got '" + text + "'");
  while (i < text.size() && std::isspace((unsigned char)text[i])) ++i;
  size_t u = i;
  size_t e = text.size();
  while (e > u && std::isspace((unsigned char)text[e - 1])) --e;
  return {v, text.substr(u, e - u)};
}

struct Unit {
  const char* name;
  double scale;
};

double scaled(const std::string& text, const std::vector<Unit>& table, const char* what, bool unit_optional) {
  auto [v, unit] = split(text, what);
  if (unit.empty() && unit_optional) return v;
  for (auto& u : table)
    if (unit == u.name) {
      if (!std::isfinite(v * u.scale)) throw std::invalid_argument("'" + text + "' is too large to represent");
      return v * u.scale;
    }
  std::string names;
  for (auto& u : table) names += std::string(names.empty() ? "" : ", ") + u.name;
  throw std::invalid_argument("bad unit '" + unit + "' in '" + text + "' (expected " + what + " in " + names + ")");
}

}  // namespace

uint64_t parse_bytes(const std::string& text) {
  static const std::vector<Unit> t = {{"B", 1},     {"KB", 1e3},           {"KiB", 1024.0},
                                      {"MB", 1e6},  {"MiB", 1048576.0},    {"GB", 1e9},
                                      {"GiB", 1073741824.0}, {"TB", 1e12}, {"TiB", 1099511627776.0}};
  double v = scaled(text, t, "a size", false);
  if (v != std::floor(v)) throw std::invalid_argument("size '" + text + "' is not a whole number of bytes");
  if (v >= 18446744073709551616.0) throw std::invalid_argument("size '" + text + "' does not fit in 64 bits");
  return (uint64_t)v;
}

double parse_frequency(const std::string& text) {
  static const std::vector<Unit> t = {{"Hz", 1}, {"kHz", 1e3}, {"KHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
  double v = scaled(text, t, "a frequency", false);
  if (v <= 0) throw std::invalid_argument("frequency '" + text + "' must be positive");
  return v;
}

double parse_time_ns(const std::string& text) {
  static const std::vector<Unit> t = {{"ps", 1e-3}, {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
  return scaled(text, t, "a time", false);
}

uint32_t parse_cycles(const std::string& text) {
  static const std::vector<Unit> t = {{"cycles", 1}, {"cycle", 1}};
  double v = scaled(text, t, "a cycle count", true);
  if (v != std::floor(v)) throw std::invalid_argument("cycle count '" + text + "' is not a whole number");
  if (v > 4e9) throw std::invalid_argument("cycle count '" + text + "' is more than 4e9");
  return (uint32_t)v;
}

double parse_count(const std::string& text) {
  auto [v, unit] = split(text, "a number");
  if (!unit.empty()) throw std::invalid_argument("expected a plain number, got '" + text + "'");
  return v;
}

Bandwidth parse_bandwidth(const std::string& text) {
  static const std::vector<Unit> per_s = {{"B/s", 1},     {"KB/s", 1e3},        {"KiB/s", 1024.0},
                                          {"MB/s", 1e6},  {"MiB/s", 1048576.0}, {"GB/s", 1e9},
                                          {"GiB/s", 1073741824.0}, {"TB/s", 1e12}, {"TiB/s", 1099511627776.0}};
  static const std::vector<Unit> per_cycle = {{"B/cycle", 1}, {"B/cyc", 1}, {"bytes/cycle", 1}};
  auto [v, unit] = split(text, "a bandwidth");
  for (auto& u : per_cycle)
    if (unit == u.name) return {v, true};
  for (auto& u : per_s)
    if (unit == u.name) {
      if (!std::isfinite(v * u.scale)) throw std::invalid_argument("'" + text + "' is too large to represent");
      return {v * u.scale, false};
    }
  throw std::invalid_argument("bad unit '" + unit + "' in '" + text +
                              "' (expected a bandwidth such as '64 B/cycle' or '140 GB/s')");
}

std::string format_number(double v) {
  char buf[64];
  // Whole numbers in plain digits ("40", not the shortest "4e+01").
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  // %g writes 80 as "8e+01": people read (and configs write) "80", so plain
  // decimals are used wherever they stay short.
  const double a = std::fabs(v);
  if (std::strchr(buf, 'e') && a >= 1e-4 && a < 1e17) {
    for (int decimals = 0; decimals <= 20; ++decimals) {
      std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
      if (std::strtod(buf, nullptr) == v) break;
    }
  }
  return buf;
}

std::string format_time_ns(double ns) {
  // The largest unit in which the value is at least 1 and still exact, so that
  // parse_time_ns(format_time_ns(x)) == x: "80 ns", "1.5 us", "500 ps".
  static const std::pair<const char*, double> t[] = {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}};
  for (auto& [name, scale] : t) {
    if (ns < scale || scale == 1) continue;
    const std::string s = format_number(ns / scale);
    if (std::strtod(s.c_str(), nullptr) * scale == ns) return s + " " + name;
  }
  if (ns > 0 && ns < 1) {
    const std::string s = format_number(ns * 1e3);
    if (std::strtod(s.c_str(), nullptr) * 1e-3 == ns) return s + " ps";
  }
  return format_number(ns) + " ns";
}

std::string format_bytes(uint64_t bytes) {
  static const std::pair<const char*, uint64_t> t[] = {
      {"TiB", 1ull << 40}, {"GiB", 1ull << 30}, {"MiB", 1ull << 20}, {"KiB", 1ull << 10}};
  for (auto& [name, scale] : t) {
    // Only use a unit where the value is exact to a few binary places, so that
    // printing and re-parsing gives the same byte count.
    if (bytes >= scale && (bytes * 4) % scale == 0) return format_number((double)bytes / scale) + " " + name;
  }
  return std::to_string(bytes) + " B";
}

std::string format_frequency(double hz) {
  if (hz >= 1e9) return format_number(hz / 1e9) + " GHz";
  if (hz >= 1e6) return format_number(hz / 1e6) + " MHz";
  return format_number(hz) + " Hz";
}

}  // namespace ptosim::units
