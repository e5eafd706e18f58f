#include "sim/cli/progress_line.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "sim/common/run_control.h"

namespace ptosim::cli {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kQuietSeconds = 2.0;

std::string si(double v, const char* unit) {
  const char* prefix[] = {"", "k", "M", "G", "T"};
  int p = 0;
  while (v >= 1000 && p < 4) { v /= 1000; ++p; }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f %s%s", v, prefix[p], unit);
  return buf;
}

std::string sim_time(double fs) {
  const char* names[] = {"fs", "ps", "ns", "us", "ms", "s"};
  int k = 0;
  while (fs >= 1000 && k < 5) { fs /= 1000; ++k; }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %s", fs, names[k]);
  return buf;
}

}  // namespace

ProgressLine::ProgressLine(bool force) : tty_(::isatty(STDERR_FILENO) == 1) {
  if (!tty_ && !force) return;
  thread_ = std::thread([this] { loop(); });
}

ProgressLine::~ProgressLine() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_one();
  thread_.join();
  if (printed_ && tty_) std::fputs("\r\033[K", stderr);  // the report follows on a clean line
}

void ProgressLine::loop() {
  const Clock::time_point start = Clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    // A terminal line is redrawn in place four times a second; a file or a
    // pipe gets a full line every second.
    wake_.wait_for(lock, std::chrono::milliseconds(tty_ ? 250 : 1000), [this] { return done_; });
    if (done_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (elapsed >= kQuietSeconds) print(elapsed);
  }
}

void ProgressLine::print(double elapsed) {
  run_control::Counters& c = run_control::counters();
  const double events = double(c.events.load()), accesses = double(c.accesses.load());
  std::string line = "pto-sim: " + si(events, "events") + ", " + sim_time(double(c.sim_fs.load())) + " simulated, " +
                     si(accesses / elapsed, "accesses/s");
  const double total = double(c.input_total.load()), done = double(c.input_done.load());
  if (total > 0 && done > 0) {
    const long eta = long((total - done) / (done / elapsed) + 0.5);
    char buf[64];
    std::snprintf(buf, sizeof buf, ", %.0f%%, ETA %ld:%02ld", 100.0 * done / total, eta / 60, eta % 60);
    line += buf;
  }
  if (tty_) std::fprintf(stderr, "\r%s\033[K", line.c_str());
  else std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
  printed_ = true;
}

}  // namespace ptosim::cli
