// Studies of several scenarios as library calls: work isolated in forked children, a sweep, a
// comparison, without the CLI.
#include "sim/study/point_runs.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

#include "sim/core/error.hpp"
#include "sim/study/isolated.hpp"
#include "sim/study/training.hpp"

namespace codesim::study {
namespace {

const std::string kThreePoints = CODESIM_SOURCE_DIR "/tests/scenarios/three-point-sweep.yaml";
const std::string kSearch = CODESIM_SOURCE_DIR "/tests/scenarios/small-search.yaml";

TEST(Isolated, EachWorkInItsOwnChildWithItsOutcomeInOrder) {
  const pid_t parent = ::getpid();
  const std::vector<IsolatedWork> works{
      [] { return std::to_string(::getpid()); },  // a child of its own
      [] { return std::string(200'000, 'x'); },   // more than a pipe holds at once
      []() -> std::string {
        throw core::InputError(core::Diagnostic{{"s.yaml", 3, 5}, "routing.plans", "bad", ""});
      },
      []() -> std::string { throw std::runtime_error("replay deadlocked"); },
      []() -> std::string { _exit(7); },
  };
  const auto out = run_isolated(works, 2);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].exit_code, 0);
  EXPECT_NE(out[0].payload, std::to_string(parent));
  EXPECT_EQ(out[1].payload.size(), 200'000u);
  EXPECT_EQ(out[2].exit_code, 2);
  EXPECT_EQ(out[2].error, "s.yaml:3:5: error: routing.plans: bad");
  EXPECT_EQ(out[3].exit_code, 1);
  EXPECT_EQ(out[3].error, "replay deadlocked");
  EXPECT_EQ(out[4].exit_code, -1);
  EXPECT_EQ(out[4].error, "exited with code 7 without a result");
}

TEST(Isolated, AStopKillsAndReapsTheRunningChildren) {
  // Two children that would sleep a minute; the third never starts (jobs 2). The stop is asked
  // once the first poll has waited: run_isolated throws Stopped and leaves no child behind.
  const std::vector<IsolatedWork> works(3, []() -> std::string {
    ::sleep(60);
    return "late";
  });
  int asked = 0;
  bool heard = false;
  EXPECT_THROW(run_isolated(
                   works, 2, [&](std::size_t, const IsolatedOutcome&) { heard = true; },
                   [&] { return ++asked >= 2; }),
               Stopped);
  EXPECT_EQ(asked, 2);
  EXPECT_FALSE(heard);
  EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1);  // ECHILD: every child reaped
  EXPECT_EQ(errno, ECHILD);
}

// Three points through study::run_sweep, each simulated (full tier, SimGrid) in a child; the
// fast tier of the same point in this process agrees with the child's within what link sharing
// adds (the full tier is never faster).
TEST(RunSweep, ThreePointsAsALibraryCall) {
  const SweepPlan plan = plan_sweep({kThreePoints});
  std::vector<std::size_t> heard;
  const metrics::SweepResult r = run_sweep(
      plan, {.jobs = 2, .on_done = [&](const PointOutcome& p) { heard.push_back(p.index); }});
  ASSERT_EQ(r.points.size(), 3u);
  EXPECT_EQ(heard.size(), 3u);
  EXPECT_EQ(r.keys, std::vector<std::string>{"routing.node_limit"});
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& p = r.points[i];
    ASSERT_TRUE(p.result) << p.error;
    EXPECT_EQ(p.values, std::vector<std::string>{std::to_string(1 << i)});
    EXPECT_EQ(p.result->fidelity, metrics::Fidelity::full);
    EXPECT_FALSE(p.result->lanes.empty());  // the whole result came back, timeline too
    const auto fast =
        run_training(plan.points[i].scenario, {.fidelity = metrics::Fidelity::fast}).result;
    EXPECT_LE(fast.step_time.value, p.result->step_time.value * (1 + 1e-9));
    EXPECT_GT(fast.step_time.value, p.result->step_time.value * 0.9);
  }
}

// The parent routes first (the reference gate's OpenMP threads run here), then forks: the children
// must not wait for OpenMP threads the fork left behind.
TEST(RunSweep, APointThatCannotRunSaysWhyAndTheOthersRun) {
  SweepPlan plan = plan_sweep({kThreePoints});
  const auto here = run_training(plan.points[0].scenario, {.fidelity = metrics::Fidelity::fast});
  plan.points[1].scenario.hardware.spec.gpu.hbm_capacity =
      core::Bytes(1e9);  // nothing fits in 1 GB
  const metrics::SweepResult r = run_sweep(plan, {.fidelity = metrics::Fidelity::fast});
  ASSERT_TRUE(r.points[0].result);
  EXPECT_DOUBLE_EQ(r.points[0].result->step_time.value, here.result.step_time.value);
  EXPECT_FALSE(r.points[1].result);
  EXPECT_NE(r.points[1].error.find("hardware.hbm_capacity: the scenario does not fit"),
            std::string::npos)
      << r.points[1].error;
  EXPECT_TRUE(r.points[2].result);
}

// A search as a library call: six configurations screened by the fast tier here (pp 3 rejected),
// the best two simulated in full in children; ranked: the two simulated in full first, by their
// objective, then the screened-only ones by theirs, then the rejected.
TEST(Search, ScreensHereSimulatesTheBestInChildrenAndRanks) {
  const SearchPlan plan = plan_search({kSearch});
  const metrics::SearchResult r = search(plan, 2, {.jobs = 2});
  ASSERT_EQ(r.entries.size(), plan.candidates.size());
  EXPECT_EQ(r.top, 2);
  int full = 0;
  int rejected = 0;
  for (const auto& e : r.entries) {
    full += e.full ? 1 : 0;
    rejected += e.rejected.empty() ? 0 : 1;
  }
  EXPECT_EQ(full, 2);
  EXPECT_GE(rejected, 1);  // pp 3 does not divide the 64 GPUs
  for (std::size_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(r.entries[i].full) << i;
    EXPECT_EQ(r.entries[i].full->fidelity, metrics::Fidelity::full);
    EXPECT_DOUBLE_EQ(r.entries[i].objective, r.entries[i].full->tokens_per_day);
  }
  EXPECT_GE(r.entries[0].objective, r.entries[1].objective);
  for (std::size_t i = 3; i < r.entries.size() && r.entries[i].rejected.empty(); ++i) {
    EXPECT_LE(r.entries[i].objective, r.entries[i - 1].objective);  // screened only
  }
  EXPECT_FALSE(r.entries.back().rejected.empty());
}

}  // namespace
}  // namespace codesim::study
