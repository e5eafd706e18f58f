#include "sim/cli/commands.h"

#include "sim/common/atomic_file.h"
#include "sim/config/config_loader.h"

namespace ptosim::cli {

HwConfig load_config_or_default(const std::string& path) {
  return path.empty() ? default_config() : load_config_file(path);
}

void write_output(const std::string& path, const std::string& text) {
  AtomicFile f(path.empty() ? "-" : path);
  f.write(text);
  f.commit();
}

}  // namespace ptosim::cli
