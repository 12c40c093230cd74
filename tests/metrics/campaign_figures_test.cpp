// A campaign's job power and run figures from plain values.
#include "sim/metrics/campaign_figures.hpp"

#include <gtest/gtest.h>

namespace codesim::metrics {
namespace {

TEST(CampaignFigures, TheCampaignsWattagesWinOverTheStepsEnergy) {
  // 16 GPUs at 700 W and 2 nodes at 2,000 W besides: 11,200 + 4,000 = 15,200 W, whatever the
  // step's energy and the ETTR.
  campaign::CampaignSpec c;
  c.gpu_power_w = 700;
  c.node_power_w = 2000;
  const CampaignStep step{.time = core::Seconds(10), .energy = StepEnergy{.gpu_compute_j = 1e6}};
  EXPECT_DOUBLE_EQ(job_power_w(c, {.gpus = 16, .nodes = 2, .gpu_awake_w = 100}, step, 0.5), 15200);
}

TEST(CampaignFigures, WithoutWattagesTheJobTrainsAtTheStepsPowerForItsEttr) {
  // A 10 s step of 1,000 kJ on the GPUs, 100 kJ of network and 50 kJ of hosts: 115 kW while it
  // trains; down, 16 GPUs awake at 100 W and the network and hosts: 1.6 + 15 = 16.6 kW. At an
  // ETTR of 0.9: 0.9 x 115 + 0.1 x 16.6 = 105.16 kW.
  const CampaignStep step{
      .time = core::Seconds(10),
      .energy =
          StepEnergy{.gpu_compute_j = 8e5, .gpu_waiting_j = 2e5, .network_j = 1e5, .host_j = 5e4}};
  EXPECT_NEAR(job_power_w({}, {.gpus = 16, .nodes = 2, .gpu_awake_w = 100}, step, 0.9), 105160,
              1e-6);
}

TEST(CampaignFigures, GpuHoursAndCostScaleTheWallTime) {
  // A run of p50 2 days on 16 GPUs at $2 per GPU-hour: 768 GPU-hours, $1,536.
  campaign::RunStats stats;
  stats.wall_s.p50 = 2 * 86400;
  stats.expected_by_cause = {};
  CampaignResult r;
  r.gpus = 16;
  add_run_figures({}, {.gpus = 16, .nodes = 2}, {}, stats, {}, core::Seconds(0), r);
  EXPECT_DOUBLE_EQ(r.days.p50, 2);
  EXPECT_DOUBLE_EQ(r.gpu_hours.p50, 768);
  EXPECT_DOUBLE_EQ(r.cost_usd.p50, 1536);
}

}  // namespace
}  // namespace codesim::metrics
