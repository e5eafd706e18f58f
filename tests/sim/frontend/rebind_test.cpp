// A rebound name's old buffer makes way for the new one when the space
// cannot hold both (issue 26: `acc = acc + x` failed on its second
// iteration for any buffer over half its space).
#include "tests/sim/frontend/frontend_test_util.h"

namespace ptosim::test {

TEST(Rebind, AccumulatorOverHalfItsSpaceIsRebound) {
  // 40 KiB of the 64 KiB register file.
  ProgramRun r = run_text(
      "with pto.memory(\"register\"):\n"
      "    acc = pto.zeros([10240])\n"
      "    for i in range(3):\n"
      "        acc = acc + 1.0\n"
      "    print(acc[0], acc[10239])\n");
  EXPECT_EQ(r.out, "3.0 3.0\n");
}

TEST(Rebind, AnAliasKeepsTheOldBufferAlive) {
  std::string err = error_of(
      "with pto.memory(\"register\"):\n"
      "    acc = pto.zeros([10240])\n"
      "    keep = acc\n"
      "    acc = acc + 1.0\n");
  EXPECT_NE(err.find("cannot allocate 'acc' (40960 bytes) in space 'register'"), std::string::npos) << err;
}

}  // namespace ptosim::test
