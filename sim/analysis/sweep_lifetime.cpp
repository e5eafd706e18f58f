// See sweep_lifetime.h: the sweep's children die with it, and its
// temporary folder is reclaimed by the next sweep once it is dead.
#include "sim/analysis/sweep_lifetime.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "sim/common/error.h"

extern char** environ;

namespace ptosim::cli {
namespace {

namespace fs = std::filesystem;
constexpr const char* kParentVar = "PTOSIM_SWEEP_PARENT";
constexpr const char* kTunablesVar = "GLIBC_TUNABLES";
constexpr const char* kPrefix = "pto-sim-sweep-";
constexpr const char* kLock = ".lock";

// Whether `dir` is a dead sweep's folder (see make_sweep_temp_dir). A held
// lock is a live sweep's; taking it proves the owner gone, and it is kept
// (the fd stays open) while the folder is removed.
bool dead_sweep_dir(const fs::path& dir, int* lock_fd) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) return false;
  const int fd = ::open((dir / kLock).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;  // no lock: an older pto-sim's, perhaps still running
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return false;
  }
  *lock_fd = fd;
  return true;
}

void reclaim_dead_sweep_dirs(const fs::path& tmp) {
  std::error_code ec;
  for (fs::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(kPrefix, 0) != 0) continue;
    int fd = -1;
    if (!dead_sweep_dir(it->path(), &fd)) continue;
    std::error_code rm;
    fs::remove_all(it->path(), rm);
    if (fd >= 0) ::close(fd);
  }
}

}  // namespace

std::vector<std::string> sweep_child_environment() {
  std::vector<std::string> env;
  std::string tunables;  // GLIBC_TUNABLES' value, if set
  auto named = [](const char* e, const char* var) {
    return std::strncmp(e, var, std::strlen(var)) == 0 && e[std::strlen(var)] == '=';
  };
  for (char** e = environ; *e; ++e)
    if (named(*e, kTunablesVar)) tunables = *e + std::strlen(kTunablesVar) + 1;
    else if (!named(*e, kParentVar)) env.emplace_back(*e);
  env.push_back(std::string(kParentVar) + "=" + std::to_string(::getpid()));
  // Transparent huge pages for malloc's arenas (glibc 2.35+; an older glibc
  // ignores the name): a point's caches and 3C shadows are tens of MiB
  // touched once, and on a VM their 4 KiB page faults were a third of a short
  // point's CPU (attention L=512 on the Xeon config: TQ=16's probe 0.17 to
  // 0.085 s, TQ=128's whole run 0.51 to 0.32 s, user + sys; the same
  // report). The user's own setting of it wins.
  if (tunables.find("glibc.malloc.hugetlb") == std::string::npos)
    tunables += std::string(tunables.empty() ? "" : ":") + "glibc.malloc.hugetlb=1";
  env.push_back(std::string(kTunablesVar) + "=" + tunables);
  return env;
}

void watch_sweep_parent() {
  const char* v = std::getenv(kParentVar);
  if (!v) return;
  const pid_t parent = pid_t(std::atol(v));
  ::unsetenv(kParentVar);  // not for anything this process starts
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  // The sweep may have died between starting this process and the request:
  // then no signal comes, and the parent is init (or a subreaper) already.
  if (::getppid() != parent) std::_Exit(128 + SIGTERM);
}

std::string make_sweep_temp_dir() {
  const fs::path tmp = fs::temp_directory_path();
  reclaim_dead_sweep_dirs(tmp);
  std::string templ = (tmp / (std::string(kPrefix) + "XXXXXX")).string();
  if (!::mkdtemp(templ.data()))
    throw InputError(std::string("pto-sim sweep: cannot create a temporary directory: ") + std::strerror(errno));
  // Not inherited by the children (O_CLOEXEC): the lock is this process's alone.
  const int fd = ::open((fs::path(templ) / kLock).c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0 || ::flock(fd, LOCK_EX) != 0)
    throw InputError(std::string("pto-sim sweep: cannot lock the temporary directory: ") + std::strerror(errno));
  // Held until the process ends: the fd is deliberately never closed.
  return templ;
}

}  // namespace ptosim::cli
