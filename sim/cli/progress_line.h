#pragma once
// A run may last minutes: on a terminal, a line on stderr shows that it is
// moving (events done, simulated time, accesses/s, and an ETA when the size
// of the input is known). It appears only once the run has lasted 2 s, and
// not at all when stderr is not a terminal, unless forced (--progress).
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace ptosim::cli {

class ProgressLine {
 public:
  // force: print even when stderr is not a terminal (one line a second then).
  explicit ProgressLine(bool force);
  ~ProgressLine();  // stops and ends the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  void loop();
  void print(double elapsed_s);

  bool tty_;
  bool printed_ = false;
  bool done_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace ptosim::cli
