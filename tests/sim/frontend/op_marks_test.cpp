// The timeline draws each op call as a slice of its own, so the producer
// must say exactly where an op's events begin and end, with the op's name,
// on the op's core — and say nothing unless asked (the pipe carries it).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "sim/frontend/run_text.h"
#include "tests/sim/frontend/test_config.h"

namespace ptosim::test {
namespace {

// The stream as a string: "r" / "w" per access, "c" per compute,
// "[name" / "]name" per op mark.
struct MarkSink : EventSink {
  std::string log;
  std::vector<std::string> names{""};
  void access(const Access& a) override { log += a.kind == AccessKind::Write ? "w" : "r"; }
  void compute(const Compute&) override { log += "c"; }
  void name_op(uint16_t id, const std::string& name) override {
    if (id >= names.size()) names.resize(id + 1);
    names[id] = name;
  }
  void op_mark(uint16_t id, bool begin, CoreId core) override {
    log += (begin ? "[" : "]") + names.at(id) + (core ? "@" + std::to_string(core) : "") + " ";
  }
};

std::string marks(const std::string& text, bool on) {
  MarkSink s;
  std::ostringstream os;
  ProgramOptions o;
  o.print_stream = &os;
  o.op_marks = on;
  run_program_text("t.pto", text, frontend_test_config(), o, &s);
  return s.log;
}

const char* kProgram =
    "A = pto.ones([2, 4])\n"
    "x = A[0, 0] * 2.0\n"
    "B = pto.exp(A)\n"
    "y = B[1, 1] + x\n";

TEST(OpMarks, BracketEachOpsEventsAndNameIt) {
  // pto.ones writes its two rows; the scalar multiply's batch is handed
  // over before pto.exp begins (not among its events), the add's at the end.
  EXPECT_EQ(marks(kProgram, true), "[pto.ones ww]pto.ones rc[pto.exp rwrwc]pto.exp rc");
}

TEST(OpMarks, NoneUnlessAsked) {
  // The same events in the same order: the marks change nothing else.
  EXPECT_EQ(marks(kProgram, false), "wwrcrwrwcrc");
}

}  // namespace
}  // namespace ptosim::test
