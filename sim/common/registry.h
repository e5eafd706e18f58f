#pragma once
// One name list per kind. An implementation (a replacement policy, a DRAM
// timing model, a prefetcher, a core model) registers itself by name in its
// own file with PTOSIM_REGISTER (below), as Ramulator 2's
// RAMULATOR_REGISTER_IMPLEMENTATION; the config loader asks the kind's list to
// validate a name and to list the choices, and the model asks the same list
// for the factory. The loader sits below the models (it may not include
// them), so the lists are kept by kind name here, where both can reach.
//
// Registration runs at static initialisation: the model libraries are
// linked whole (CMake `ptosim_link_whole`) so that no registering object is
// dropped by the linker; an empty list is reported as a build error at run
// time, never as a user error.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/common/error.h"

namespace ptosim {

// The concepts' names, used by the registrations and by the config loader.
namespace concepts {
inline constexpr char kReplacement[] = "replacement";
inline constexpr char kDramTiming[] = "dram timing";
inline constexpr char kPrefetcher[] = "prefetcher";
inline constexpr char kCoreModel[] = "core model";
}  // namespace concepts

// What the layers below the models may ask about a choice without linking
// it: a core model's need for dataflow (the producer then numbers events
// and emits their dependences, docs/TIMING.md).
namespace traits {
inline constexpr char kDataflow[] = "dataflow";
// A core model that times every access itself (the npu model's engines):
// no cache level issues runs of them on its behalf (CacheLevel::run).
inline constexpr char kEveryAccess[] = "every access";
// A prefetcher whose proposals stay within the read's line (Dinero IV's
// load_forward and subblock): the loader refuses a prefetch_distance
// longer than a line's sub-blocks, which would never prefetch.
inline constexpr char kWithinLine[] = "within line";
// A DRAM model whose peak bandwidth follows from its geometry (channels x
// bus width x data rate) rather than from `bandwidth:`, and that counts
// row-buffer outcomes (DramTiming::row_counts).
inline constexpr char kBanked[] = "banked";
// A replacement policy with the inclusion property (Mattson's stack
// algorithms): one pass of stack distances gives its misses at every size,
// so `pto-sim curves` is exact for it.
inline constexpr char kStackDistance[] = "stack distance";
// A prefetcher that never proposes a line (the level fetches on demand only).
inline constexpr char kNoProposals[] = "no proposals";
// A core model whose stores may request their line as its store queue
// drains (core.store_request), in an order that depends on timing.
inline constexpr char kStoreQueue[] = "store queue";
}  // namespace traits

// A choice's default for a key its concept shares (a stream prefetcher's
// prefetch_distance), declared in its registration line so that the loader
// asks the choice instead of switching on its name.
struct KeyDefault {
  std::string key;
  int64_t value = 0;
};

struct Choice {
  std::string name;
  std::string description;
  int rank = 0;  // listing order: the lowest first (the default leads)
  std::vector<std::string> traits = {};
  std::vector<KeyDefault> defaults = {};
};

// One item after a registration's factory: a trait (a string) or a key's
// default (`defaults_to("prefetch_distance", 16)`).
struct ChoiceTag {
  ChoiceTag(const char* trait) : trait(trait) {}  // NOLINT(google-explicit-constructor): the macro's list
  explicit ChoiceTag(KeyDefault d) : key_default(std::move(d)) {}
  std::string trait;
  KeyDefault key_default;
};
inline ChoiceTag defaults_to(const char* key, int64_t value) { return ChoiceTag(KeyDefault{key, value}); }

inline Choice make_choice(const char* name, const char* description, int rank, std::initializer_list<ChoiceTag> tags) {
  Choice c{name, description, rank};
  for (const ChoiceTag& t : tags) {
    if (!t.trait.empty()) c.traits.push_back(t.trait);
    else c.defaults.push_back(t.key_default);
  }
  return c;
}

class ChoiceLists {
 public:
  static void add(const std::string& kind, Choice c) {
    auto& list = lists()[kind];
    for (const Choice& e : list)
      if (e.name == c.name) throw std::logic_error(kind + " '" + c.name + "' is registered twice");
    list.push_back(std::move(c));
    std::stable_sort(list.begin(), list.end(), [](const Choice& a, const Choice& b) { return a.rank < b.rank; });
  }
  static const std::vector<Choice>& of(const std::string& kind) {
    auto it = lists().find(kind);
    if (it == lists().end() || it->second.empty())
      throw std::logic_error("no " + kind + " is registered: a model library was not linked whole");
    return it->second;
  }
  static bool has(const std::string& kind, const std::string& name) {
    for (const Choice& c : of(kind))
      if (c.name == name) return true;
    return false;
  }
  // Whether `name` of `kind` is registered with `trait`; false for a name
  // or kind nobody registered (a binary that links no models).
  static bool has_trait(const std::string& kind, const std::string& name, const std::string& trait) {
    auto it = lists().find(kind);
    if (it == lists().end()) return false;
    for (const Choice& c : it->second)
      if (c.name == name) return std::find(c.traits.begin(), c.traits.end(), trait) != c.traits.end();
    return false;
  }
  // The defaults `name` of `kind` declares for its concept's shared keys
  // (none for a name or kind nobody registered).
  static std::vector<KeyDefault> defaults(const std::string& kind, const std::string& name) {
    auto it = lists().find(kind);
    if (it != lists().end())
      for (const Choice& c : it->second)
        if (c.name == name) return c.defaults;
    return {};
  }
  // The choice a config gets without the key: the first in listing order
  // (each concept's default registers with rank 0), so that no layer below
  // the models spells it. "" when nothing of `kind` is registered (a binary
  // that links no model, or a section built before static initialisation
  // ran); such a name fails at the registry's lookup, never silently.
  static std::string default_name(const std::string& kind) {
    auto it = lists().find(kind);
    return it == lists().end() || it->second.empty() ? std::string() : it->second.front().name;
  }
  // Every kind with a registration, in name order (`pto-sim schema --choices`).
  static std::vector<std::string> kinds() {
    std::vector<std::string> k;
    for (const auto& [kind, list] : lists())
      if (!list.empty()) k.push_back(kind);
    return k;
  }
  // "a | b | c", the form every config error lists choices in.
  static std::string listing(const std::string& kind) {
    std::string s;
    for (const Choice& c : of(kind)) s += (s.empty() ? "" : " | ") + c.name;
    return s;
  }

