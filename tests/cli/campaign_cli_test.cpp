// `codesim campaign`: the Monte Carlo against its expectation on a small run, the keys, and bad
// input word for word.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

using nlohmann::json;

const std::string kSmall = "campaign tests/scenarios/small-step.yaml";

TEST(CampaignCli, MonteCarloAgreesWithTheExpectation) {
  // A failure rate raised to 500 per 1,000 node-days so that the small run sees several.
  const auto r = run_codesim(kSmall +
                             " --set campaign.tokens=2e10 --set campaign.node_failure_rate=500 "
                             "--set campaign.trials=3000 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  for (const char* key : {"days", "gpu_hours", "cost_usd", "energy_mwh"}) {
    EXPECT_NEAR(j[key]["mean"].get<double>(), j[key]["expected"].get<double>(),
                0.02 * j[key]["expected"].get<double>())
        << key;
  }
  EXPECT_GT(j["interruptions"]["mean"].get<double>(), 1);
  EXPECT_LT(j["ettr"]["mean"].get<double>(), 1);
  EXPECT_TRUE(j["checkpoint"]["interval_auto"].get<bool>());
  // GPU-hours = days x 24 x GPUs; cost = GPU-hours x $2.
  EXPECT_NEAR(j["gpu_hours"]["p50"].get<double>(),
              j["days"]["p50"].get<double>() * 24 * j["gpus"].get<double>(), 1e-6);
  EXPECT_NEAR(j["cost_usd"]["p50"].get<double>(), 2 * j["gpu_hours"]["p50"].get<double>(), 1e-6);
}

TEST(CampaignCli, EnergyComesFromTheStepsPowerModelUnlessWattagesAreGiven) {
  // Without campaign.gpu_power_w and node_power_w, the job's power is the step's: ETTR x the
  // step's mean power + (1 - ETTR) x the GPUs awake with the network and hosts; energy = that x
  // the wall time x PUE. With them, GPUs x one + nodes x the other over the wall time.
  const std::string base = kSmall + " --set campaign.tokens=2e10 --format json";
  const auto modelled = run_codesim(base);
  ASSERT_EQ(modelled.exit_code, 0) << modelled.err;
  const json m = json::parse(modelled.out);
  bool said = false;
  for (const auto& n : m["notes"]) {
    said = said || n["text"].get<std::string>().starts_with("energy from the step's power model");
  }
  EXPECT_TRUE(said);
  const double wall_s = m["days"]["p50"].get<double>() * 86400;
  const double mw = m["energy_mwh"]["p50"].get<double>() * 3.6e9 / wall_s / 1e6;
  EXPECT_GT(mw, 0);
  const auto pue = run_codesim(base + " --set campaign.pue=1.5");
  ASSERT_EQ(pue.exit_code, 0) << pue.err;
  EXPECT_NEAR(json::parse(pue.out)["energy_mwh"]["p50"].get<double>(),
              1.5 * m["energy_mwh"]["p50"].get<double>(), 1e-9 * m["energy_mwh"]["p50"].get<double>());
  const auto given =
      run_codesim(base + " --set campaign.gpu_power_w=700 --set campaign.node_power_w=2000");
  ASSERT_EQ(given.exit_code, 0) << given.err;
  const json g = json::parse(given.out);
  const double watts = g["gpus"].get<double>() * 700 + g["nodes"].get<double>() * 2000;
  EXPECT_NEAR(g["energy_mwh"]["p50"].get<double>(),
              watts * g["days"]["p50"].get<double>() * 86400 / 3.6e9,
              1e-9 * g["energy_mwh"]["p50"].get<double>());
}

TEST(CampaignCli, AZeroFailureRateIsARunWithoutFailures) {
  // campaign.node_failure_rate written as 0 (campaign.failures derives to rate) is a run without
  // interruptions: ETTR 1 but for the checkpoints' writes, no stops; left out, Llama 3's rates.
  const auto none = run_codesim(kSmall +
                                " --set campaign.tokens=2e10 --set campaign.node_failure_rate=0");
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_NE(none.out.find("mean time between stops (h): none (no failures)\n"), std::string::npos)
      << none.out;
  EXPECT_NE(none.out.find("interruptions p10 / p50 / p90: 0.0 / 0.0 / 0.0 (expected 0.0)\n"),
            std::string::npos)
      << none.out;
  EXPECT_NE(none.out.find("note: assumed: failures: none (campaign.node_failure_rate 0)\n"),
            std::string::npos);
  const auto llama = run_codesim(kSmall + " --set campaign.tokens=2e10");
  ASSERT_EQ(llama.exit_code, 0) << llama.err;
  EXPECT_NE(llama.out.find("note: fitted: failures: Llama 3's 419 unexpected interruptions"),
            std::string::npos);
}

