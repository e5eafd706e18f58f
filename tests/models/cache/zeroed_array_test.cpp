// ZeroedArray: its start values, and that a large one costs no page until
// it is touched (what makes a 32 MiB L3 free to build).
#include "models/cache/zeroed_array.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <vector>

namespace ptosim {
namespace {

// Resident bytes of this process (pages, not faults: with transparent
// huge pages a filled array faults once per 2 MiB but is resident all the same).
long resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long size = 0, resident = 0;
  statm >> size >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

TEST(ZeroedArray, StartsAsZeroOrAsTheValueGiven) {
  ZeroedArray<uint64_t> z(1000);
  ZeroedArray<uint32_t> v(1000, 7u), zv(1000, 0u), empty(0, 5u);
  ASSERT_EQ(z.size(), 1000u);
  for (size_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(z[i], 0u);
    EXPECT_EQ(v[i], 7u);
    EXPECT_EQ(zv[i], 0u);
  }
  EXPECT_EQ(empty.size(), 0u);
  v.fill(3);
  uint64_t sum = 0;
  for (uint32_t x : v) sum += x;
  EXPECT_EQ(sum, 3000u);
}

TEST(ZeroedArray, LargeArrayTouchesNoPageUntilUsed) {
  constexpr size_t kBytes = 64u << 20;
  {  // the measure sees a filled array: a std::vector's fill makes it resident
    const long before = resident_bytes();
    std::vector<uint64_t> filled(kBytes / 8, 0);
    EXPECT_GT(resident_bytes() - before, 48l << 20);
    EXPECT_EQ(filled[kBytes / 16], 0u);
  }
  const long before = resident_bytes();
  ZeroedArray<uint64_t> a(kBytes / 8, 0);
  // A filled std::vector of this size is resident whole; calloc's fresh
  // mapping is not (allow a few MiB: other threads, the allocator, a huge page).
  EXPECT_LT(resident_bytes() - before, 8l << 20);
  a[12345] = 1;
  a[kBytes / 8 - 1] = 2;
  EXPECT_EQ(a[12345] + a[kBytes / 8 - 1], 3u);
  EXPECT_LT(resident_bytes() - before, 12l << 20);
}

}  // namespace
}  // namespace ptosim
