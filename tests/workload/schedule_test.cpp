// Pipeline schedules: with no communication and F = W = B/2, F&B >= B, each method's bubble is
// its published formula; counts, preconditions and in-flight activations.
#include "sim/workload/schedule.hpp"

#include <gtest/gtest.h>

#include <map>

#include "sim/workload/schedule_timing.hpp"

namespace codesim::workload {
namespace {

using core::Seconds;

ChunkTimes times(double f, double fb) {
  // F = W = B/2: a backward's input and weight halves each take as long as a forward.
  return ChunkTimes{Seconds(f), Seconds(2 * f), Seconds(f), Seconds(fb)};
}

double formula(ScheduleMethod m, int pp, const ChunkTimes& t) {
  // Spec §7, written out here: PP stages; DualPipeV has 2 stages per rank.
  const double f = t.forward.value;
  const double b = t.backward.value;
  const double w = t.weight.value;
  const double fb = t.forward_backward.value;
  switch (m) {
    case ScheduleMethod::one_f_one_b:
      return (pp - 1) * (f + b);
    case ScheduleMethod::zb1p:
      return (pp - 1) * (f + b - 2 * w);
    case ScheduleMethod::dualpipe:
      return (pp / 2.0 - 1) * (fb + b - 3 * w);
    case ScheduleMethod::dualpipev: {
      const int stages = 2 * pp;
      return (stages / 2.0 - 1) * (fb + b - 3 * w);
    }
    case ScheduleMethod::interleaved_1f1b:
      // Megatron: (PP - 1)(F + B) / V with F, B of a rank's whole model part, i.e. (PP - 1)
      // (F + B) in the chunk times of one virtual stage.
      return (pp - 1) * (f + b);
  }
  return -1;
}

TEST(Schedule, EveryMethodReproducesItsBubbleFormula) {
  for (const auto m : {ScheduleMethod::one_f_one_b, ScheduleMethod::zb1p, ScheduleMethod::dualpipe,
                       ScheduleMethod::dualpipev}) {
    for (int pp : {4, 8, 16}) {
      for (int mult : {1, 2, 3}) {
        const int c = 2 * pp * mult;  // satisfies every method's condition
        // B <= F&B <= F + B: overlapping a pair is never slower than running it in series. (Past
        // F + B, DualPipe's own schedule gives a larger bubble than the formula: e.g. PP 8,
        // F&B = 4F gives 11F, the formula 9F.)
        for (double fb : {2.0, 2.5, 3.0}) {
          const ChunkTimes t = times(1.0, fb);
          const ScheduleTiming timing = time_schedule(make_schedule(m, pp, c), t);
          EXPECT_NEAR(timing.bubble.value, formula(m, pp, t), 1e-9)
              << schedule_method_name(m) << " pp " << pp << " C " << c << " F&B " << fb;
          EXPECT_NEAR(published_bubble(m, pp, t).value, formula(m, pp, t), 1e-12);
        }
      }
    }
  }
}

TEST(Schedule, InterleavedOneFOneBReproducesMegatronsBubble) {
  // Rank r holds stages r, r + PP, ...; with V virtual stages the bubble is (PP - 1)(F + B) / V
  // in a rank's whole-model times, (PP - 1)(f + b) in one virtual stage's (f = F / V), exactly,
  // for micro-batches in multiples of PP (Megatron's condition).
  for (int pp : {2, 4, 8}) {
    for (int v : {1, 2, 3, 4}) {
      for (int mult : {1, 2, 3}) {
        const int c = pp * mult;
        const ChunkTimes t = times(1.0, 3.0);
        const PipelineSchedule s = make_schedule(ScheduleMethod::interleaved_1f1b, pp, c, v);
        EXPECT_EQ(s.stages, pp * v);
        EXPECT_EQ(s.stages_of(1).size(), static_cast<std::size_t>(v));
        const ScheduleTiming timing = time_schedule(s, t);
        const double whole_model_f = v * t.forward.value;  // a rank's F and B over its V stages
        const double whole_model_b = v * t.backward.value;
        EXPECT_NEAR(timing.bubble.value, (pp - 1) * (whole_model_f + whole_model_b) / v, 1e-9)
            << "pp " << pp << " V " << v << " C " << c;
        EXPECT_NEAR(published_bubble(ScheduleMethod::interleaved_1f1b, pp, t).value,
                    timing.bubble.value, 1e-9);
      }
    }
  }
}

TEST(Schedule, EveryMicroBatchPassesEveryStageOnceEachWay) {
  for (const auto m : {ScheduleMethod::one_f_one_b, ScheduleMethod::zb1p, ScheduleMethod::dualpipe,
                       ScheduleMethod::dualpipev, ScheduleMethod::interleaved_1f1b}) {
    const bool interleaved = m == ScheduleMethod::interleaved_1f1b;
    const PipelineSchedule s = make_schedule(m, 8, interleaved ? 24 : 20, interleaved ? 3 : 1);
    std::map<std::tuple<int, int, int>, int> forwards;
    std::map<std::tuple<int, int, int>, int> backwards;
    std::map<std::tuple<int, int, int>, int> weights;
    for (int r = 0; r < s.ranks; ++r) {
      for (const Chunk& c : s.per_rank[static_cast<std::size_t>(r)]) {
        const auto key = [](const StageWork& w) {
          return std::make_tuple(w.direction, w.stage, w.micro_batch);
        };
        if (c.kind != ChunkKind::weight && c.kind != ChunkKind::backward_input &&
            c.kind != ChunkKind::backward) {
          ++forwards[key(c.work)];
          EXPECT_EQ(s.rank_of(c.work.direction, c.work.stage), r);
        }
        if (c.kind == ChunkKind::forward_backward) {
          ++backwards[key(c.backward)];
          ++weights[key(c.backward)];
        }
        if (c.kind == ChunkKind::backward || c.kind == ChunkKind::backward_input) {
          ++backwards[key(c.work)];
        }
        if (c.kind == ChunkKind::backward || c.kind == ChunkKind::weight) {
          ++weights[key(c.work)];
        }
      }
    }
    const std::size_t expected = static_cast<std::size_t>(s.stages * s.micro_batches);
    EXPECT_EQ(forwards.size(), expected) << schedule_method_name(m);
    EXPECT_EQ(backwards.size(), expected) << schedule_method_name(m);
    EXPECT_EQ(weights.size(), expected) << schedule_method_name(m);
    for (const auto* counts : {&forwards, &backwards, &weights}) {
      for (const auto& [key, n] : *counts) {
        EXPECT_EQ(n, 1);
      }
    }
  }
}

TEST(Schedule, InFlightActivationsAreThePublishedOnes) {
  // 1F1B and ZB1P hold PP micro-batches on the first rank; DualPipe PP + 1 at most
  // (docs/model/deepseek-v3.md §7).
  const ChunkTimes t = times(1.0, 2.5);
  for (int pp : {4, 8, 16}) {
    for (const auto m : {ScheduleMethod::one_f_one_b, ScheduleMethod::zb1p}) {
      const auto timing = time_schedule(make_schedule(m, pp, 3 * pp), t);
      EXPECT_EQ(timing.peak_in_flight[0], pp) << schedule_method_name(m);
      EXPECT_EQ(*std::max_element(timing.peak_in_flight.begin(), timing.peak_in_flight.end()), pp);
    }
    const auto dual = time_schedule(make_schedule(ScheduleMethod::dualpipe, pp, 2 * pp), t);
    EXPECT_EQ(*std::max_element(dual.peak_in_flight.begin(), dual.peak_in_flight.end()), pp + 1);
  }
}

TEST(Schedule, DualPipeHasASmallerBubbleThan1F1B) {
  const ChunkTimes t = times(1.0, 2.5);
  const double one_f_one_b =
      time_schedule(make_schedule(ScheduleMethod::one_f_one_b, 16, 40), t).bubble.value;
  const double dual =
      time_schedule(make_schedule(ScheduleMethod::dualpipe, 16, 40), t).bubble.value;
  EXPECT_LT(dual, one_f_one_b);
}

TEST(Schedule, OtherTimingsStillScheduleAndReportTheirOwnBubble) {
  // F&B < B breaks the formula's assumption; the schedule still runs and reports what it gives.
  const ChunkTimes t{Seconds(1.0), Seconds(3.0), Seconds(0.5), Seconds(1.5)};
  const auto timing = time_schedule(make_schedule(ScheduleMethod::dualpipe, 8, 20), t);
  EXPECT_GT(timing.bubble.value, 0.0);
  EXPECT_LE(timing.bubble.value, timing.makespan.value);
}

TEST(Schedule, PreconditionsAreCheckedInWords) {
  auto message = [](ScheduleMethod m, int pp, int c) {
    try {
      make_schedule(m, pp, c);
    } catch (const ScheduleError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(ScheduleMethod::dualpipe, 7, 28),
            "dualpipe needs an even number of pipeline ranks, got 7");
  EXPECT_EQ(message(ScheduleMethod::dualpipe, 8, 10),
            "dualpipe needs at least 2 x pp = 16 micro-batches, got 10");
  EXPECT_EQ(message(ScheduleMethod::dualpipe, 8, 17),
            "dualpipe needs an even number of micro-batches (half enter at each end), got 17");
  EXPECT_EQ(message(ScheduleMethod::dualpipev, 4, 7),
            "dualpipev needs at least 2 x pp = 8 micro-batches, got 7");
  EXPECT_EQ(message(ScheduleMethod::one_f_one_b, 0, 8),
            "1f1b needs at least 1 pipeline rank, got 0");
  EXPECT_EQ(message(ScheduleMethod::zb1p, 4, 0), "a schedule needs at least 1 micro-batch, got 0");
  EXPECT_EQ(message(ScheduleMethod::interleaved_1f1b, 4, 6),
            "interleaved-1f1b needs micro-batches in multiples of the 4 pipeline ranks, got 6");
  try {
    make_schedule(ScheduleMethod::one_f_one_b, 4, 8, 2);
    FAIL();
  } catch (const ScheduleError& e) {
    EXPECT_STREQ(e.what(),
                 "1f1b holds one stage per rank (two for the dual methods); virtual stages are "
                 "interleaved-1f1b's, got 2");
  }
  try {
    time_schedule(make_schedule(ScheduleMethod::zb1p, 4, 8),
                  ChunkTimes{Seconds(1), Seconds(1), Seconds(2), Seconds(2)});
    FAIL();
  } catch (const ScheduleError& e) {
    EXPECT_STREQ(e.what(), "the weight part (W) cannot be longer than the whole backward (B)");
  }
}

}  // namespace
}  // namespace codesim::workload
