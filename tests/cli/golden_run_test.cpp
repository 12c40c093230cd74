// The main job on the shipped scenarios: `codesim run` against golden reports (numbers within a
// relative 1e-9, strings exact; regenerate with tools/update_golden.sh and review the diff), and
// DeepSeek-V3's overlapped pair against the calibrated replay of DeepSeek's profile trace. Slow
// (the full 2048-GPU step takes ~30 s here): label "slow", not run under the sanitizers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void expect_same(const json& got, const json& want, const std::string& path) {
  if (want.is_number() && got.is_number()) {
    const double a = got.get<double>();
    const double b = want.get<double>();
    EXPECT_LE(std::abs(a - b), 1e-9 * std::max(1.0, std::abs(b))) << path;
  } else if (want.is_object() && got.is_object()) {
    EXPECT_EQ(got.size(), want.size()) << path;
    for (const auto& [k, v] : want.items()) {
      ASSERT_TRUE(got.contains(k)) << path << "." << k;
      expect_same(got[k], v, path + "." + k);
    }
  } else if (want.is_array() && got.is_array()) {
    ASSERT_EQ(got.size(), want.size()) << path;
    for (std::size_t i = 0; i < want.size(); ++i) {
      expect_same(got[i], want[i], path + "[" + std::to_string(i) + "]");
    }
  } else {
    EXPECT_EQ(got, want) << path;
  }
}

// The stems of tests/golden/*<suffix>, sorted.
std::vector<std::string> golden_stems(const std::string& suffix) {
  std::vector<std::string> stems;
  for (const auto& entry : fs::directory_iterator(CODESIM_SOURCE_DIR "/tests/golden")) {
    const std::string name = entry.path().filename().string();
    if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix) {
      stems.push_back(name.substr(0, name.size() - suffix.size()));
    }
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

// Scenarios with a recorded run: one test each, so they run side by side.
std::vector<std::string> golden_runs() {
  return golden_stems(".run.json");
}

class GoldenRun : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenRun, ShippedScenarioReportsAsRecorded) {
  const std::string stem = GetParam();
  const auto r = run_codesim("run scenarios/" + stem + ".yaml --format json");
  ASSERT_EQ(r.exit_code, 0) << stem << ": " << r.err;
  expect_same(json::parse(r.out),
              json::parse(read_source_file("tests/golden/" + stem + ".run.json")), stem);
}

// gtest names allow letters, digits and underscores only.
std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param;
  std::replace_if(
      n.begin(), n.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return n;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, GoldenRun, ::testing::ValuesIn(golden_runs()), test_name);

// Serving scenarios (a serve: section): `codesim serve` as recorded.
class GoldenServe : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenServe, ShippedServingScenarioReportsAsRecorded) {
  const std::string stem = GetParam();
  const auto r = run_codesim("serve scenarios/" + stem + ".yaml --format json");
  ASSERT_EQ(r.exit_code, 0) << stem << ": " << r.err;
  expect_same(json::parse(r.out),
              json::parse(read_source_file("tests/golden/" + stem + ".serve.json")), stem);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, GoldenServe, ::testing::ValuesIn(golden_stems(".serve.json")),
                         test_name);

// Campaign scenarios (a campaign: section): `codesim campaign` as recorded.
class GoldenCampaign : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenCampaign, ShippedCampaignReportsAsRecorded) {
  const std::string stem = GetParam();
  const auto r = run_codesim("campaign scenarios/" + stem + ".yaml --format json");
  ASSERT_EQ(r.exit_code, 0) << stem << ": " << r.err;
  expect_same(json::parse(r.out),
              json::parse(read_source_file("tests/golden/" + stem + ".campaign.json")), stem);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, GoldenCampaign,
                         ::testing::ValuesIn(golden_stems(".campaign.json")), test_name);

// Sweeps of campaign keys: `codesim campaign --sweep` as recorded.
class GoldenCampaignSweep : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenCampaignSweep, ShippedCampaignSweepReportsAsRecorded) {
  const std::string stem = GetParam();
  const auto r = run_codesim("campaign scenarios/" + stem + ".yaml --sweep --format json");
  ASSERT_EQ(r.exit_code, 0) << stem << ": " << r.err;
  expect_same(json::parse(r.out),
              json::parse(read_source_file("tests/golden/" + stem + ".campaign-sweep.json")), stem);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, GoldenCampaignSweep,
                         ::testing::ValuesIn(golden_stems(".campaign-sweep.json")), test_name);

// Searches ranked by a run objective: `codesim campaign --search` as recorded.
class GoldenCampaignSearch : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenCampaignSearch, ShippedCampaignSearchReportsAsRecorded) {
  const std::string stem = GetParam();
  const auto r = run_codesim("campaign scenarios/" + stem + ".yaml --search --format json");
  ASSERT_EQ(r.exit_code, 0) << stem << ": " << r.err;
  expect_same(json::parse(r.out),
              json::parse(read_source_file("tests/golden/" + stem + ".campaign-search.json")),
              stem);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, GoldenCampaignSearch,
                         ::testing::ValuesIn(golden_stems(".campaign-search.json")), test_name);

