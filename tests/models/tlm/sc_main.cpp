// SystemC test binaries need sc_main; each test runs in its own process
// (gtest_discover_tests), because a process elaborates one simulation.
#include <gtest/gtest.h>
#include <systemc>

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
