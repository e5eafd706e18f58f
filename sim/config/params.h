#pragma once
// A model's config keys are declared where the model is implemented, as
// Ramulator 2's RAMULATOR_PARSE_PARAM: PTOSIM_PARAMS in the model's .cpp
// lists each key with its type, unit, range, meaning, a non-default example
// and how it reads and writes its field. The loader reads them, `config
// show` (to_yaml) writes them, `pto-sim schema --params` lists them and
// docs/CONFIG.md's table of model keys is that listing
// (scripts/gen-config-doc.sh), so a key lives in one place. The default is
// not written down: it is what a default-constructed section holds
// (hw_config.h), printed by the key's own format.
//
// The loader sits below the models and may not include them: as with the
// choice lists (sim/common/registry.h), the declarations register
// themselves at static initialisation into lists kept here, by section.
//
// What stays hand-written in the loader and to_yaml: the keys every model
// shares (a cache's size, a core's issue_width), the nested tables
// (core.op_timing, core.pipes, core.flops_per_cycle) and the checks that
// span keys (a within-line prefetcher's distance against the sub-blocks).
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/common/name_table.h"
#include "sim/common/time_limits.h"
#include "sim/common/units.h"

namespace ptosim {

struct CoreConfig;
struct CacheConfig;
struct PrefetchConfig;
struct DramConfig;

// What parsing a value may need beyond its text: the core clock (a
// bandwidth in B/cycle becomes B/s, a latency in cycles a time).
struct ParamContext {
  double clock_hz = 2e9;
};

template <class Cfg>
struct Param {
  std::string key;
  std::string type;   // what kind of value: count, bytes, time, cycles, choice, ... (schema)
  std::string unit;   // the unit a plain number is in ("" for none)
  std::string range;  // "1..256", the choices, or "" for any
  std::string concept_kind;  // whose choice reads it (concepts::k...)
  std::string owners;        // which registered choices read it ("detailed"; "stride, stream"; "every")
  std::string doc;
  std::string example;  // a valid value other than the default: the round-trip test sets it
  int rank = 0;         // order in its section, read and written (a key another depends on first)
  // Sets the field from the value's text; throws std::invalid_argument with
  // the reason, which the loader reports at the key's file:line.
  std::function<void(Cfg&, const std::string&, const ParamContext&)> parse;
  std::function<std::string(const Cfg&)> format;  // the value as config show writes it
  std::function<bool(const Cfg&)> shown;          // config show writes the key (null: always)

  // Whose key it is, what it means, a non-default example and its place:
  // every declaration says these, so in one call.
  Param&& about(std::string concept_kind_, std::string owners_, std::string doc_, std::string example_, int rank_) && {
    concept_kind = std::move(concept_kind_);
    owners = std::move(owners_);
    doc = std::move(doc_);
    example = std::move(example_);
    rank = rank_;
    return std::move(*this);
  }
  Param&& shown_when(std::function<bool(const Cfg&)> s) && {
    shown = std::move(s);
    return std::move(*this);
  }
  // The default: what a section holds before any key is read.
  std::string default_text() const { return format(Cfg{}); }
};

// Every key declared for one section, in rank order.
template <class Cfg>
class Params {
 public:
  static bool add(std::vector<Param<Cfg>> ps) {
    auto& l = list();
    for (Param<Cfg>& p : ps) {
      for (const Param<Cfg>& e : l)
        if (e.key == p.key) throw std::logic_error("config key '" + p.key + "' is declared twice");
      if (!p.parse || !p.format || p.doc.empty() || p.example.empty())
        throw std::logic_error("config key '" + p.key + "' is declared without its parse, format, doc or example");
      l.push_back(std::move(p));
    }
    std::stable_sort(l.begin(), l.end(), [](const Param<Cfg>& a, const Param<Cfg>& b) { return a.rank < b.rank; });
    return true;
  }
  static const std::vector<Param<Cfg>>& all() { return list(); }