// The fast tier against the full one on every shipped training scenario: the step within 5% of
// the recorded full-tier step (the fast tier times each transfer alone, so where links are
// shared it can only come out faster), and the report says which tier made it.
class FastTier : public ::testing::TestWithParam<std::string> {};

TEST_P(FastTier, StepWithinFivePercentOfTheFullSimulation) {
  const std::string stem = GetParam();
  const json full = json::parse(read_source_file("tests/golden/" + stem + ".run.json"));
  const auto r = run_codesim("run scenarios/" + stem + ".yaml --fidelity fast --format json");
  ASSERT_EQ(r.exit_code, 0) << stem << ": " << r.err;
  const json fast = json::parse(r.out);
  EXPECT_EQ(fast["fidelity"], "fast");
  EXPECT_EQ(full["fidelity"], "full");
  const double ratio = fast["step_time_s"].get<double>() / full["step_time_s"].get<double>();
  EXPECT_NEAR(ratio, 1.0, 0.05) << stem;
  EXPECT_LE(ratio, 1.0 + 1e-9) << stem;
}

// Shipped training scenarios (their reports have a breakdown; prefill and decode ones do not).
std::vector<std::string> golden_training_runs() {
  std::vector<std::string> out;
  for (const auto& stem : golden_runs()) {
    if (read_source_file("tests/golden/" + stem + ".run.json").find("\"breakdown_s\"") !=
        std::string::npos) {
      out.push_back(stem);
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, FastTier, ::testing::ValuesIn(golden_training_runs()),
                         test_name);

// What-if sweeps: checked point by point but not run (each point is a full step).
std::vector<std::string> golden_sweeps() {
  return golden_stems(".sweep.txt");
}

// Searches: their configurations checked, none simulated.
std::vector<std::string> golden_searches() {
  return golden_stems(".search.txt");
}

TEST(GoldenRuns, EveryShippedScenarioHasOne) {
  int scenarios = 0;
  for (const auto& entry : fs::directory_iterator(CODESIM_SOURCE_DIR "/scenarios")) {
    scenarios += entry.path().extension() == ".yaml" ? 1 : 0;
  }
  EXPECT_EQ(
      static_cast<int>(golden_runs().size() + golden_sweeps().size() + golden_searches().size() +
                       golden_stems(".campaign-sweep.json").size() +
                       golden_stems(".campaign-search.json").size()),
      scenarios);
}

TEST(GoldenRuns, SearchesCheckTheirConfigurationsAsRecorded) {
  for (const auto& stem : golden_searches()) {
    const auto r = run_codesim("search scenarios/" + stem + ".yaml --dry-run");
    EXPECT_EQ(r.exit_code, 0) << stem << ": " << r.err;
    EXPECT_EQ(r.out, read_source_file("tests/golden/" + stem + ".search.txt")) << stem;
  }
}

TEST(GoldenRuns, WhatIfSweepsCheckTheirPointsAsRecorded) {
  for (const auto& stem : golden_sweeps()) {
    const auto r = run_codesim("sweep scenarios/" + stem + ".yaml --dry-run");
    EXPECT_EQ(r.exit_code, 0) << stem << ": " << r.err;
    EXPECT_EQ(r.out, read_source_file("tests/golden/" + stem + ".sweep.txt")) << stem;
  }
}

// A sweep's results.json against its golden.
void expect_sweep_as_recorded(const std::string& scenario, const std::string& golden) {
  const fs::path dir =
      fs::temp_directory_path() / ("codesim_golden_sweep_" + std::to_string(::getpid()));
  const auto r = run_codesim("sweep " + scenario + " --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(dir / "results.json");
  std::stringstream text;
  text << in.rdbuf();
  fs::remove_all(dir);
  expect_same(json::parse(text.str()), json::parse(read_source_file(golden)), "sweep");
}

TEST(GoldenRuns, SmallSweepResultsAsRecorded) {
  expect_sweep_as_recorded("tests/scenarios/small-sweep.yaml",
                           "tests/golden/small-sweep.results.json");
}

// The main scenario at 400-700 W board limits (a few seconds a point, fast enough for CI).
TEST(GoldenRuns, PowerLimitSweepAsRecorded) {
  expect_sweep_as_recorded("scenarios/whatif-power-limit.yaml",
                           "tests/golden/whatif-power-limit.results.json");
}

TEST(GoldenRuns, DeepSeekV3PairMatchesTheCalibratedTraceReplay) {
  // The profile trace is one overlapped F&B pair of 4 MoE layers on H800; the calibrated replay
  // predicts its span. The simulated step's median pair of MoE-only stages must be within 10%.
  const auto replay = run_codesim(
      "trace replay models/calibration/deepseek-h800/train.json --hardware h800 --format json");
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  const double replayed = json::parse(replay.out)["span_us"].get<double>() * 1e-6;
  const json golden = json::parse(read_source_file("tests/golden/deepseek-v3-h800-mpft.run.json"));
  const double pair = golden["fb_pair_s"].get<double>();
  EXPECT_NEAR(pair / replayed, 1.0, 0.10) << "pair " << pair << " s, replay " << replayed << " s";
}

}  // namespace
}  // namespace codesim::testing
