// `codesim compare` as a user runs it: side by side, differences against the first scenario,
// and bad input caught before anything runs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

TEST(CompareCli, GivesCostAndThroughputSideBySide) {
  const auto r = run_codesim(
      "compare tests/scenarios/small-step.yaml tests/scenarios/small-step-mrft.yaml --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["scenarios"].size(), 2u);
  for (const auto& s : j["scenarios"]) {
    // Cost per (tokens/day) = network cost / (tokens per day in billions).
    EXPECT_NEAR(s["cost_per_tokens_per_day_usd"].get<double>(),
                s["cost_usd"].get<double>() / (s["tokens_per_day"].get<double>() / 1e9), 1e-6);
    EXPECT_EQ(s["endpoints"].get<int>(), 64);
  }
  // The same step simulated alone gives the same figure.
  const auto alone = run_codesim("run tests/scenarios/small-step.yaml --format json");
  EXPECT_EQ(j["scenarios"][0]["step_time_s"], nlohmann::json::parse(alone.out)["step_time_s"]);
}

TEST(CompareCli, CsvAndMarkdownHaveOneFigureEach) {
  const std::string both = "compare tests/scenarios/small-step.yaml tests/scenarios/small-step.yaml";
  const auto csv = run_codesim(both + " --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("name,file,endpoints,switches,links,cost_usd,cost_per_endpoint_usd,"
                          "step_time_s,tokens_per_day,mfu_causal,cost_per_tokens_per_day_usd\r\n"
                          "small-step,tests/scenarios/small-step.yaml,64,",
                          0),
            0u)
      << csv.out;
  const auto md = run_codesim(both + " --format md");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.rfind("|  | small-step | small-step |\n|---|---:|---:|\n| endpoints | 64 | 64 |\n",
                         0),
            0u)
      << md.out;
}

TEST(CompareCli, TableShowsDifferencesToTheFirst) {
  const auto r =
      run_codesim("compare tests/scenarios/small-step.yaml tests/scenarios/small-step.yaml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(+0.0%)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("differences against small-step"), std::string::npos) << r.out;
}

TEST(CompareCli, BadInputFailsBeforeAnythingRuns) {
  const auto one = run_codesim("compare tests/scenarios/small-step.yaml");
  EXPECT_EQ(one.exit_code, 2);
  EXPECT_EQ(one.err, "codesim compare: error: give at least two scenarios to compare\n");
  const auto missing =
      run_codesim("compare tests/scenarios/small-step.yaml tests/scenarios/nothing-here.yaml");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.out, "");
  EXPECT_NE(missing.err.find("tests/scenarios/nothing-here.yaml"), std::string::npos)
      << missing.err;
}

}  // namespace
}  // namespace codesim::testing
