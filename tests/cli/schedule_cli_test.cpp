// `codesim schedule` as a user runs it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

TEST(ScheduleCli, JsonGivesTheBubbleAndThePublishedOne) {
  // DualPipe, PP 8, F = W = B/2 = 1 ms, F&B = 2.5 ms: (8/2 - 1)(2.5 + 2 - 3) ms = 4.5 ms.
  const auto r = run_codesim(
      "schedule --method dualpipe --pp 8 --chunks 20 --f 1ms --b 2ms "
      "--w 1ms --fb 2.5ms --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["bubble"].get<double>(), (8 / 2 - 1) * (2.5e-3 + 2e-3 - 3e-3), 1e-12);
  EXPECT_NEAR(j["published_bubble"].get<double>(), 4.5e-3, 1e-12);
  EXPECT_TRUE(j["formula_assumptions_hold"].get<bool>());
  EXPECT_EQ(j["ranks"].size(), 8u);
  EXPECT_EQ(j["ranks"][0]["peak_in_flight"].get<int>(), 9);
}

TEST(ScheduleCli, TableShowsTheChart) {
  const auto r = run_codesim("schedule --method 1f1b --pp 4 --chunks 8");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("rank 0 |F0 |F1 |F2 |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bubble 9.000 ms"), std::string::npos) << r.out;  // 3 x (1 + 2) ms
}

TEST(ScheduleCli, BadFlagsGetExactMessages) {
  const auto odd = run_codesim("schedule --method dualpipe --pp 7 --chunks 20");
  EXPECT_EQ(odd.exit_code, 2);
  EXPECT_EQ(odd.out, "");
  EXPECT_EQ(odd.err,
            "codesim schedule: error: dualpipe needs an even number of pipeline ranks, got 7\n");
  const auto bare = run_codesim("schedule --f 1");
  EXPECT_EQ(bare.err,
            "codesim schedule: error: --f: '1' has no unit; a duration needs one\n"
            "  hint: 1.5us, 3ms, 2s\n");
  const auto method = run_codesim("schedule --method gpipe");
  EXPECT_EQ(method.err,
            "codesim schedule: error: --method: unknown method 'gpipe'\n"
            "  hint: one of: 1f1b, zb1p, dualpipe, dualpipev, interleaved-1f1b\n");
}

}  // namespace
}  // namespace codesim::testing
