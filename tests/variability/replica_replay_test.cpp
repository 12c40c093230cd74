// Every replica at its drawn pace, on programs small enough to time by hand.
#include "sim/variability/replica_replay.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sim/variability/speed_draw.hpp"
#include "sim/variability/step_spread.hpp"

namespace codesim::variability {
namespace {

using workload::CommKind;
using workload::CommRef;
using workload::StepStream;

// A spec with nothing varying and no fail-slow part (VariabilitySpec's defaults are the
// scenario's, a real cluster's), with what `set` changes: each test states what it varies.
template <class Set>
VariabilitySpec calm(Set set) {
  VariabilitySpec v;
  v.gpu_cv = 0;
  v.cv_by_duty = false;
  v.gpu_pace_interval = core::Seconds(0);
  v.nic_cv = 0;
  v.gpu_slow = {};
  v.link_slow = {};
  set(v);
  return v;
}

// One pipeline rank of four GPUs (dp 4, ep 2): compute A (1 s), an EP dispatch (0.5 s on the
// network), compute B (1 s), a dense DP reduce-scatter (0.2 s). Folded: 0-1, 1-1.5, 1.5-2.5,
// 2.5-2.7.
struct Small {
  workload::StepProgram program;
  comm::StepTimeline timeline;
  workload::StepShape shape{.pp = 1, .dp = 4, .ep = 2};

