// The vendor table of `config host` (sim/config/host_vendor_cores.yaml) is
// data: it loads whole, every row cites its source, and a host finds its
// row by vendor, family and model, the last row taking every other host.
#include <gtest/gtest.h>

#include "sim/config/host_vendor_cores.h"

using namespace ptosim;

namespace {
HostFacts host(const std::string& vendor, int family, int model) {
  HostFacts f;
  f.vendor = vendor;
  f.family = family;
  f.model_number = model;
  return f;
}
}  // namespace

TEST(HostVendorCores, EveryRowLoadsWithItsSource) {
  const auto& rows = vendor_cores();
  ASSERT_EQ(rows.size(), 4u);
  for (const VendorCore& c : rows) {
    SCOPED_TRACE(c.name);
    EXPECT_GT(c.source.size(), 40u);  // a citation, not a word
    EXPECT_GT(c.issue_width, 0u);
    EXPECT_GT(c.l1_mshrs, 0u);
    EXPECT_GT(c.add[0], 0.0);
  }
}

TEST(HostVendorCores, AHostFindsItsRow) {
  EXPECT_EQ(vendor_core(host("AuthenticAMD", 25, 17)).name, "AMD Zen 4-class");  // Genoa
  EXPECT_EQ(vendor_core(host("AuthenticAMD", 26, 2)).name, "AMD Zen 4-class");   // Zen 5: no row of its own
  EXPECT_EQ(vendor_core(host("AuthenticAMD", 25, 1)).name, "AMD Zen 3");          // Milan
  EXPECT_EQ(vendor_core(host("AuthenticAMD", 25, 1)).rob, 256u);
  EXPECT_EQ(vendor_core(host("AuthenticAMD", 25, 1)).cache_latency[1], 12u);
  EXPECT_EQ(vendor_core(host("GenuineIntel", 6, 0xCF)).name, "Intel Golden Cove-class");  // Emerald Rapids
  EXPECT_EQ(vendor_core(host("GenuineIntel", 6, 0x55)).name, "Intel Skylake-class");      // Skylake-SP
  EXPECT_EQ(vendor_core(host("HygonGenuine", 24, 0)).name, "Intel Skylake-class");        // no row: the last
  EXPECT_EQ(vendor_core(host("GenuineIntel", 6, 0xCF)).rob, 512u);
  EXPECT_TRUE(vendor_core(host("AuthenticAMD", 25, 17)).prefetch[2].name.empty());  // none at the victim L3
}
