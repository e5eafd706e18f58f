#include "sim/trace/data_check.h"

#include <cstdio>

namespace ptosim {

std::string hex_bytes(const uint8_t* p, uint64_t n, uint64_t from) {
  std::string s;
  char b[4];
  for (uint64_t i = from; i < n && i < from + 16; ++i) {
    std::snprintf(b, sizeof b, "%02x", p[i]);
    s += (s.empty() ? "" : " ") + std::string(b);
  }
  if (n > from + 16) s += " ...";
  return s;
}

std::string data_mismatch(const std::string& position, const std::string& what, const std::string& space, uint64_t addr,
                          uint64_t bytes, const std::string& served, const uint8_t* expected, const uint8_t* got) {
  const uint64_t d = first_difference(expected, got, bytes);
  // Shown from the 4-byte word of the first difference: one float32 value.
  const uint64_t from = d & ~uint64_t(3);
  char a[32], da[32];
  std::snprintf(a, sizeof a, "0x%llx", (unsigned long long)addr);
  std::snprintf(da, sizeof da, "0x%llx", (unsigned long long)(addr + d));
  std::string m = position + ": data check failed: " + what + " of " + std::to_string(bytes) + " bytes at " + a +
                  " (space " + space + ") served by " + served + ": expected " + hex_bytes(expected, bytes, from) +
                  ", got " + hex_bytes(got, bytes, from) + " (first difference at " + da;
  if (from) m += ", shown from byte " + std::to_string(from);
  return m + ")";
}

}  // namespace ptosim
