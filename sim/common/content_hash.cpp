#include "sim/common/content_hash.h"

#include <cstdio>
#include <fstream>

namespace ptosim {

std::string Fnv1a64::hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
  return buf;
}

std::string hash_text(const std::string& text) {
  Fnv1a64 f;
  f.add(text);
  return "fnv1a64:" + f.hex();
}

std::string hash_file(const std::string& path) {
  if (path.empty() || path == "-") return "";
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  Fnv1a64 f;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) f.add(chunk, size_t(in.gcount()));
  return "fnv1a64:" + f.hex();
}

}  // namespace ptosim
