// simulate_training called as a library (no subprocess). SimGrid allows one engine per process,
// and ctest runs every test in its own: each test simulates at most once.
#include "sim/study/training.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "sim/config/loader.hpp"
#include "sim/core/error.hpp"

namespace codesim::study {
namespace {

const std::string kSmallStep = CODESIM_SOURCE_DIR "/tests/scenarios/small-step.yaml";

bool has_note(const metrics::RunResult& r, core::NoteKind kind, const std::string& part) {
  for (const auto& n : r.notes) {
    if (n.kind == kind && n.text.find(part) != std::string::npos) {
      return true;
    }
  }
  return false;
}

TEST(SimulateTraining, TheSmallStepAddsUpAndSaysWhatItAssumed) {
  config::Scenario s = config::load_scenario(kSmallStep);
  s.routing.node_limit = 2;  // a key changed in code, as a what-if program would
  const metrics::RunResult r = simulate_training(s);
  // The first rank's breakdown adds up to the step (bubble is what the rest leaves).
  EXPECT_NEAR(r.breakdown.total().value, r.step_time.value, 1e-9);
  // tokens per day = global batch x sequence length / step x 86400 s.
  EXPECT_NEAR(r.tokens_per_day, 128.0 * 4096 / r.step_time.value * 86400, 1e-6 * r.tokens_per_day);
  EXPECT_EQ(r.placement.size(), 4u);  // DualPipe on 4 ranks: 4 stages
  // Each model says what it assumed: the replay what it folds, the piece model what it fitted
  // (and to what), the memory model its activation estimate.
  EXPECT_TRUE(has_note(r, core::NoteKind::folded, "4-rank pipeline"));
  EXPECT_TRUE(has_note(r, core::NoteKind::fitted, "models/calibration/deepseek-h800/train.json"));
  EXPECT_TRUE(has_note(r, core::NoteKind::assumed, "each layer's saved tensors"));
  EXPECT_TRUE(has_note(r, core::NoteKind::method, "within 2 nodes"));
}

TEST(SimulateTraining, LanesAreTheReplayedStepPerRank) {
  const metrics::RunResult r = simulate_training(config::load_scenario(kSmallStep));
  ASSERT_EQ(r.lanes.size(), 4u);
  for (const auto& rank : r.lanes) {
    ASSERT_FALSE(rank.compute.empty());
    // Chunks follow each other on the compute lane and end within the step.
    for (std::size_t i = 1; i < rank.compute.size(); ++i) {
      EXPECT_LE(rank.compute[i - 1].end.value, rank.compute[i].start.value + 1e-12);
    }
    EXPECT_LE(rank.compute.back().end.value, r.step_time.value + 1e-12);
  }
  // The first rank's exposed spans are the exposed communication of the report, per group.
  for (const auto g : metrics::kCommGroups) {
    double exposed = 0;
    for (const auto& span : r.lanes.front().exposed) {
      exposed += span.group == g ? (span.end - span.start).value : 0.0;
    }
    EXPECT_NEAR(exposed, r.exposed_comm.at(g).value, 1e-9) << metrics::comm_group_name(g);
  }
}

TEST(SimulateTraining, EachRanksMemoryFollowsItsChunks) {
  // Every rank's lane carries its memory chunk by chunk: a forward allocates its micro-batch's
  // activations at its start, and a backward frees them at its end. The first rank's highest
  // point is the report's activations at their peak (the schedule's, no recomputation here)
  // above its state (with the framework and DeepEP's buffers); after its last chunk it holds
  // none.
  const metrics::RunResult r = simulate_training(config::load_scenario(kSmallStep));
  ASSERT_EQ(r.lanes.size(), 4u);
  for (const auto& rank : r.lanes) {
    const metrics::RankMemory& m = rank.memory;
    ASSERT_EQ(m.activations_at_start.size(), m.activations_at_end.size());
    ASSERT_LE(m.activations_at_start.size(), rank.compute.size());
    EXPECT_GT(m.state_bytes, 0);
    EXPECT_NEAR(m.activations_at_end.back(), 0, 1e-3);
    for (std::size_t i = 0; i < m.activations_at_start.size(); ++i) {
      if (rank.compute[i].kind == metrics::ChunkSpan::forward) {
        EXPECT_GE(m.activations_at_start[i], i > 0 ? m.activations_at_end[i - 1] : 0.0);
      }
    }
  }
  const metrics::RankMemory& first = r.lanes.front().memory;
  EXPECT_NEAR(
      *std::max_element(first.activations_at_start.begin(), first.activations_at_start.end()),
      r.memory.activations.value, 1e-3);
  EXPECT_NEAR(first.state_bytes,
              (r.memory.parameters + r.memory.optimizer + r.memory.gradients + r.memory.framework +
               r.memory.ep_buffers)
                  .value,
              1e-3);
}

TEST(SimulateTraining, LinkTiersCoverEveryLinkAndCarryTheNetworksBytesThrough) {
  const metrics::RunResult r = simulate_training(config::load_scenario(kSmallStep));
  // 8 nodes of 8 GPUs on 8 planes of one leaf each (no spines): per direction 64 NVLinks, 64
  // PCIe links and 64 NIC links, GPU side first, up before down.
  const std::vector<std::string> names{"nvlink gpu -> nvswitch", "nvlink nvswitch -> gpu",
                                       "pcie gpu -> nic",        "pcie nic -> gpu",
                                       "ib nic -> leaf",         "ib leaf -> nic"};
  ASSERT_EQ(r.tiers.size(), names.size());
  double highest = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const metrics::TierUse& t = r.tiers[i];
    EXPECT_EQ(t.tier, names[i]);
    EXPECT_EQ(t.links, 64);
    EXPECT_GT(t.used, 0);
    EXPECT_LE(t.used, t.links);
    EXPECT_LE(t.mean_utilization, t.max_utilization);
    highest = std::max(highest, t.max_utilization);
  }
  // A byte between nodes leaves its GPU over PCIe, enters the leaf, leaves it and reaches its
  // GPU over PCIe: the four tiers carry the same bytes.
  for (std::size_t i = 3; i < 6; ++i) {
    EXPECT_NEAR(r.tiers[i].bytes.value, r.tiers[2].bytes.value, 1e-9 * r.tiers[2].bytes.value);
  }
  // The busiest link is its tier's highest.
  ASSERT_FALSE(r.busiest_links.empty());
  EXPECT_DOUBLE_EQ(highest, r.busiest_links.front().utilization);
  // A link's bytes all move while some transfer loading it is in flight, and SimGrid never lets
  // a link carry more than its bandwidth: over that time it is at most 100% busy, and at least as
  // busy as over the whole step.
  for (const auto& l : r.busiest_links) {
    EXPECT_GT(l.in_flight.value, 0) << l.link;
    EXPECT_LE(l.in_flight.value, r.step_time.value) << l.link;
    EXPECT_GE(l.in_flight_utilization, l.utilization) << l.link;
    EXPECT_LE(l.in_flight_utilization, 1 + 1e-9) << l.link;
  }
  for (const auto& t : r.tiers) {
    EXPECT_GE(t.max_in_flight_utilization, t.max_utilization) << t.tier;
    EXPECT_LE(t.max_in_flight_utilization, 1 + 1e-9) << t.tier;
  }
}

TEST(SimulateTraining, WhatTheModelCannotRunIsAnErrorAtTheKey) {
  const config::Scenario s = config::load_scenario(
      kSmallStep,
      {config::parse_setting("parallelism.tp=16"), config::parse_setting("parallelism.dp=1")});
  try {
    simulate_training(s);
    FAIL() << "a TP group across nodes was accepted";
  } catch (const core::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--set parallelism.tp=16: error: parallelism.tp: a TP group of 16 GPUs does not fit "
              "in 8-GPU nodes\n  hint: use a tp that divides hardware.gpus_per_node");
  }
}

