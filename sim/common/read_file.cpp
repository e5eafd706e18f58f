#include "sim/common/read_file.h"

#include <filesystem>
#include <fstream>

#include "sim/common/error.h"

namespace ptosim {

std::string read_input_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError({path, 0, 0}, "", "cannot open " + what + " file: it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0}, "", "cannot open " + what + " file");
  // Programs and configs are small; a device such as /dev/zero never ends.
  constexpr size_t kMaxBytes = size_t(16) << 20;
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, size_t(in.gcount()));
    if (text.size() > kMaxBytes) throw InputError({path, 0, 0}, "", what + " file larger than 16 MiB");
  }
  return text;
}

}  // namespace ptosim
