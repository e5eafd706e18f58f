// The counting behind tune_length.h: a sink that counts events and unwinds
// the program (pipe::Abandoned, as a stopped run's BatchSink does) from an
// access once past the cap.
#include "sim/cli/tune_length.h"

#include <algorithm>
#include <exception>
#include <ostream>
#include <streambuf>

#include "sim/frontend/frontend.h"
#include "sim/trace/chunk_ring.h"

namespace ptosim::cli {
namespace {

class CountingSink final : public EventSink {
 public:
  explicit CountingSink(uint64_t cap) : cap_(cap) {}
  // Only an access throws: compute events also come from places that must
  // not (an op's end, in a destructor), and after the throw nothing does.
  void access(const Access&) override {
    if (stopped_) return;
    if (++events_ > cap_) {
      stopped_ = true;
      throw pipe::Abandoned();
    }
  }
  void compute(const Compute&) override { ++events_; }
  uint64_t events() const { return events_; }

 private:
  uint64_t cap_, events_ = 0;
  bool stopped_ = false;
};

// The program's `print`s and warnings: a probe's business, not tune's.
struct NullBuf : std::streambuf {
  int overflow(int c) override { return c; }
};

}  // namespace

uint64_t compute_events_upto(const std::string& program, const HwConfig& config,
                             const std::vector<std::pair<std::string, std::string>>& defines, uint64_t cap) {
  NullBuf nothing;
  std::ostream null(&nothing);
  ProgramOptions o;
  o.defines = defines;
  o.values = false;
  o.print_stream = &null;
  o.warning_stream = &null;
  CountingSink sink(cap);
  try {
    run_program(program, config, o, &sink);
  } catch (const pipe::Abandoned&) {
    return cap + 1;
  } catch (const std::exception&) {
    return cap + 1;
  }
  return std::min(sink.events(), cap + 1);
}

}  // namespace ptosim::cli
