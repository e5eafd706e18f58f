#pragma once
// What every recipe test checks of its new choice besides its behaviour:
// a config naming something else fails with the registry's listing, which
// ends with the new name (the recipes register it with the highest rank).
#include <gtest/gtest.h>

#include <string>

#include "sim/common/registry.h"
#include "sim/config/config_loader.h"

namespace ptosim::test {

// `yaml` (as bad.yaml) must fail with "<where>: '<bad>' is not one of <listing of kind>",
// the listing ending with `name`.
inline void expect_listed_last(const std::string& yaml, const std::string& where, const std::string& bad,
                               const std::string& kind, const std::string& name) {
  const std::string listing = ChoiceLists::listing(kind);
  EXPECT_EQ(listing.substr(listing.size() - name.size() - 3), " | " + name);
  try {
    parse_config(yaml, "bad.yaml");
    ADD_FAILURE() << bad << " is accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "bad.yaml:" + where + ": '" + bad + "' is not one of " + listing);
  }
}

}  // namespace ptosim::test