TEST(CampaignCli, BadCampaignsFailWithExactMessages) {
  const auto none = run_codesim(kSmall);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.err,
            "tests/scenarios/small-step.yaml: error: campaign.tokens: a campaign needs the tokens "
            "to train\n"
            "  hint: e.g. campaign: {tokens: 14.8e12}\n");
  const auto stuck =
      run_codesim(kSmall + " --set campaign.tokens=2e10 --set campaign.node_failure_rate=1e6");
  EXPECT_EQ(stuck.exit_code, 2);
  // The rate written is blamed, on its own line (the --set), in minutes and seconds.
  EXPECT_EQ(stuck.err.rfind("--set campaign.node_failure_rate=1e6: error: "
                            "campaign.node_failure_rate: the job cannot progress: failures every ",
                            0),
            0u)
      << stuck.err;
  // 1e30 tokens: 2.6e21 checkpoint segments per trial (the small step's 524,288 tokens in 7.42 s,
  // Daly's 1.5 h interval), refused before the Monte Carlo starts.
  const auto endless = run_codesim(kSmall + " --set campaign.tokens=1e30");
  EXPECT_EQ(endless.exit_code, 2);
  EXPECT_EQ(endless.err,
            "--set campaign.tokens=1e30: error: campaign.tokens: the run's Monte Carlo would step "
            "through 2.6e21 checkpoint segments and failures per trial x 1000 trials, over the "
            "budget of 1.0e9\n"
            "  hint: fewer tokens, or a longer campaign.checkpoint_interval\n");
  const auto negative = run_codesim(kSmall + " --set campaign.node_failure_rate=-1");
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_EQ(negative.err,
            "--set campaign.node_failure_rate=-1: error: campaign.node_failure_rate: must be at "
            "least 0, got -1\n");
}

TEST(CampaignCli, ASweepOfTheIntervalFindsDalysOptimumAndKeepsRefusedPoints) {
  // tests/scenarios/small-campaign-sweep.yaml: 2 failure rates x 6 checkpoint intervals, auto
  // (Daly's) among intervals a factor 2 apart. The step is simulated once for all 12 points
  // (healthy and with a plane failed: 2 steps).
  const auto r =
      run_codesim("campaign tests/scenarios/small-campaign-sweep.yaml --sweep --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["keys"], json({"campaign.node_failure_rate", "campaign.checkpoint_interval"}));
  EXPECT_EQ(j["steps_simulated"].get<int>(), 2);
  ASSERT_EQ(j["points"].size(), 12u);
  double daly = 0;
  double best_other = 1e300;
  for (const auto& p : j["points"]) {
    if (p["values"][0] == "1e6") {
      // Failures every 12 s: no interval lets the job progress; the point says why.
      EXPECT_EQ(p["error"].get<std::string>().rfind(
                    "campaign.node_failure_rate: the job cannot progress: failures every", 0),
                0u)
          << p;
      continue;
    }
    const double days = p["campaign"]["days"]["expected"].get<double>();
    if (p["values"][1] == "auto") {
      daly = days;
    } else {
      best_other = std::min(best_other, days);
    }
  }
  EXPECT_GT(daly, 0);
  EXPECT_LE(daly, best_other);
}

TEST(CampaignCli, ASearchRanksItsCandidatesByTheRunObjective) {
  // tests/scenarios/small-campaign-search.yaml: 3 intervals x 2 spare settings, by days (p50,
  // least first): Daly's interval with a spare node first, and the days never decrease.
  const auto r =
      run_codesim("campaign tests/scenarios/small-campaign-search.yaml --search --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["objective"], "days");
  ASSERT_EQ(j["points"].size(), 6u);
  EXPECT_EQ(j["points"][0]["values"], json({"auto", "1"}));
  for (std::size_t i = 1; i < j["points"].size(); ++i) {
    EXPECT_LE(j["points"][i - 1]["campaign"]["days"]["p50"].get<double>(),
              j["points"][i]["campaign"]["days"]["p50"].get<double>());
  }
}

TEST(CampaignCli, RunAndStepObjectivesStayWithTheirSearches) {
  const auto step = run_codesim("search tests/scenarios/small-campaign-search.yaml --dry-run");
  EXPECT_EQ(step.exit_code, 2);
  EXPECT_EQ(step.err,
            "tests/scenarios/small-campaign-search.yaml: error: search.objective: 'days' ranks "
            "whole runs; codesim search ranks steps\n"
            "  hint: codesim campaign --search for run objectives; here tokens_per_day or "
            "tokens_per_day_per_usd\n");
  const auto run = run_codesim("campaign tests/scenarios/small-search.yaml --search");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err,
            "tests/scenarios/small-search.yaml: error: search.objective: 'tokens_per_day' ranks "
            "steps; a campaign search ranks whole runs\n"
            "  hint: objective: days, cost_usd, gpu_hours or energy_mwh (or codesim search)\n");
}

}  // namespace
}  // namespace codesim::testing
