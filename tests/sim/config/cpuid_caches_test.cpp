// CPUID's cache levels (sim/config/cpuid_caches.h), which `config host`
// falls back to where sysfs has none: on x86 they exist and form a
// hierarchy the config loader accepts (L1 first, size = ways x line x sets).
#include "sim/config/cpuid_caches.h"

#include <gtest/gtest.h>

namespace ptosim {

TEST(CpuidCaches, LevelsAreAValidHierarchyOnX86) {
#if defined(__x86_64__) || defined(__i386__)
  const std::vector<HostCache> levels = cpuid_caches();
  ASSERT_FALSE(levels.empty());
  EXPECT_EQ(levels.front().level, 1);
  EXPECT_EQ(levels.front().type, "Data");
  for (size_t i = 0; i < levels.size(); ++i) {
    const HostCache& h = levels[i];
    EXPECT_GT(h.line, 0u);
    EXPECT_EQ(h.line & (h.line - 1), 0u) << "line " << h.line;
    ASSERT_GT(h.ways, 0u);
    EXPECT_EQ(h.size % (uint64_t(h.ways) * h.line), 0u) << "L" << h.level;
    EXPECT_LE(h.size, 256ull << 20) << "L" << h.level;
    if (i) {
      EXPECT_GT(h.level, levels[i - 1].level);
    }
    // A level is shared by at least the threads that share the one above
    // it (0: the legacy AMD leaves do not say).
    if (i && h.sharing_threads) {
      EXPECT_GE(h.sharing_threads, levels[i - 1].sharing_threads) << "L" << h.level;
    }
  }
#else
  GTEST_SKIP() << "CPUID is x86's";
#endif
}

}  // namespace ptosim
