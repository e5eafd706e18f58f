#include "sim/common/read_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/common/error.h"

namespace ptosim {

std::string read_input_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError({path, 0, 0}, "", "cannot open " + what + " file: it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0}, "", "cannot open " + what + " file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace ptosim
