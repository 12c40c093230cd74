// `codesim run` as a user runs it: the report's keys and arithmetic, and the predictions checked
// for sense on a small DeepSeek-V3 step (tests/scenarios/small-step.yaml) and its what-ifs.
#include "tests/support/run_cli.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace codesim::testing {
namespace {

namespace fs = std::filesystem;

// The small step with `overrides` (YAML) on top, run, as JSON.
nlohmann::json run_variant(const std::string& overrides) {
  const fs::path dir = fs::temp_directory_path() / ("codesim_run_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "variant.yaml";
  std::ofstream(file) << "include: " CODESIM_SOURCE_DIR "/tests/scenarios/small-step.yaml\n"
                      << overrides << "\n";
  const auto r = run_codesim("run '" + file.string() + "' --format json");
  fs::remove_all(dir);
  EXPECT_EQ(r.exit_code, 0) << overrides << "\n" << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

double s(const nlohmann::json& j, const char* key) {
  return j[key].get<double>();
}

TEST(RunCli, ReportHasTheSpecsKeysAndTheBreakdownAddsUp) {
  const auto j = run_variant("");
  for (const char* key :
       {"step_time_s", "breakdown_s", "tokens_per_day", "tflops_causal", "tflops_noncausal",
        "mfu_causal", "mfu_noncausal", "exposed_comm_s", "memory_gb_per_gpu"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  double sum = 0;
  for (const char* part : {"1F", "1B", "1W", "1F1B", "bubble", "opt"}) {
    sum += j["breakdown_s"][part].get<double>();
  }
  EXPECT_NEAR(sum, s(j, "step_time_s"), 1e-9);
  // tokens/day = 128 sequences x 4096 tokens per step, 86400 s a day.
  EXPECT_NEAR(s(j, "tokens_per_day"), 128.0 * 4096 / s(j, "step_time_s") * 86400, 1e-3);
  // MFU = achieved TFLOPS / 989 (H800 dense BF16).
  EXPECT_NEAR(s(j, "mfu_causal"), s(j, "tflops_causal") / 989, 1e-12);
  EXPECT_GT(s(j, "tflops_noncausal"), s(j, "tflops_causal"));
  EXPECT_EQ(j["placement"].size(), 4u);
}

TEST(RunCli, ChromeTraceOfTheStepImportsBack) {
  const fs::path dir = fs::temp_directory_path() / ("codesim_chrome_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string file = (dir / "step.json").string();
  const auto run = run_codesim(
      "run tests/scenarios/small-step.yaml --format json --chrome-trace '" + file + "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto back = run_codesim("trace import '" + file + "' --format json");
  fs::remove_all(dir);
  ASSERT_EQ(back.exit_code, 0) << back.err;
  const auto j = nlohmann::json::parse(back.out);
  // The timeline's span is the step (microseconds in the trace).
  EXPECT_NEAR(j["span_us"].get<double>() * 1e-6,
              nlohmann::json::parse(run.out)["step_time_s"].get<double>(), 1e-6);
}

TEST(RunCli, SameScenarioSameJson) {
  const auto a = run_codesim("run tests/scenarios/small-step.yaml --format json");
  const auto b = run_codesim("run tests/scenarios/small-step.yaml --format json");
  EXPECT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
}

TEST(RunCli, DoublingIbBandwidthNeverSlowsAStep) {
  const auto base = run_variant("");
  const auto fast = run_variant("hardware: {nic_bandwidth: 100GBps}");
  EXPECT_LE(s(fast, "step_time_s"), s(base, "step_time_s"));
}

TEST(RunCli, OneFOneBHasALargerBubbleThanDualPipe) {
  const auto dual = run_variant("");
  const auto one = run_variant("schedule: {method: 1f1b}");
  EXPECT_GT(one["breakdown_s"]["bubble"].get<double>(),
            dual["breakdown_s"]["bubble"].get<double>());
}

TEST(RunCli, FewerCommunicationSmsSpeedComputeButExposeCommunication) {
  const auto ten = run_variant("hardware: {comm_sms: 10}");
  const auto twenty = run_variant("");
  EXPECT_LT(s(ten, "compute_busy_s"), s(twenty, "compute_busy_s"));
  EXPECT_GT(ten["exposed_comm_s"]["EP"].get<double>(),
            twenty["exposed_comm_s"]["EP"].get<double>());
}

TEST(RunCli, NodeLimitEightMovesMoreIbBytesThanFour) {
  // EP64 spans 8 nodes, so the node limit binds.
  const std::string wide =
      "hardware: {nodes: 16}\nparallelism: {pp: 2, ep: 64, dp: 64}\n"
      "workload: {global_batch_sequences: 512}\n";
  const auto m4 = run_variant(wide + "routing: {node_limit: 4}");
  const auto m8 = run_variant(wide + "routing: {node_limit: 8}");
  EXPECT_GT(s(m8, "ib_bytes_per_gpu"), s(m4, "ib_bytes_per_gpu"));
}

TEST(RunCli, WhatIfsRunFromTheScenarioAlone) {
  for (const char* what_if :
       {"hardware: {nvlink_bandwidth: 450GBps}", "hardware: {nic_bandwidth: 100GBps}",
        "routing: {node_limit: 2}", "schedule: {method: 1f1b}", "hardware: {comm_sms: 32}",
        "topology: {family: mrft, planes: 1}"}) {
    const auto j = run_variant(what_if);
    EXPECT_GT(s(j, "step_time_s"), 0.0) << what_if;
  }
}

TEST(RunCli, AScenarioThatDoesNotFitIsRefused) {
  const fs::path dir = fs::temp_directory_path() / ("codesim_fit_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "fit.yaml") << "include: " CODESIM_SOURCE_DIR
                                     "/tests/scenarios/small-step.yaml\n"
                                  << "hardware: {hbm_capacity: 80GB}\n";
  const auto refused = run_codesim("run '" + (dir / "fit.yaml").string() + "'");
  fs::remove_all(dir);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.out, "");
  EXPECT_EQ(refused.err, (dir / "fit.yaml").string() +
                             ": error: hardware.hbm_capacity: the scenario does not fit: "
                             "parameters, gradients and optimizer state need 320.0 GB per GPU of "
                             "the first pipeline rank, more than its 80 GB\n"
                             "  hint: raise parallelism.pp or parallelism.ep, or use GPUs with "
                             "more memory\n");
}

TEST(RunCli, SimulationsOverTheBudgetAreRefusedUpFront) {
  const auto memory = run_codesim("run tests/scenarios/small-step.yaml --max-memory-mb 1");
  EXPECT_EQ(memory.exit_code, 2);
  EXPECT_EQ(memory.out, "");
  EXPECT_EQ(memory.err,
            "tests/scenarios/small-step.yaml: error: hardware.nodes: the simulated platform would "
            "need about 2 MB (SimGrid's routing table grows with the square of the 400 GPUs, NICs "
            "and switches), over the budget of 1 MB\n"
            "  hint: fewer nodes, or raise --max-memory-mb\n");
  const auto tasks = run_codesim("run tests/scenarios/small-step.yaml --max-tasks 10");
  EXPECT_EQ(tasks.exit_code, 2);
  EXPECT_EQ(tasks.err,
            "tests/scenarios/small-step.yaml: error: workload.global_batch_sequences: the step has "
            "4924 tasks to simulate, over the budget of 10\n"
            "  hint: fewer micro-batches per step or more pipeline stages shorten it; or raise "
            "--max-tasks\n");
}

}  // namespace
}  // namespace codesim::testing
