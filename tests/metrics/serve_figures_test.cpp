// A serving run's SLO attainment and energy from plain values.
#include "sim/metrics/serve_figures.hpp"

#include <gtest/gtest.h>

namespace codesim::metrics {
namespace {

using core::Seconds;

// Four requests over a 10 s horizon, each with 11 output tokens: first tokens after 0.1, 0.2,
// 0.3 and 0.6 s; TPOTs of 20, 20, 40 and 20 ms ((finish - first token) / 10).
serve::ServingRun four_requests() {
  serve::ServingRun run;
  const double ttft[] = {0.1, 0.2, 0.3, 0.6};
  const double tpot[] = {0.02, 0.02, 0.04, 0.02};
  for (int k = 0; k < 4; ++k) {
    const double arrival = k;
    run.requests.push_back({.arrival = Seconds(arrival),
                            .first_token = Seconds(arrival + ttft[k]),
                            .finish = Seconds(arrival + ttft[k] + 10 * tpot[k]),
                            .output_tokens = 11});
  }
  return run;
}

TEST(ServeFigures, AttainmentCountsTheRequestsMeetingBothTargets) {
  // TTFT 0.5 s and TPOT 30 ms: the third misses its TPOT, the fourth its TTFT; 2 of 4 meet both
  // (0.5, under the 0.9 target: unmet); goodput 2 requests over the 10 s horizon, 0.2 per s.
  ServeResult r{.requests = 4, .horizon = Seconds(10)};
  add_slo_figures({.ttft = Seconds(0.5), .tpot = Seconds(0.03), .attainment = 0.9}, four_requests(),
                  {.ttft = Seconds(0.1), .tpot = Seconds(0.01)}, r);
  EXPECT_DOUBLE_EQ(r.slo_attainment, 0.5);
  EXPECT_DOUBLE_EQ(r.goodput, 0.2);
  EXPECT_EQ(r.slo, SloVerdict::unmet);
  EXPECT_TRUE(r.notes.empty());  // one request alone meets both
}

TEST(ServeFigures, ATargetARequestAloneMissesIsSaid) {
  // A request alone takes 0.8 s to its first token, over the 0.5 s target: no load meets it.
  ServeResult r{.requests = 4, .horizon = Seconds(10)};
  add_slo_figures({.ttft = Seconds(0.5)}, four_requests(),
                  {.ttft = Seconds(0.8), .tpot = Seconds(0.01)}, r);
  ASSERT_EQ(r.notes.size(), 1U);
  EXPECT_EQ(r.notes[0].text,
            "SLO unmet at any load: a request alone takes 800.0 ms to its first token (target "
            "500.0 ms)");
}

TEST(ServeFigures, WithoutTargetsNothingIsCounted) {
  ServeResult r{.requests = 4, .horizon = Seconds(10)};
  add_slo_figures({}, four_requests(), {}, r);
  EXPECT_EQ(r.slo, SloVerdict::none);
  EXPECT_DOUBLE_EQ(r.goodput, 0);
}

TEST(ServeFigures, EnergyAddsStepsRestNetworkAndHosts) {
  // One prefill instance of 8 GPUs busy 50 %, two decode instances of 16 GPUs busy 75 %, over
  // 100 s, GPUs at rest at 100 W: rest 8 x 0.5 x 100 x 100 + 2 x 16 x 0.25 x 100 x 100 =
  // 40,000 + 80,000 J; steps 300,000 + 900,000 J; network 1,000 + 2 x 2,000 J; hosts 3,000 +
  // 2 x 4,000 J. Total 1,336,000 J over 1,000 output tokens: 1,336 J each; the GPUs' mean
  // power (1,200,000 + 120,000) / (40 GPUs x 100 s) = 330 W.
  ServeResult r{.horizon = Seconds(100)};
  add_serve_energy({.limit_w = 700, .idle_w = 100},
                   {InstanceDraw{.instances = 1,
                                 .gpus_each = 8,
                                 .busy = 0.5,
                                 .step_joules = 3e5,
                                 .network_j = 1000,
                                 .host_j = 3000},
                    InstanceDraw{.instances = 2,
                                 .gpus_each = 16,
                                 .busy = 0.75,
                                 .step_joules = 9e5,
                                 .network_j = 2000,
                                 .host_j = 4000}},
                   1000, r);
  ASSERT_TRUE(r.energy.has_value());
  EXPECT_DOUBLE_EQ(r.energy->gpu_idle_j, 120000);
  EXPECT_DOUBLE_EQ(r.energy->total_j(), 1336000);
  EXPECT_DOUBLE_EQ(r.energy->per_output_token_j, 1336);
  EXPECT_DOUBLE_EQ(r.energy->mean_gpu_power_w, 330);
  ASSERT_EQ(r.notes.size(), 1U);
  EXPECT_TRUE(r.notes[0].text.starts_with("energy: every instance's GPUs"));
}

TEST(ServeFigures, NoPowerModelNoEnergy) {
  ServeResult r{.horizon = Seconds(100)};
  add_serve_energy({}, {}, 1000, r);
  EXPECT_FALSE(r.energy.has_value());
  EXPECT_TRUE(r.notes.empty());
}

}  // namespace
}  // namespace codesim::metrics
