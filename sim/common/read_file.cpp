// Configs and programs are read whole before anything runs. A path may name
// a FIFO or a terminal as well as a file, and a read of one blocks until a
// writer comes; with SA_RESTART handlers (run_control) a blocked read()
// would swallow the first Ctrl-C. So anything but a regular file is read
// without blocking, in waits of 100 ms that look at the stop flag between
// them (a handler runs on whichever thread the kernel picks, so an
// interrupted call cannot be relied on).
#include "sim/common/read_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/common/error.h"
#include "sim/common/run_control.h"

namespace ptosim {

std::string read_input_file(const std::string& path, const std::string& what) {
  // O_NONBLOCK: opening a FIFO for reading would block until a writer opens it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw InputError({path, 0, 0}, "", "cannot open " + what + " file");
  struct Close {
    int fd;
    ~Close() { ::close(fd); }
  } close_fd{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw InputError({path, 0, 0}, "", "cannot open " + what + " file");
  if (S_ISDIR(st.st_mode)) throw InputError({path, 0, 0}, "", "cannot open " + what + " file: it is a directory");
  const bool regular = S_ISREG(st.st_mode);
  // Programs and configs are small; a device such as /dev/zero never ends.
  constexpr size_t kMaxBytes = size_t(16) << 20;
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    if (!regular) {
      pollfd p{fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, 100);
      if (const int sig = run_control::stop_signal()) throw run_control::Stopped(sig, path);
      if (ready < 0 && errno != EINTR)
        throw InputError({path, 0, 0}, "", "cannot read " + what + " file: " + std::strerror(errno));
      if (ready <= 0) continue;
    }
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n == 0) break;  // the end (a FIFO: polled ready with nothing left, so its writers are gone)
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw InputError({path, 0, 0}, "", "cannot read " + what + " file: " + std::strerror(errno));
    }
    text.append(chunk, size_t(n));
    if (text.size() > kMaxBytes) throw InputError({path, 0, 0}, "", what + " file larger than 16 MiB");
  }
  return text;
}

}  // namespace ptosim
