#pragma once
// Where pto-sim tune's CPU goes, part by part: its probes' processes, its
// full runs', the count in its own process and the rest of its own. Tune is
// judged by the sum against the exhaustive sweep's CPU (issue 30 item 4),
// and which part to cut next is read off these figures
// (docs/notes/2026-12-07-tune6.md).
#include <map>
#include <string>

namespace ptosim::cli {

class TuneCpu {
 public:
  TuneCpu();
  // Adds the CPU (user + sys) that `run` took to `part`: the children's it
  // waited for when `children` (a sweep of points), else its own process's;
  // `runs` points. Returns what `run` returned.
  template <class F>
  auto charge(const std::string& part, bool children, size_t runs, F&& run) {
    const double before = seconds(children);
    struct Add {  // also when `run` throws
      TuneCpu& t;
      const std::string& part;
      bool children;
      size_t runs;
      double before;
      ~Add() { t.add(part, children, runs, seconds(children) - before); }
    } add{*this, part, children, runs, before};
    return run();
  }
  // "probes 0.36 s (4 runs), full runs 0.23 s (1), ... tune's own 0.05 s;
  // total 0.66 s", the parts in the order first charged.
  std::string summary() const;
  // CPU seconds (user + sys) of this process, or of its waited-for children.
  static double seconds(bool children);

 private:
  struct Part {
    double seconds = 0;
    size_t runs = 0;
    bool children = false;
    size_t order = 0;
  };
  void add(const std::string& part, bool children, size_t runs, double s);
  std::map<std::string, Part> parts_;
  double self_start_, children_start_;
};

}  // namespace ptosim::cli
