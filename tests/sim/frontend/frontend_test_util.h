#pragma once
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "sim/frontend/run_text.h"
#include "tests/sim/frontend/test_config.h"

namespace ptosim::test {

// Counts events. A Fill (the write that initialises a read-only memory) is a
// write, as the hierarchy treats it; `fills` counts those writes separately.
struct CountingSink : EventSink {
  uint64_t reads = 0, writes = 0, fills = 0, read_bytes = 0, write_bytes = 0, flops = 0;
  uint64_t global_read_bytes = 0, global_write_bytes = 0;
  std::vector<Access> log;
  bool keep = false;
  void access(const Access& a) override {
    const bool write = a.kind == AccessKind::Write || a.kind == AccessKind::Fill;
    fills += a.kind == AccessKind::Fill;
    (write ? writes : reads)++;
    (write ? write_bytes : read_bytes) += a.bytes;
    if (a.space == kGlobalSpace) (write ? global_write_bytes : global_read_bytes) += a.bytes;
    if (keep) log.push_back(a);
    if (a.core < 4) ++by_core[a.core];
  }
  void barrier(bool parallel) override { barriers.push_back(parallel); }
  std::vector<Compute> computes;
  std::vector<bool> barriers;       // the `parallel` flag of each
  uint64_t by_core[4] = {0, 0, 0, 0};  // accesses of cores 0..3
  void compute(const Compute& c) override {
    flops += c.flops;
    computes.push_back(c);
  }
};

struct ProgramRun {
  ProgramResult result;
  std::string out;       // what `print` wrote
  std::string warnings;  // the `file:line:col: warning: ...` lines
  CountingSink sink;
};

// flat_loops false: every loop as its statement tree (sim/frontend/flat_loop.h).
inline ProgramRun run_text(const std::string& text, std::vector<std::pair<std::string, std::string>> defines = {},
                    uint64_t max_events = 2'000'000'000ull, bool keep = false, bool flat_loops = true) {
  ProgramRun r;
  std::ostringstream os, ws;
  ProgramOptions o;
  o.warning_stream = &ws;
  o.defines = std::move(defines);
  o.max_events = max_events;
  o.print_stream = &os;
  o.flat_loops = flat_loops;
  r.sink.keep = keep;
  r.result = run_program_text("t.pto", text, frontend_test_config(), o, &r.sink);
  r.out = os.str();
  r.warnings = ws.str();
  return r;
}

// Two runs made the same events in the same order: every access with its
// site and dependence, every compute with its flops, site and region.
inline void expect_same_events(const ProgramRun& x, const ProgramRun& y) {
  EXPECT_EQ(x.out, y.out);
  ASSERT_EQ(x.sink.log.size(), y.sink.log.size());
  for (size_t i = 0; i < x.sink.log.size(); ++i) {
    const Access &a = x.sink.log[i], &b = y.sink.log[i];
    ASSERT_TRUE(a.addr == b.addr && a.bytes == b.bytes && a.kind == b.kind && a.space == b.space &&
                a.tensor == b.tensor && a.region == b.region && a.site == b.site && a.dep == b.dep &&
                a.core == b.core)
        << "access " << i;
  }
  ASSERT_EQ(x.sink.computes.size(), y.sink.computes.size());
  for (size_t i = 0; i < x.sink.computes.size(); ++i) {
    EXPECT_EQ(x.sink.computes[i].flops, y.sink.computes[i].flops) << "compute " << i;
    EXPECT_EQ(x.sink.computes[i].site, y.sink.computes[i].site) << "compute " << i;
    EXPECT_EQ(x.sink.computes[i].region, y.sink.computes[i].region) << "compute " << i;
  }
  EXPECT_EQ(x.result.events, y.result.events);
}

// The text of the InputError a program raises ("" when it runs).
inline std::string error_of(const std::string& text, std::vector<std::pair<std::string, std::string>> defines = {},
                            uint64_t max_events = 2'000'000'000ull, bool flat_loops = true) {
  try {
    run_text(text, std::move(defines), max_events, false, flat_loops);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace ptosim::test
