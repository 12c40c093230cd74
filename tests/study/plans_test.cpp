// The planning parts of sweep and compare: points checked and spelled out before any runs, the
// reuse rule of a resumed sweep, the compared figures.
#include <gtest/gtest.h>

#include "sim/config/dump.hpp"
#include "sim/core/error.hpp"
#include "sim/study/compare.hpp"
#include "sim/study/sweep_plan.hpp"

namespace codesim::study {
namespace {

const std::string kSweep = CODESIM_SOURCE_DIR "/tests/scenarios/small-sweep.yaml";

TEST(SweepPlan, EveryPointIsAScenarioWithItsSettings) {
  const SweepPlan plan = plan_sweep({kSweep, {}, {config::parse_setting("routing.plans=1")}});
  ASSERT_EQ(plan.points.size(), 4u);  // node_limit [1, 2] x method [dualpipe, 1f1b]
  const PlannedPoint& p = plan.points[1];
  EXPECT_EQ(p.values, (std::vector<std::string>{"1", "1f1b"}));
  // Its scenario decoded with the settings first, then its own values.
  EXPECT_EQ(p.scenario.routing.plans, 1);
  EXPECT_EQ(p.scenario.routing.node_limit, 1);
  EXPECT_EQ(p.scenario.schedule.method, workload::ScheduleMethod::one_f_one_b);
  EXPECT_EQ(p.scenario_yaml, config::to_yaml(p.scenario));
  EXPECT_EQ(describe_values(plan.sweep, p), "routing.node_limit=1, schedule.method=1f1b");
  // A stored point is reused only for the same resolved scenario, and only if it ran to a result
  // (0) or to an input error (2).
  EXPECT_TRUE(reusable(p, p.scenario_yaml, 0));
  EXPECT_TRUE(reusable(p, p.scenario_yaml, 2));
  EXPECT_FALSE(reusable(p, p.scenario_yaml, 1));
  EXPECT_FALSE(reusable(p, p.scenario_yaml, -9));
  EXPECT_FALSE(reusable(p, plan.points[0].scenario_yaml, 0));
}

TEST(SweepPlan, OutcomesLandAtTheirPoints) {
  const SweepPlan plan = plan_sweep({kSweep});
  const metrics::SweepResult r =
      sweep_result(plan, {{.index = 2, .values = {"2", "dualpipe"}, .error = "did not fit"}});
  EXPECT_EQ(r.keys, (std::vector<std::string>{"routing.node_limit", "schedule.method"}));
  EXPECT_EQ(r.mode, core::SweepMode::cartesian);
  ASSERT_EQ(r.points.size(), 4u);
  EXPECT_EQ(r.points[2].error, "did not fit");
  EXPECT_EQ(r.points[2].values, (std::vector<std::string>{"2", "dualpipe"}));
}

TEST(SweepPlan, InferenceScenariosAreRefusedAtTheirKind) {
  const std::string decode = CODESIM_SOURCE_DIR "/scenarios/deepseek-v3-decode-h800.yaml";
  try {
    load_compared({decode});
    FAIL() << "an inference scenario was compared";
  } catch (const core::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              decode +
                  ":18:9: error: workload.kind: comparisons report training steps only so far; a "
                  "decode step is reported by codesim run\n"
                  "  hint: run each inference scenario with codesim run");
  }
}

TEST(Compare, FiguresPerEndpointAndPerThroughput) {
  metrics::RunResult r;
  r.scenario = "probe";
  r.network = {"mpft", 2048, 96, 4096, 4.096e6};
  r.step_time = core::Seconds(20);
  r.tokens_per_day = 2.5e11;
  const auto c = compared("probe.yaml", r);
  EXPECT_DOUBLE_EQ(c.cost_per_endpoint_usd, 4.096e6 / 2048);
  // Network cost per billion tokens per day: 4.096 M$ / 250.
  EXPECT_DOUBLE_EQ(c.cost_per_tokens_per_day_usd, 4.096e6 / 250);
}

}  // namespace
}  // namespace codesim::study
