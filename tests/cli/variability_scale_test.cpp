// Variability at scale (docs/model/variability.md): the order-statistics step, a few units of
// replicas replayed, against every replica replayed, on the shipped DeepSeek-V3 scenario at 2,048
// and 16,384 GPUs (fast tier: the folded replay is the same for both, so the difference is the
// approximation's alone). Tens of seconds: in slow_test.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

nlohmann::json run_at(int nodes, int units) {
  // 60 sequences per node keep 120 micro-batches per pipeline at any size (dp = 8 x nodes / 16).
  const CliResult r = run_codesim(
      "run scenarios/deepseek-v3-h800-mpft.yaml --fidelity fast --format json"
      " --set hardware.nodes=" +
      std::to_string(nodes) +
      " --set workload.global_batch_sequences=" + std::to_string(60 * nodes) +
      " --set variability.enabled=true --set variability.simulated_units=" +
      std::to_string(units));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// The replicas left out are the fastest by their draws, so the approximation errs low, by little.
void expect_order_statistics_close(int nodes, int units, double tolerance) {
  const auto exact = run_at(nodes, 0);
  const auto sampled = run_at(nodes, units);
  EXPECT_EQ(sampled["variability"]["units_replayed"].get<int>(), units);
  const double e = exact["step_time_s"].get<double>();
  const double o = sampled["step_time_s"].get<double>();
  EXPECT_LE(o, e * (1 + 1e-12));
  EXPECT_NEAR(o, e, tolerance * e) << nodes * 8 << " GPUs, " << units << " units";
  // Every replica makes the mean step slower than the identical-replica one.
  EXPECT_GT(e, exact["variability"]["identical_step_s"].get<double>());
}

TEST(VariabilityScale, OrderStatisticsAgainstEveryReplicaAt2kGpus) {
  // 128 GPUs per rank, EP64 units: 2 units; the slower of them replayed.
  expect_order_statistics_close(256, 1, 0.01);
}

TEST(VariabilityScale, OrderStatisticsAgainstEveryReplicaAt16kGpus) {
  // 1,024 GPUs per rank: 16 units; the 4 slowest replayed.
  expect_order_statistics_close(2048, 4, 0.01);
}

}  // namespace
}  // namespace codesim::testing
