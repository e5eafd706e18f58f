// check_report_types against the shipped golden reports (none may be refused)
// and against the malformed reports that once crashed `compare`.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "sim/common/error.h"
#include "sim/report/report_check.h"

namespace ptosim::test {
namespace {

using nlohmann::json;

json golden() {
  std::ifstream f(PTOSIM_SOURCE_DIR "/tests/golden/matmul_tiled__default.json");
  return json::parse(f);
}

std::string refusal(const json& r) {
  try {
    check_report_types(r, "r.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ReportCheck, EveryGoldenReportPasses) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(PTOSIM_SOURCE_DIR "/tests/golden")) {
    if (e.path().extension() != ".json") continue;
    std::ifstream f(e.path());
    EXPECT_EQ(refusal(json::parse(f)), "") << e.path();
    ++n;
  }
  EXPECT_GT(n, 10);
}

TEST(ReportCheck, WrongTypesNameTheirKey) {
  json r = golden();
  r["levels"] = json::array({1, 2});
  EXPECT_EQ(refusal(r), "r.json: levels[0]: is 1, expected an object");
  r = golden();
  r["levels"][1]["name"] = 7;
  EXPECT_EQ(refusal(r), "r.json: levels[1].name: is 7, expected a string (pto-sim schema)");
  r = golden();
  r["levels"] = "nope";
  EXPECT_EQ(refusal(r), "r.json: levels: is \"nope\", expected an array (pto-sim schema)");
  r = golden();
  r["levels"] = json::object();
  EXPECT_EQ(refusal(r), "r.json: levels: is {}, expected an array (pto-sim schema)");
  r = golden();
  r["cycles"] = nullptr;
  EXPECT_EQ(refusal(r), "r.json: cycles: is null, expected an integer (pto-sim schema)");
  r = golden();
  r["levels"][0]["read_misses"] = "many";
  EXPECT_NE(refusal(r).find("r.json: levels[0].read_misses: is \"many\", expected an integer"), std::string::npos);
}

TEST(ReportCheck, LenientWhereReportsLegitimatelyVary) {
  json r = golden();
  r["levels"][0]["miss_rate"] = nullptr;  // NaN as JSON writes it
  r["cycles"] = 2e9;                      // a count rendered from a double
  r["parameters"] = {{"TM", 16}, {"name", "x"}};
  r["a_key_of_a_newer_pto_sim"] = json::array({1, "x"});
  EXPECT_EQ(refusal(r), "");
}

}  // namespace
}  // namespace ptosim::test
