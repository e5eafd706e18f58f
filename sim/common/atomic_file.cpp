#include "sim/common/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/common/error.h"

namespace ptosim {

AtomicFile::AtomicFile(const std::string& path) : path_(path) {
  if (path == "-") {
    f_ = stdout;
    return;
  }
  tmp_ = path + ".tmp." + std::to_string(::getpid());
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (!f_) throw InputError({path, 0, 0}, "", std::string("cannot write output file: ") + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (f_ && f_ != stdout) std::fclose(f_);
  if (!committed_ && !tmp_.empty()) std::remove(tmp_.c_str());
}

void AtomicFile::write(const std::string& text) { std::fwrite(text.data(), 1, text.size(), f_); }

void AtomicFile::commit() {
  if (f_ == stdout) {
    std::fflush(stdout);
    committed_ = true;
    return;
  }
  const bool ok = std::ferror(f_) == 0 && std::fclose(f_) == 0;
  f_ = nullptr;
  if (!ok || std::rename(tmp_.c_str(), path_.c_str()) != 0)
    throw InputError({path_, 0, 0}, "", std::string("cannot write output file: ") + std::strerror(errno));
  committed_ = true;
}

}  // namespace ptosim
