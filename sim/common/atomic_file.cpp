#include "sim/common/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/common/error.h"

namespace ptosim {
namespace {

// `err` 0: the stream failed without saying why (errno was reset since).
[[noreturn]] void cannot_write(const std::string& path, int err = errno) {
  throw InputError({path, 0, 0}, "", std::string("cannot write output file: ") + (err ? std::strerror(err) : "write error"));
}

// The file a write to `path` lands in: a symbolic link's target (so that the
// rename replaces the target, not the link).
std::string resolved(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  if (char* real = ::realpath(path.c_str(), nullptr)) {
    std::string r(real);
    std::free(real);
    return r;
  }
  // A dangling link: its target, relative to the link's directory.
  std::string target(size_t(st.st_size > 0 ? st.st_size : 4096), '\0');
  const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
  if (n <= 0) return path;
  target.resize(size_t(n));
  const size_t slash = path.rfind('/');
  return target[0] == '/' || slash == std::string::npos ? target : path.substr(0, slash + 1) + target;
}

}  // namespace

AtomicFile::AtomicFile(const std::string& path) : path_(path) {
  if (path == "-") {
    f_ = stdout;
    return;
  }
  path_ = resolved(path);
  struct stat st;
  if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    // A device or a pipe (/dev/null, a FIFO): written in place; renaming
    // over it would replace the device with a file. A directory is refused.
    if (S_ISDIR(st.st_mode)) throw InputError({path, 0, 0}, "", "cannot write output file: it is a directory");
    f_ = std::fopen(path_.c_str(), "wb");
    if (!f_) cannot_write(path);
    return;
  }
  tmp_ = path_ + ".tmp." + std::to_string(::getpid());
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (!f_) cannot_write(path);
}

AtomicFile::~AtomicFile() {
  if (f_ && f_ != stdout) std::fclose(f_);
  if (!committed_ && !tmp_.empty()) std::remove(tmp_.c_str());
}

// A write that fails here (a full disk: the stream's buffer was flushed by
// it) is only reported by commit(): keep its reason until then.
void AtomicFile::write(const std::string& text) {
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), f_) != text.size() && !write_errno_) write_errno_ = errno;
}

void AtomicFile::commit() {
  if (f_ == stdout) {
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) cannot_write("<stdout>", write_errno_ ? write_errno_ : errno);
    committed_ = true;
    return;
  }
  errno = 0;
  const bool ok = std::ferror(f_) == 0 && std::fclose(f_) == 0;
  const int err = write_errno_ ? write_errno_ : errno;
  f_ = nullptr;
  if (!ok) cannot_write(path_, err);
  if (!tmp_.empty() && std::rename(tmp_.c_str(), path_.c_str()) != 0) cannot_write(path_);
  committed_ = true;
}

void write_output(const std::string& path, const std::string& text) {
  AtomicFile f(path.empty() ? "-" : path);
  f.write(text);
  f.commit();
}

void refuse_overwriting_inputs(const std::string& output, std::initializer_list<std::string> inputs) {
  struct stat o, i;
  if (output.empty() || output == "-" || ::stat(output.c_str(), &o) != 0 || !S_ISREG(o.st_mode)) return;
  for (const std::string& in : inputs)
    if (!in.empty() && in != "-" && ::stat(in.c_str(), &i) == 0 && i.st_dev == o.st_dev && i.st_ino == o.st_ino)
      throw InputError({output, 0, 0}, "", "is the input file " + in + ": not writing over it");
}

}  // namespace ptosim