  Small() {
    program.schedule.ranks = 1;
    auto add = [&](StepStream stream, double duration, std::optional<CommRef> comm,
                   std::vector<int> deps, double start, double end) {
      const int id = static_cast<int>(program.tasks.size());
      program.tasks.push_back(workload::make_step_task(id, 0, stream, core::Seconds(duration), {},
                                                       deps, std::move(comm)));
      timeline.tasks.push_back({core::Seconds(start), core::Seconds(end)});
    };
    add(StepStream::compute, 1, std::nullopt, {}, 0, 1);
    add(StepStream::comm, 0, CommRef{.kind = CommKind::ep_dispatch}, {0}, 1, 1.5);
    add(StepStream::compute, 1, std::nullopt, {1}, 1.5, 2.5);
    add(StepStream::data_parallel, 0, CommRef{.kind = CommKind::dp_reduce_scatter}, {2}, 2.5, 2.7);
  }
};

StepDraw ones(int gpus) {
  const auto n = static_cast<std::size_t>(gpus);
  return {.compute = std::vector<double>(n, 1.0),
          .network = std::vector<double>(n, 1.0),
          .pace = std::vector<float>(n, 1.0F),
          .blocks = 1,
          .block_s = 10,
          .mean_pace = std::vector<double>(n, 1.0)};
}

TEST(ReplicaReplay, IdenticalPacesGiveTheFoldedStep) {
  const Small s;
  const ReplicaProgram p = replica_program(s.program, s.timeline, s.shape, 8);
  ReplayScratch scratch;
  EXPECT_DOUBLE_EQ(replay_step(p, ones(4), {0, 1}, scratch), 2.7);
}

TEST(ReplicaReplay, GroupsWaitForTheirSlowestMember) {
  // GPU 3 computes at half speed. GPU 3: A ends at 2; its EP group {2, 3} dispatches 2 -> 2.5;
  // GPU 2's B 2.5 -> 3.5, GPU 3's 2.5 -> 4.5 (GPUs 0 and 1 end B at 2.5); the DP group of all
  // four starts at 4.5 and ends at 4.7.
  const Small s;
  const ReplicaProgram p = replica_program(s.program, s.timeline, s.shape, 8);
  StepDraw d = ones(4);
  d.compute[3] = 2;
  ReplayScratch scratch;
  EXPECT_DOUBLE_EQ(replay_step(p, d, {0, 1}, scratch), 4.7);
}

TEST(ReplicaReplay, AGroupAcrossNodesMovesAtItsSlowestNic) {
  // One GPU per node: the EP group {0, 1} crosses nodes and GPU 1's NIC takes 3x: the dispatch
  // takes 1.5 s, then B and the DP collective (its NIC too): 1 + 1.5 + 1 + 0.2 x 3 = 4.1.
  const Small s;
  const ReplicaProgram p = replica_program(s.program, s.timeline, s.shape, 1);
  StepDraw d = ones(4);
  d.network[1] = 3;
  ReplayScratch scratch;
  EXPECT_DOUBLE_EQ(replay_step(p, d, {0, 1}, scratch), 4.1);
  // Within one node the NICs carry nothing of it: the folded step.
  const ReplicaProgram one_node = replica_program(s.program, s.timeline, s.shape, 8);
  EXPECT_DOUBLE_EQ(replay_step(one_node, d, {0, 1}, scratch), 2.7);
}

TEST(ReplicaReplay, OrderStatisticsPickTheSlowestUnit) {
  // Units are EP groups of two GPUs; GPU 3 (unit 1) is slow: replaying unit 1 alone gives the
  // exact step.
  const Small s;
  const ReplicaProgram p = replica_program(s.program, s.timeline, s.shape, 8);
  EXPECT_EQ(p.unit_gpus, 2);
  EXPECT_EQ(unit_count(p), 2);
  StepDraw d = ones(4);
  d.compute[3] = 2;
  EXPECT_EQ(choose_units(p, d, 1), std::vector<int>{1});
  EXPECT_EQ(choose_units(p, d, 0), (std::vector<int>{0, 1}));
  ReplayScratch scratch;
  EXPECT_DOUBLE_EQ(replay_step(p, d, {1}, scratch), 4.7);
  // The other unit alone misses the slow GPU: the DP collective waits only for what is replayed.
  EXPECT_DOUBLE_EQ(replay_step(p, d, {0}, scratch), 2.7);
}

TEST(ReplicaReplay, ZeroSpreadDrawsGiveTheFoldedStepEveryStep) {
  const Small s;
  const VariabilitySpec spec = calm([](auto& v) { v.steps = 5; });
  const metrics::StepSpread sp = spread_steps(s.program, s.timeline, s.shape, 8, spec);
  EXPECT_EQ(sp.steps, 5);
  EXPECT_DOUBLE_EQ(sp.identical.value, 2.7);
  EXPECT_DOUBLE_EQ(sp.mean.value, 2.7);
  EXPECT_DOUBLE_EQ(sp.p90.value, 2.7);
  EXPECT_EQ(sp.gpus, 4);
}

TEST(ReplicaReplay, TheFirstGpusTasksAreTimedAsTheyRanThere) {
  // GPU 1 computes at half speed: on GPU 0, A runs 0 -> 1, the dispatch waits for GPU 1's A
  // (its EP group, 2 s) and runs 2 -> 2.5, B 2.5 -> 3.5, the DP collective waits for GPU 1's B
  // (2.5 + 2 = 4.5) and runs 4.5 -> 4.7.
  const Small s;
  const ReplicaProgram p = replica_program(s.program, s.timeline, s.shape, 8);
  StepDraw d = ones(4);
  d.compute[1] = 2;
  ReplayScratch scratch;
  std::vector<metrics::TaskSpan> first;
  EXPECT_DOUBLE_EQ(replay_step(p, d, {0, 1}, scratch, &first), 4.7);
  const std::vector<std::pair<double, double>> expected{{0, 1}, {2, 2.5}, {2.5, 3.5}, {4.5, 4.7}};
  ASSERT_EQ(first.size(), expected.size());
  for (std::size_t t = 0; t < first.size(); ++t) {
    EXPECT_DOUBLE_EQ(first[t].start.value, expected[t].first) << t;
    EXPECT_DOUBLE_EQ(first[t].end.value, expected[t].second) << t;
  }
}

TEST(ReplicaReplay, TheBreakdownOfIdenticalDrawsIsTheFoldedStepsOne) {
  // No task belongs to a chunk: the whole folded step (2.7 s) is the tail after the chunks, the
  // breakdown's optimizer part, in every draw.
  const Small s;
  const metrics::StepSpread sp =
      spread_steps(s.program, s.timeline, s.shape, 8, calm([](auto& v) { v.steps = 3; }));
  EXPECT_NEAR(sp.breakdown.optimizer.value, 2.7, 1e-12);
  EXPECT_NEAR(sp.breakdown.total().value, sp.mean.value, 1e-12);
}

TEST(ReplicaReplay, AComputeTaskTakesItsGpusMeanPaceOverItsSpan) {
  // GPU 3's pace is 1 for the first 1.5 s and 3 after (blocks of 1.5 s): A (0 -> 1 s) at 1; after
  // the EP group's dispatch (1 -> 1.5), B's nominal span [1.5, 2.5) lies in the second block: 3 s,
  // ending at 4.5; the DP collective 4.5 -> 4.7.
  const Small s;
  const ReplicaProgram p = replica_program(s.program, s.timeline, s.shape, 8);
  StepDraw d = ones(4);
  d.blocks = 2;
  d.block_s = 1.5;
  d.pace = {1, 1, 1, 1, 1, 1, 1, 3};  // per GPU, two blocks each
  ReplayScratch scratch;
  EXPECT_DOUBLE_EQ(replay_step(p, d, {0, 1}, scratch), 4.7);
  // Spanning both blocks: [1, 2) is half in each, mean pace (0.5 x 1 + 0.5 x 3) / 1 = 2; beyond
  // the last block the last block's pace.
  EXPECT_DOUBLE_EQ(d.pace_over(3, 1.0, 1.0), 2.0);
  EXPECT_DOUBLE_EQ(d.pace_over(3, 7.0, 1.0), 3.0);
}

TEST(ReplicaReplay, EveryUnitWhileTheirReplayFitsTheMemory) {
  // 4 tasks x 2 GPUs per unit x 8 B = 64 B per unit: 128 B replays both units, 100 B one.
  const Small s;
  VariabilitySpec spec = calm([](auto& v) { v.steps = 2; });
  spec.replay_memory = core::Bytes(128);
  EXPECT_EQ(spread_steps(s.program, s.timeline, s.shape, 8, spec).units_replayed, 2);
  spec.replay_memory = core::Bytes(100);
  EXPECT_EQ(spread_steps(s.program, s.timeline, s.shape, 8, spec).units_replayed, 1);
}

TEST(ReplicaReplay, EachGpuDrawsItsSpreadAtItsRanksBusyFraction) {
  // The rank computes 2 s of the 2.7 s step: its GPUs draw at cv 0.2 x duty_cv_share(2 / 2.7)
  // (0.1145 + (0.7407 - 0.5) / 0.3 x (0.5352 - 0.1145) = 0.4521), the same draws as cv 0.2 x
  // 0.4521 flat out, and a smaller mean step than cv 0.2 flat out.
  const Small s;
  VariabilitySpec by_duty = calm([](auto& v) {
    v.steps = 50;
    v.gpu_cv = 0.2;
    v.cv_by_duty = true;
  });
  VariabilitySpec same = by_duty;
  same.cv_by_duty = false;
  same.gpu_cv = 0.2 * duty_cv_share(2.0 / 2.7);
  EXPECT_NEAR(duty_cv_share(2.0 / 2.7), 0.4521, 1e-4);
  VariabilitySpec flat = by_duty;
  flat.cv_by_duty = false;
  const double mean = spread_steps(s.program, s.timeline, s.shape, 8, by_duty).mean.value;
  EXPECT_DOUBLE_EQ(mean, spread_steps(s.program, s.timeline, s.shape, 8, same).mean.value);
  EXPECT_LT(mean, spread_steps(s.program, s.timeline, s.shape, 8, flat).mean.value);
}

TEST(SpeedDraws, LognormalOfMeanOneAndTheGivenSpread) {
  // 200,000 draws (one pace per GPU: no interval): the sample mean's standard error is cv /
  // sqrt(n) = 0.00022, the sample cv's about cv / sqrt(2n) = 0.00016 (the lognormal's excess
  // kurtosis at cv 0.1 adds little).
  const VariabilitySpec spec = calm([](auto& v) {
    v.gpu_cv = 0.1;
    v.nic_cv = 0.05;
  });
  SpeedDraws draws(spec, 200'000, 10);
  const StepDraw d = draws.next();
  auto moments = [](const std::vector<double>& x) {
    double sum = 0;
    double sq = 0;
    for (const double v : x) {
      sum += v;
      sq += v * v;
    }
    const double mean = sum / static_cast<double>(x.size());
    return std::pair{mean, std::sqrt(sq / static_cast<double>(x.size()) - mean * mean) / mean};
  };
  const auto [gm, gcv] = moments(std::vector<double>(d.pace.begin(), d.pace.end()));
  const auto [nm, ncv] = moments(d.network);
  EXPECT_NEAR(gm, 1.0, 0.001);
  EXPECT_NEAR(gcv, 0.1, 0.001);
  EXPECT_NEAR(nm, 1.0, 0.001);
  EXPECT_NEAR(ncv, 0.05, 0.001);
}

TEST(SpeedDraws, FailSlowPartsAtRateTimesDuration) {
  // 1,000 episodes per 1,000 part-days (one a day) lasting 6 h: a part is slow at a given step
  // with probability 1/4; of 100,000 GPUs about 25,000 (standard deviation 137).
  const FailSlow slow{
      .per_1000_part_days = 1000, .duration = core::Seconds(6 * 3600), .slowdown = 2};
  EXPECT_DOUBLE_EQ(slow.probability(), 0.25);
  SpeedDraws draws(calm([&](auto& v) { v.gpu_slow = slow; }), 100'000, 10);
  const StepDraw d = draws.next();
  EXPECT_NEAR(d.slow_gpus, 25'000, 700);
  EXPECT_EQ(d.slow_links, 0);
  int doubled = 0;
  for (const double m : d.compute) {
    doubled += m == 2.0 ? 1 : 0;
  }
  EXPECT_EQ(doubled, d.slow_gpus);
}

TEST(SlowStrata, BinomialCountsOfSlowPartsUntilLessThanAThousandthIsLeft) {
  // 10 GPUs, each slow with probability 240 / 1,000 days x 1 h = 0.01, no slow link:
  // P(0) = 0.99^10 = 0.904382, P(1) = 10 x 0.01 x 0.99^9 = 0.091352, P(2) = 45 x 0.01^2 x
  // 0.99^8 = 0.004152; 1.14e-4 is left after 2, lumped into it. Steps: round(20 x P), at least 1.
  const VariabilitySpec spec = calm([](auto& v) {
    v.gpu_slow = {.per_1000_part_days = 240, .duration = core::Seconds(3600), .slowdown = 2};
  });
  const std::vector<SlowStratum> strata = slow_strata(spec, 10);
  ASSERT_EQ(strata.size(), 3u);
  EXPECT_NEAR(strata[0].probability, 0.904382, 1e-6);
  EXPECT_NEAR(strata[1].probability, 0.091352, 1e-6);
  EXPECT_NEAR(strata[2].probability, 0.004152 + 0.000114, 1e-6);
  EXPECT_EQ(strata[0].steps, 18);
  EXPECT_EQ(strata[1].steps, 2);
  EXPECT_EQ(strata[2].steps, 1);
  EXPECT_EQ(strata[2].gpus, 2);
  EXPECT_EQ(strata[2].links, 0);
  // A step of stratum 2 has exactly two GPUs at twice the time.
  SpeedDraws draws(spec, 10, 10);
  const StepDraw d = draws.next(strata[2]);
  EXPECT_EQ(d.slow_gpus, 2);
  EXPECT_EQ(std::count(d.compute.begin(), d.compute.end(), 2.0), 2);
}

TEST(SlowStrata, SlowGpusAndSlowLinksAreStrataOfTheirOwn) {
  // 64 GPUs and 64 NICs, each slow with probability 0.5 / 1,000 days x 1 h = 2.083e-5: none slow
  // 0.99734, one GPU 0.00133, one link 0.00133; then less than 1e-3 is left.
  const VariabilitySpec spec = calm([](auto& v) {
    v.gpu_slow = {.per_1000_part_days = 0.5, .duration = core::Seconds(3600), .slowdown = 1.5};
    v.link_slow = {.per_1000_part_days = 0.5, .duration = core::Seconds(3600), .slowdown = 2};
  });
  const std::vector<SlowStratum> strata = slow_strata(spec, 64);
  ASSERT_EQ(strata.size(), 3u);
  EXPECT_NEAR(strata[0].probability, 0.99734, 1e-5);
  EXPECT_EQ(strata[1].gpus + strata[2].gpus, 1);
  EXPECT_EQ(strata[1].links + strata[2].links, 1);
  EXPECT_EQ(strata[0].steps + strata[1].steps + strata[2].steps, 22);
}

TEST(SlowStrata, ManyPartsSlowAtOnceDrawEachPartInstead) {
  // Half of 1,000 parts slow: thousands of strata, more than the steps; one stratum instead.
  const VariabilitySpec spec = calm([](auto& v) {
    v.gpu_slow = {.per_1000_part_days = 12'000, .duration = core::Seconds(3600), .slowdown = 2};
  });
  const std::vector<SlowStratum> strata = slow_strata(spec, 1000);
  ASSERT_EQ(strata.size(), 1u);
  EXPECT_EQ(strata[0].gpus, -1);
  EXPECT_EQ(strata[0].steps, 20);
}

TEST(SpeedDraws, PaceBlocksCoverTheHorizon) {
  // 10 s in blocks of 20 ms: 500 blocks per GPU, each of mean 1; over 100 GPUs x 500 blocks the
  // sample cv is 0.045 within 0.001.
  const VariabilitySpec spec = calm([](auto& v) {
    v.gpu_cv = 0.045;
    v.gpu_pace_interval = core::Seconds(0.02);
  });
  SpeedDraws draws(spec, 100, 10);
  const StepDraw d = draws.next();
  EXPECT_EQ(d.blocks, 500);
  EXPECT_DOUBLE_EQ(d.block_s, 0.02);
  ASSERT_EQ(d.pace.size(), 50'000u);
  double sum = 0;
  double sq = 0;
  for (const float x : d.pace) {
    sum += x;
    sq += static_cast<double>(x) * x;
  }
  const double mean = sum / 50'000;
  EXPECT_NEAR(mean, 1.0, 0.001);
  EXPECT_NEAR(std::sqrt(sq / 50'000 - mean * mean), 0.045, 0.001);
}

TEST(SpeedDraws, ASpreadByDutyAsTheH200IdledMeasured) {
  // The share of the flat-out cv, piecewise linear through the runs with idle gaps: 0 at rest,
  // 0.0052 / 0.0454 = 0.1145 at 50% busy, 0.0243 / 0.0454 = 0.5352 at 80%, 1 flat out; 90%
  // halfway between the last two.
  EXPECT_DOUBLE_EQ(duty_cv_share(0), 0);
  EXPECT_NEAR(duty_cv_share(0.25), 0.0573, 1e-4);
  EXPECT_NEAR(duty_cv_share(0.5), 0.1145, 1e-4);
  EXPECT_NEAR(duty_cv_share(0.8), 0.5352, 1e-4);
  EXPECT_NEAR(duty_cv_share(0.9), 0.7676, 1e-4);
  EXPECT_DOUBLE_EQ(duty_cv_share(1), 1);
  EXPECT_DOUBLE_EQ(duty_cv_share(1.2), 1);
  // 100 GPUs busy 80% and 100 at rest, 500 blocks each: the first draw at cv 0.1 x 0.5352 =
  // 0.0535 (sample cv within 0.001 over 50,000 blocks), the others never move from 1; without
  // cv_by_duty all draw 0.1.
  const VariabilitySpec spec = calm([](auto& v) {
    v.gpu_cv = 0.1;
    v.cv_by_duty = true;
    v.gpu_pace_interval = core::Seconds(0.02);
  });
  std::vector<double> duty(200, 0.8);
  std::fill(duty.begin() + 100, duty.end(), 0.0);
  const StepDraw d = SpeedDraws(spec, 200, 10, duty).next();
  const auto cv_of = [](std::vector<float>::const_iterator from, std::size_t n) {
    double sum = 0;
    double sq = 0;
    for (std::size_t i = 0; i < n; ++i, ++from) {
      sum += *from;
      sq += static_cast<double>(*from) * *from;
    }
    const double mean = sum / static_cast<double>(n);
    return std::sqrt(sq / static_cast<double>(n) - mean * mean) / mean;
  };
  EXPECT_NEAR(cv_of(d.pace.begin(), 50'000), 0.0535, 0.001);
  EXPECT_EQ(cv_of(d.pace.begin() + 50'000, 50'000), 0.0);
  VariabilitySpec flat = spec;
  flat.cv_by_duty = false;
  const StepDraw f = SpeedDraws(flat, 200, 10, duty).next();
  EXPECT_NEAR(cv_of(f.pace.begin() + 50'000, 50'000), 0.1, 0.002);
}

TEST(SpeedDraws, ASeedGivesTheSameDraws) {
  const VariabilitySpec spec = calm([](auto& v) {
    v.seed = 7;
    v.gpu_cv = 0.02;
  });
  SpeedDraws a(spec, 100, 10);
  SpeedDraws b(spec, 100, 10);
  EXPECT_EQ(a.next().pace, b.next().pace);
}

// A pace per GPU and block of gpu_pace_interval: 30 s / 1 ns = 3e10 blocks x 64 GPUs x 4 B is far
// past replay_memory (before, an int overflow made it one pace for the whole step, silently).
TEST(SpeedDraws, APaceTableOverTheReplayMemoryIsRefusedAtItsKey) {
  VariabilitySpec spec = calm([](auto& v) { v.gpu_pace_interval = core::Seconds(1e-9); });
  try {
    SpeedDraws draws(spec, 64, 30.0);
    FAIL() << "no error";
  } catch (const core::KeyedError& e) {
    EXPECT_EQ(e.key_path(), "variability.gpu_pace_interval");
    EXPECT_EQ(std::string(e.what()),
              "a pace every 1e-09 s over the 30.000 s the draws cover, for 64 GPUs, is "
              "1.92e+12 paces (7680000 MB), more than variability.replay_memory (2000 MB)");
  }
  // 20 ms (the default): 1500 blocks x 64 GPUs x 4 B = 384 kB, drawn.
  spec.gpu_pace_interval = core::Seconds(0.02);
  SpeedDraws fine(spec, 64, 30.0);
  EXPECT_EQ(fine.next().blocks, 1500);
}

}  // namespace
}  // namespace codesim::variability