 private:
  static std::vector<Param<Cfg>>& list() {
    static std::vector<Param<Cfg>> l;
    return l;
  }
};

// The section a key is written under, for the schema and the docs.
template <class Cfg> const char* param_section();
template <> inline const char* param_section<CoreConfig>() { return "core"; }
template <> inline const char* param_section<CacheConfig>() { return "caches[]"; }
template <> inline const char* param_section<PrefetchConfig>() { return "caches[]"; }
template <> inline const char* param_section<DramConfig>() { return "dram"; }

// Builders for the common kinds of value; a model with its own syntax (a
// DRAM data rate) writes parse and format itself.
namespace param {

inline std::string range_text(double lo, double hi) {
  return units::format_number(lo) + ".." + (hi < 4e18 ? units::format_number(hi) : std::string());
}

// A value with a syntax of its own (a DRAM data rate): its parse (throws
// std::invalid_argument) and format.
template <class Cfg>
Param<Cfg> custom(std::string key, std::string type, std::string unit, std::string range,
                  std::function<void(Cfg&, const std::string&, const ParamContext&)> parse,
                  std::function<std::string(const Cfg&)> format) {
  Param<Cfg> p;
  p.key = std::move(key);
  p.type = std::move(type);
  p.unit = std::move(unit);
  p.range = std::move(range);
  p.parse = std::move(parse);
  p.format = std::move(format);
  return p;
}

// A whole number in [lo, hi]; the counts that size the model's arrays have
// a maximum, so that a typo cannot ask for gigabytes.
template <class Cfg, class T>
Param<Cfg> count(std::string key, T Cfg::*field, double lo, double hi = 4e18) {
  Param<Cfg> p;
  p.key = std::move(key);
  p.type = "count";
  p.range = range_text(lo, hi);
  p.parse = [field, lo, hi](Cfg& c, const std::string& s, const ParamContext&) {
    const double v = units::parse_count(s);
    if (v != std::floor(v) || v < lo || v > hi)
      throw std::invalid_argument("expected a whole number " +
                                  (hi < 4e18 ? "from " + units::format_number(lo) + " to " + units::format_number(hi)
                                             : ">= " + units::format_number(lo)) +
                                  ", got '" + s + "'");
    c.*field = T(v);
  };
  p.format = [field](const Cfg& c) { return std::to_string(c.*field); };
  return p;
}

// A size in bytes ("4 KiB"), at most `hi`.
template <class Cfg, class T>
Param<Cfg> bytes(std::string key, T Cfg::*field, uint64_t hi = ~uint64_t(0)) {
  Param<Cfg> p;
  p.key = std::move(key);
  p.type = "bytes";
  p.unit = "B";
  if (hi != ~uint64_t(0)) p.range = "0.." + units::format_bytes(hi);
  p.parse = [field, hi](Cfg& c, const std::string& s, const ParamContext&) {
    const uint64_t v = units::parse_bytes(s);
    if (v > hi) throw std::invalid_argument("'" + s + "' is more than " + units::format_bytes(hi));
    c.*field = T(v);
  };
  p.format = [field](const Cfg& c) { return units::format_bytes(uint64_t(c.*field)); };
  return p;
}

// Core cycles ("5 cycles" or "5").
template <class Cfg, class T>
Param<Cfg> cycles(std::string key, T Cfg::*field) {
  Param<Cfg> p;
  p.key = std::move(key);
  p.type = "cycles";
  p.unit = "cycles";
  p.parse = [field](Cfg& c, const std::string& s, const ParamContext&) { c.*field = T(units::parse_cycles(s)); };
  p.format = [field](const Cfg& c) { return std::to_string(c.*field) + " cycles"; };
  return p;
}

// A time in ns ("80 ns", "1.5 us"), which the model counts in femtoseconds.
template <class Cfg>
Param<Cfg> time(std::string key, double Cfg::*field) {
  Param<Cfg> p;
  p.key = std::move(key);
  p.type = "time";
  p.unit = "ns";
  p.parse = [field](Cfg& c, const std::string& s, const ParamContext&) {
    const double v = units::parse_time_ns(s);
    time_limits::check_step(v * 1e6, "'" + s + "'", true);
    c.*field = v;
  };
  p.format = [field](const Cfg& c) { return units::format_time_ns(c.*field); };
  return p;
}

// A name from a closed table (sim/common/name_table.h).
template <class Cfg, class E, size_t N>
Param<Cfg> choice(std::string key, E Cfg::*field, const NameTable<E, N>& table) {
  Param<Cfg> p;
  p.key = std::move(key);
  p.type = "choice";
  p.range = table.listing();
  p.parse = [field, &table](Cfg& c, const std::string& s, const ParamContext&) {
    if (auto v = table.find(s)) c.*field = *v;
    else throw std::invalid_argument("'" + s + "' is not one of " + table.listing());
  };
  p.format = [field, &table](const Cfg& c) { return std::string(table.name(c.*field)); };
  return p;
}

}  // namespace param
}  // namespace ptosim

// PTOSIM_PARAMS(DramConfig, Detailed,
//               param::count("channels", &DramConfig::channels, 1, 256).about(...), ...):
// `Name` names the registration (an inline variable, so that a declaration
// in a header registers once however many files include it).
#define PTOSIM_PARAMS(Cfg, Name, ...)                                          \
  [[maybe_unused]] inline const bool ptosim_params_##Name =                     \
      ::ptosim::Params<::ptosim::Cfg>::add({__VA_ARGS__})