 private:
  static std::map<std::string, std::vector<Choice>>& lists() {
    static std::map<std::string, std::vector<Choice>> l;
    return l;
  }
};

// The factories of one kind, by name. Factory is the kind's own
// callable type (a std::function or a function pointer).
template <class Factory>
class Registry {
 public:
  static Registry& instance() {
    static Registry r;
    return r;
  }
  // Returns true so that a registration can initialise a namespace-scope
  // constant; PTOSIM_REGISTER is its one caller.
  bool add(const char* kind, Choice choice, Factory make) {
    kind_ = kind;
    factories_.emplace(choice.name, std::move(make));
    ChoiceLists::add(kind, std::move(choice));
    return true;
  }
  // The factory of a name the config loader has validated; a name that is
  // not registered is an InputError at the config's position.
  const Factory& at(const std::string& name, const SourcePos& pos, const std::string& key) const {
    auto it = factories_.find(name);
    if (it == factories_.end())
      throw InputError(pos, key, "'" + name + "' is not one of " + ChoiceLists::listing(kind_));
    return it->second;
  }
  // Every registration, by name (a table built from them: the pto ops).
  const std::map<std::string, Factory>& all() const { return factories_; }

 private:
  std::string kind_;
  std::map<std::string, Factory> factories_;
};

}  // namespace ptosim

// The one way an implementation of an open concept registers itself: one
// line at the end of the file that implements it, inside that file's
// namespace (so the factory may name a class of an anonymous namespace).
//   Concept      the concept's tag, declared by its interface header beside
//                the contract: `Factory` (the factory type) and `kKind`
//                (the kind's name in listings and errors, concepts::).
//   Impl         an identifier, unique within the concept.
//   name, rank, description   the config name, the listing order (the
//                default is 0) and one line for `pto-sim schema` and errors.
//   factory      a Concept::Factory.
//   ...          the traits:: the layers below the models may ask about, and
//                defaults_to(key, value) for a shared key whose default is
//                the choice's own (ChoiceLists::defaults).
// The variable is inline: a registration in a header (a replacement policy)
// runs once however many files include it.
#define PTOSIM_REGISTER(Concept, Impl, name, rank, description, factory, ...)               \
  [[maybe_unused]] inline const bool Concept##_##Impl##_registered =                        \
      ::ptosim::Registry<Concept::Factory>::instance().add(                                 \
          Concept::kKind, ::ptosim::make_choice(name, description, rank, {__VA_ARGS__}), factory)