TEST(SimulateTraining, ContextParallelismNeedsEvenChunks) {
  const config::Scenario s =
      config::load_scenario(kSmallStep, {config::parse_setting("parallelism.cp=4"),
                                         config::parse_setting("parallelism.dp=4"),
                                         config::parse_setting("workload.seq_len=4100")});
  try {
    simulate_training(s);
    FAIL() << "4100 tokens in 8 chunks were accepted";
  } catch (const core::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "--set parallelism.cp=4: error: parallelism.cp: context parallelism cuts each "
              "sequence into 2 x cp = 8 chunks; 4100 tokens do not divide\n  hint: use a cp for "
              "which 2 x cp divides workload.seq_len");
  }
}

// The scenario of issue 32: dp is derived from cp, which the schema declares after it (4 nodes x 8
// GPUs / (tp 8 x cp 2) = 2 replicas), and the step runs.
TEST(SimulateTraining, DataParallelismDerivedAfterContextParallelismRuns) {
  const config::Scenario s = config::load_scenario_text(
      "model: {preset: llama3.1-8b}\nhardware: {gpu: h100, nodes: 4}\n"
      "topology: {family: ft2, switch_radix: 64}\nparallelism: {tp: 8, cp: 2, pp: 1}\n",
      "cp-dp.yaml");
  ASSERT_EQ(s.parallelism.dp, 2);
  const TrainingRun run = run_training(s, {.fidelity = metrics::Fidelity::fast});
  EXPECT_GT(run.result.step_time.value, 0);
  // tokens per day = global batch (dp x 1 sequence) x seq_len / step x 86400 s.
  EXPECT_NEAR(run.result.tokens_per_day,
              2.0 * s.workload.seq_len / run.result.step_time.value * 86400,
              1e-6 * run.result.tokens_per_day);
}

