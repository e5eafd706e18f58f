#pragma once
// FNV-1a (64 bit): the hash that identifies inputs in reports (program,
// trace, resolved config) and output tensors in pto.check. Not
// cryptographic: it tells runs apart, it does not defend against forgery.
#include <cstddef>
#include <cstdint>
#include <string>

namespace ptosim {

struct Fnv1a64 {
  uint64_t h = 14695981039346656037ull;
  void add(const void* data, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) {
      h ^= p[i];
      h *= 1099511628211ull;
    }
  }
  void add(const std::string& s) { add(s.data(), s.size()); }
  std::string hex() const;  // 16 lower-case hex digits
};

std::string hash_text(const std::string& text);  // "fnv1a64:<16 hex digits>"
// Of a file's bytes, read in chunks (traces may be large); "" when the path
// is "-" or cannot be read (the run itself reports that).
std::string hash_file(const std::string& path);

}  // namespace ptosim
