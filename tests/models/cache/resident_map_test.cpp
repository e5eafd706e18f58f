// ResidentMap grows with the lines it holds (a 2^24-way level used to build
// a 1 GiB table up front): every entry stays findable across the doublings,
// and erases (backward shift) keep working in a grown table.
#include "models/cache/resident_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>

namespace ptosim {
namespace {

TEST(ResidentMap, GrowsAndKeepsEveryEntry) {
  ResidentMap m(uint64_t(1) << 24);
  std::map<uint64_t, uint32_t> ref;
  uint64_t x = 88172645463325252ull;
  auto next = [&] {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    return x;
  };
  for (uint32_t i = 0; i < 200000; ++i) {
    const uint64_t line = next() % 1000000;
    if (ref.count(line)) {
      if (i % 3 == 0) {
        m.erase(line);
        ref.erase(line);
      }
      continue;
    }
    m.insert(line, i);
    ref[line] = i;
  }
  ASSERT_GT(ref.size(), 50000u);  // far past the first table's 1024 slots
  for (auto& [line, v] : ref) {
    const uint32_t* got = m.find(line);
    ASSERT_TRUE(got) << line;
    EXPECT_EQ(*got, v);
  }
  size_t listed = 0;
  m.for_each([&](uint64_t line, uint32_t v) {
    ++listed;
    EXPECT_EQ(ref.at(line), v);
  });
  EXPECT_EQ(listed, ref.size());
  for (uint64_t line = 1000000; line < 1001000; ++line) EXPECT_EQ(m.find(line), nullptr);
}

}  // namespace
}  // namespace ptosim
