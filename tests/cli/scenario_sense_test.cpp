// The predictions checked for sense on the small DeepSeek-V3 step and its what-ifs, each a
// scenario edit. Several runs each: in slow_test, which the sanitizer run skips.
#include <gtest/gtest.h>

#include "tests/cli/small_step.hpp"

namespace codesim::testing {
namespace {

TEST(WhatIf, DoublingIbBandwidthNeverSlowsAStep) {
  const auto base = run_variant("");
  const auto fast = run_variant("hardware: {nic_bandwidth: 100GBps}");
  EXPECT_LE(s(fast, "step_time_s"), s(base, "step_time_s"));
}

TEST(WhatIf, OneFOneBHasALargerBubbleThanDualPipe) {
  const auto dual = run_variant("");
  const auto one = run_variant("schedule: {method: 1f1b}");
  EXPECT_GT(one["breakdown_s"]["bubble"].get<double>(),
            dual["breakdown_s"]["bubble"].get<double>());
}

TEST(WhatIf, FewerCommunicationSmsSpeedComputeButExposeCommunication) {
  const auto ten = run_variant("hardware: {comm_sms: 10}");
  const auto twenty = run_variant("");
  EXPECT_LT(s(ten, "compute_busy_s"), s(twenty, "compute_busy_s"));
  EXPECT_GT(ten["exposed_comm_s"]["EP"].get<double>(),
            twenty["exposed_comm_s"]["EP"].get<double>());
}

TEST(WhatIf, NodeLimitEightMovesMoreIbBytesThanFour) {
  // EP64 spans 8 nodes, so the node limit binds.
  const std::string wide =
      "hardware: {nodes: 16}\nparallelism: {pp: 2, ep: 64, dp: 64}\n"
      "workload: {global_batch_sequences: 512}\n";
  const auto m4 = run_variant(wide + "routing: {node_limit: 4}");
  const auto m8 = run_variant(wide + "routing: {node_limit: 8}");
  EXPECT_GT(s(m8, "ib_bytes_per_gpu"), s(m4, "ib_bytes_per_gpu"));
}

TEST(WhatIf, WhatIfsRunFromTheScenarioAlone) {
  for (const char* what_if :
       {"hardware: {nvlink_bandwidth: 450GBps}", "hardware: {nic_bandwidth: 100GBps}",
        "routing: {node_limit: 2}", "schedule: {method: 1f1b}", "hardware: {comm_sms: 32}",
        "topology: {family: mrft, planes: 1}"}) {
    const auto j = run_variant(what_if);
    EXPECT_GT(s(j, "step_time_s"), 0.0) << what_if;
  }
}

}  // namespace
}  // namespace codesim::testing