// Variability with no spread and no fail-slow part: every replica replays the folded timeline,
// so every drawn step is the identical-replica step (to rounding), at either tier.
void expect_zero_variability_is_the_folded_step(metrics::Fidelity fidelity) {
  config::Scenario s = config::load_scenario(kSmallStep);
  s.variability.enabled = true;
  static_cast<variability::VariabilitySpec&>(s.variability) = {
      .steps = 3,
      .seed = 1,
      .gpu_cv = 0,
      .gpu_pace_interval = core::Seconds(0.02),
      .nic_cv = 0,
      .gpu_slow = {.per_1000_part_days = 0, .duration = core::Seconds(3600), .slowdown = 2},
      .link_slow = {.per_1000_part_days = 0, .duration = core::Seconds(3600), .slowdown = 2},
      .simulated_units = 0,
      .replay_memory = core::Bytes(2e9)};
  const metrics::RunResult r = run_training(s, {.fidelity = fidelity}).result;
  ASSERT_TRUE(r.spread.has_value());
  const metrics::StepSpread& sp = *r.spread;
  EXPECT_EQ(sp.gpus, 64);
  EXPECT_EQ(sp.units, 1);  // an EP group of 16 is the whole rank
  for (const double t : sp.step_times_s) {
    EXPECT_NEAR(t, sp.identical.value, 1e-12 * sp.identical.value);
  }
  EXPECT_NEAR(r.step_time.value, sp.identical.value, 1e-12 * sp.identical.value);
  EXPECT_NEAR(r.breakdown.total().value, sp.identical.value, 1e-9);
}

TEST(SimulateTraining, ZeroVariabilityReproducesTheFoldedStepFullTier) {
  expect_zero_variability_is_the_folded_step(metrics::Fidelity::full);
}

TEST(SimulateTraining, ZeroVariabilityReproducesTheFoldedStepFastTier) {
  expect_zero_variability_is_the_folded_step(metrics::Fidelity::fast);
}

TEST(SimulateTraining, VariabilityMakesTheMeanStepSlowerAndThroughputFollowsIt) {
  config::Scenario s = config::load_scenario(kSmallStep);
  s.variability.enabled = true;
  s.variability.gpu_cv = 0.05;
  const metrics::RunResult r = run_training(s, {.fidelity = metrics::Fidelity::fast}).result;
  ASSERT_TRUE(r.spread.has_value());
  const metrics::StepSpread& sp = *r.spread;
  // Every synchronization waits for the slowest of its members: with cv 0.05 over 64 GPUs the
  // slowest of a group is well above the mean pace, so the mean step is above the identical one.
  EXPECT_GT(sp.mean.value, sp.identical.value);
  EXPECT_LE(sp.p10.value, sp.p50.value);
  EXPECT_LE(sp.p50.value, sp.p90.value);
  EXPECT_EQ(r.step_time.value, sp.mean.value);
  // tokens per day = global batch x sequence length / mean step x 86400 s.
  EXPECT_NEAR(r.tokens_per_day, 128.0 * 4096 / sp.mean.value * 86400, 1e-6 * r.tokens_per_day);
  // Steps by stratum of slow parts: each of 64 GPUs and 64 NICs is slow with probability 0.5 /
  // 1,000 days x 1 h = 2.083e-5; none slow 0.99734 (20 x that = 20 steps), one GPU 0.00133 and
  // one link 0.00133 (at least 1 step each), and less than 1e-3 is left: 22 steps.
  EXPECT_EQ(sp.steps, 22);
  EXPECT_TRUE(has_note(r, core::NoteKind::method, "variability: 22 steps drawn"));
}

TEST(SimulateTraining, TheBudgetRefusesBeforeSimulating) {
  const config::Scenario s = config::load_scenario(kSmallStep);
  EXPECT_THROW(simulate_training(s, {.max_tasks = 10}), core::InputError);
  EXPECT_THROW(simulate_training(s, {.max_platform_memory = core::Bytes(1e5)}), core::InputError);
}

}  // namespace
}  // namespace codesim::study
