#pragma once
// A closed set of choices (a memory's kind, a write policy, ...) named once:
// the enum's values, their config names and what they mean sit in one table
// (DRAMSys-style), which parses a name, prints one and lists the choices for
// errors and docs. Open sets that implementations extend use registry.h.
#include <array>
#include <cstddef>
#include <optional>
#include <string>

namespace ptosim {

template <class E>
struct NameEntry {
  E value;
  const char* name;
  const char* description;
};

template <class E, size_t N>
struct NameTable {
  std::array<NameEntry<E>, N> entries;

  std::optional<E> find(const std::string& name) const {
    for (const auto& e : entries)
      if (name == e.name) return e.value;
    return std::nullopt;
  }
  const char* name(E value) const {
    for (const auto& e : entries)
      if (e.value == value) return e.name;
    return "?";
  }
  // "a | b | c", the form config errors list choices in.
  std::string listing() const {
    std::string s;
    for (const auto& e : entries) s += (s.empty() ? "" : " | ") + std::string(e.name);
    return s;
  }
};

template <class E, size_t N>
NameTable(const NameEntry<E> (&)[N]) -> NameTable<E, N>;

}  // namespace ptosim
