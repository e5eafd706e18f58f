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
// The keys that belong to no one model (a memory's, a cache level's, the
// core's issue_width, coherence's) are declared the same way, once, in
// sim/config/shared_keys.h, and so are the keys that pick a concept's
// model (param::registered). What stays hand-written in the loader and
// to_yaml: a section's identity and position-dependent keys (`name`, a
// level's `sharing`), the nested tables (core.op_timing, core.pipes,
// core.flops_per_cycle), the top level (clock, spaces, ops, alignment) and
// the checks that span keys (a within-line prefetcher's distance against
// the sub-blocks).
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/common/name_table.h"
#include "sim/common/registry.h"
#include "sim/common/time_limits.h"
#include "sim/common/units.h"

namespace ptosim {

struct CoreConfig;
struct CacheConfig;
struct PrefetchConfig;
struct DramConfig;
struct MemoryConfig;
struct CoherenceConfig;

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
  // Read before the section's other keys though written at its rank (the
  // key that picks the section's model, where config show always had it).
  bool read_first = false;
  // A concept whose registered names are the key's values: the schema lists
  // them when it prints (they register at static initialisation, in no
  // order relative to this declaration).
  std::string choices_of;
  // The default in words, for a key whose default is not a
  // default-constructed section's (a memory's kind follows its name).
  std::string default_doc;
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
  Param&& read_before_the_rest() && {
    read_first = true;
    return std::move(*this);
  }
  Param&& default_said(std::string d) && {
    default_doc = std::move(d);
    return std::move(*this);
  }
  // The default: what a section holds before any key is read.
  std::string default_text() const { return format(Cfg{}); }
  // The value the round-trip test sets. A key that picks a registered
  // choice declares none: its example is the first choice after the
  // default, read once every name has registered, so that no layer below
  // the models spells a registered name.
  std::string example_text() const {
    if (!example.empty() || choices_of.empty()) return example;
    const std::vector<Choice>& l = ChoiceLists::of(choices_of);
    return l[l.size() > 1 ? 1 : 0].name;
  }
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
      if (!p.parse || !p.format || p.doc.empty() || (p.example.empty() && p.choices_of.empty()))
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
template <> inline const char* param_section<MemoryConfig>() { return "memories[]"; }
template <> inline const char* param_section<CoherenceConfig>() { return "coherence"; }

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

// A size in bytes that the model keeps in 32 bits (a line, a bank's width).
template <class Cfg>
Param<Cfg> bytes32(std::string key, uint32_t Cfg::*field) {
  Param<Cfg> p = bytes(std::move(key), field);
  p.parse = [field](Cfg& c, const std::string& s, const ParamContext&) {
    const uint64_t v = units::parse_bytes(s);
    if (v > 0xffffffffu) throw std::invalid_argument("'" + s + "' is too large");
    c.*field = uint32_t(v);
  };
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

// A latency in cycles of the core clock, which the model counts in
// femtoseconds (so it must be one it can represent).
inline uint32_t parse_latency(const std::string& s, double clock_hz) {
  const uint32_t v = units::parse_cycles(s);
  time_limits::check_step(1e15 / clock_hz * v, "a latency of '" + s + "'", true);
  return v;
}
template <class Cfg>
Param<Cfg> latency(std::string key, uint32_t Cfg::*field) {
  Param<Cfg> p = cycles(std::move(key), field);
  p.parse = [field](Cfg& c, const std::string& s, const ParamContext& ctx) { c.*field = parse_latency(s, ctx.clock_hz); };
  return p;
}

// A port's bandwidth, kept in bytes per cycle of the core clock ("64
// B/cycle", or "140 GB/s" converted at the clock); positive, and one byte
// must take a time the model can represent.
inline double parse_port_bandwidth(const std::string& s, double clock_hz) {
  const double v = units::parse_bandwidth(s).bytes_per_cycle(clock_hz);
  if (!(v > 0)) throw std::invalid_argument("bandwidth '" + s + "' must be positive");
  time_limits::check_step(1e15 / clock_hz / v, "at '" + s + "' one byte");
  return v;
}
template <class Cfg>
Param<Cfg> port_bandwidth(std::string key, double Cfg::*field) {
  Param<Cfg> p;
  p.key = std::move(key);
  p.type = "bandwidth";
  p.unit = "B/cycle";
  p.parse = [field](Cfg& c, const std::string& s, const ParamContext& ctx) {
    c.*field = parse_port_bandwidth(s, ctx.clock_hz);
  };
  p.format = [field](const Cfg& c) { return units::format_number(c.*field) + " B/cycle"; };
  return p;
}

// true or false (also yes/no, on/off).
template <class Cfg>
Param<Cfg> flag(std::string key, bool Cfg::*field) {
  Param<Cfg> p;
  p.key = std::move(key);
  p.type = "bool";
  p.range = "true | false";
  p.parse = [field](Cfg& c, const std::string& s, const ParamContext&) {
    if (s == "true" || s == "yes" || s == "on") c.*field = true;
    else if (s == "false" || s == "no" || s == "off") c.*field = false;
    else throw std::invalid_argument("expected true or false, got '" + s + "'");
  };
  p.format = [field](const Cfg& c) { return std::string(c.*field ? "true" : "false"); };
  return p;
}

// A bool written as one of two names (`write_policy: write_back |
// write_through`), listed in the order given; `first` names `first_means`.
template <class Cfg>
Param<Cfg> two_names(std::string key, bool Cfg::*field, std::string first, std::string second, bool first_means = true) {
  Param<Cfg> p;
  p.key = std::move(key);
  p.type = "choice";
  p.range = first + " | " + second;
  p.parse = [field, first, second, first_means](Cfg& c, const std::string& s, const ParamContext&) {
    if (s != first && s != second) throw std::invalid_argument("'" + s + "' is not one of " + first + " | " + second);
    c.*field = (s == first) == first_means;
  };
  p.format = [field, first, second, first_means](const Cfg& c) { return c.*field == first_means ? first : second; };
  return p;
}

// A name registered for `kind` (sim/common/registry.h): a key that picks a
// model (core.model, dram.timing, a level's replacement and prefetcher).
// Its range, its default (the registry's, hw_config.h) and its example
// (example_text) come from the registry; the schema lists the choices.
template <class Cfg>
Param<Cfg> registered(std::string key, std::string Cfg::*field, const char* kind) {
  Param<Cfg> p;
  p.key = std::move(key);
  p.type = "choice";
  p.choices_of = kind;
  p.parse = [field, kind](Cfg& c, const std::string& s, const ParamContext&) {
    if (!ChoiceLists::has(kind, s)) throw std::invalid_argument("'" + s + "' is not one of " + ChoiceLists::listing(kind));
    c.*field = s;
  };
  p.format = [field](const Cfg& c) { return c.*field; };
  return p;
}

// A plain string (a memory's backing cache, checked against the config's
// caches once every section is read).
template <class Cfg>
Param<Cfg> text(std::string key, std::string Cfg::*field) {
  Param<Cfg> p;
  p.key = std::move(key);
  p.type = "name";
  p.parse = [field](Cfg& c, const std::string& s, const ParamContext&) { c.*field = s; };
  p.format = [field](const Cfg& c) { return c.*field; };
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
