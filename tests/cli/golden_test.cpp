// Shipped scenarios and the schema doc as golden files (regenerate: tools/update_golden.sh, then
// review the diff).
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

namespace fs = std::filesystem;

TEST(Golden, EveryShippedScenarioResolvesAsRecorded) {
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(CODESIM_SOURCE_DIR "/scenarios")) {
    if (entry.path().extension() != ".yaml") {
      continue;
    }
    const std::string stem = entry.path().stem().string();
    const auto r = run_codesim("check scenarios/" + stem + ".yaml");
    EXPECT_EQ(r.exit_code, 0) << stem << ": " << r.err;
    EXPECT_EQ(r.out, read_source_file("tests/golden/" + stem + ".check.yaml")) << stem;
    ++checked;
  }
  EXPECT_GE(checked, 1);
}

TEST(Golden, SchemaDocIsGeneratedFromTheTable) {
  const auto r = run_codesim("describe --format md");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, read_source_file("scenarios/SCHEMA.md"));
}

TEST(Golden, CheckJsonCarriesSchemaVersionAndBaseUnits) {
  const auto r = run_codesim("check scenarios/deepseek-v3-h800-mpft.yaml --format json");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("\"schema_version\": 1"), std::string::npos);
  EXPECT_NE(r.out.find("\"nvlink_bandwidth\": 160000000000.0"), std::string::npos);  // B/s
  EXPECT_NE(r.out.find("\"nic_bandwidth\": 50000000000.0"), std::string::npos);      // 400 Gb/s
}

}  // namespace
}  // namespace codesim::testing
