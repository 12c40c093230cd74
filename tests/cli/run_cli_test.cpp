// `codesim run` as a user runs it: the report's keys and arithmetic, determinism, the timeline
// export and refusals, on a small DeepSeek-V3 step (tests/scenarios/small-step.yaml). The what-if
// sense checks are in scenario_sense_test.cpp.
#include "tests/support/run_cli.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/small_step.hpp"

namespace codesim::testing {
namespace {

namespace fs = std::filesystem;

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

TEST(RunCli, BenchGivesTheMemoryAfterEachPhase) {
  // Held memory is what the process keeps (/proc/self/statm), the peak what it reached
  // (getrusage): the peak never falls from one phase to the next, and the last is at most the
  // process's peak. (The two counters differ in what they count by a MB or so: no order between
  // a phase's held and peak is asserted.)
  const auto r = run_codesim("run tests/scenarios/small-step.yaml --bench --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto bench = nlohmann::json::parse(r.out)["bench"];
  const auto& phases = bench["memory_MB_by_phase"];
  double peak = 0;
  for (const char* phase : {"check", "topology", "routing", "program", "simulation"}) {
    const double held = phases[phase]["held"].get<double>();
    const double at = phases[phase]["peak"].get<double>();
    EXPECT_GT(held, 0) << phase;
    EXPECT_GE(at, peak) << phase;
    peak = at;
  }
  EXPECT_FALSE(phases.contains("variability"));  // it did not run
  EXPECT_LE(peak, bench["peak_rss_MB"].get<double>());
}

TEST(RunCli, BenchGivesTheSymmetryFound) {
  // small-step: 64 GPUs on an 8-plane MPFT of radix 64, so one leaf per plane and no switch
  // joined to another: the 8 leaves are twins (one class). In the full tier some of the
  // transfers' link and GPU bounds are multiples of others (the gradient collectives' buckets
  // share their rings) and only the rest reach SimGrid; the fast tier solves none.
  for (const char* fidelity : {"full", "fast"}) {
    const auto r = run_codesim(std::string("run tests/scenarios/small-step.yaml --bench ") +
                               "--format json --fidelity " + fidelity);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto symmetry = nlohmann::json::parse(r.out)["bench"]["symmetry"];
    EXPECT_EQ(symmetry["switches"], 8);
    EXPECT_EQ(symmetry["switch_classes"], 1);
    const long long bounds = symmetry["bounds"].get<long long>();
    const long long solved = symmetry["bounds_solved"].get<long long>();
    if (std::string(fidelity) == "full") {
      EXPECT_GT(solved, 0);
      EXPECT_LT(solved, bounds);
    } else {
      EXPECT_EQ(bounds, 0);
      EXPECT_EQ(solved, 0);
    }
  }
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
                             ":2:26: error: hardware.hbm_capacity: the scenario does not fit: "
                             "parameters, gradients and optimizer state need 331.3 GB per GPU of "
                             "the first pipeline rank, more than its 80 GB\n"
                             "  hint: raise parallelism.pp or parallelism.ep, or use GPUs with "
                             "more memory\n");
}

TEST(RunCli, TheFastTierIsForTrainingSteps) {
  const auto r = run_codesim("run scenarios/deepseek-v3-decode-h800.yaml --fidelity fast");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "codesim run: error: --fidelity: fast is for training steps only (prefill and decode "
            "have one tier)\n");
  const auto fast = run_codesim("run tests/scenarios/small-step.yaml --fidelity fast");
  EXPECT_EQ(fast.exit_code, 0) << fast.err;
  EXPECT_NE(fast.out.find("note: method: fast tier: the step's critical path"), std::string::npos);
}

TEST(RunCli, SimulationsOverTheBudgetAreRefusedUpFront) {
  const auto memory = run_codesim("run tests/scenarios/small-step.yaml --max-memory-mb 0.1");
  EXPECT_EQ(memory.exit_code, 2);
  EXPECT_EQ(memory.out, "");
  EXPECT_EQ(
      memory.err,
      "tests/scenarios/small-step.yaml:11:10: error: hardware.nodes: the simulated platform would "
      "need about 0.6 MB for its 144 GPUs, NICs and switches and 192 links, over the budget of "
      "0.1 MB\n"
      "  hint: fewer nodes, or raise --max-memory-mb\n");
  const auto tasks = run_codesim("run tests/scenarios/small-step.yaml --max-tasks 10");
  EXPECT_EQ(tasks.exit_code, 2);
  EXPECT_EQ(
      tasks.err,
      "tests/scenarios/small-step.yaml:21:27: error: workload.global_batch_sequences: the step has "
      "5154 tasks to simulate, over the budget of 10\n"
      "  hint: fewer micro-batches per step or more pipeline stages shorten it; or raise "
      "--max-tasks\n");
}

TEST(RunCli, AnOutputThatCannotBeWrittenExitsTwoAndKeepsTheReport) {
  // /dev/full takes no byte: the report still reaches stdout, the error names the file and the
  // system's reason, exit 2; the device is written in place, never replaced by a file. A
  // directory as the output says so.
  for (const char* flag : {"--report", "--chrome-trace"}) {
    const auto r = run_codesim("run tests/scenarios/small-step.yaml --fidelity fast " +
                               std::string(flag) + " /dev/full");
    EXPECT_EQ(r.exit_code, 2) << flag;
    EXPECT_EQ(r.err, "error: cannot write '/dev/full': No space left on device\n") << flag;
    EXPECT_EQ(r.out.rfind("small-step: step ", 0), 0u) << flag;
    EXPECT_TRUE(fs::is_character_file("/dev/full"));
  }
  const auto dir =
      run_codesim("run tests/scenarios/small-step.yaml --fidelity fast --report tests");
  EXPECT_EQ(dir.exit_code, 2);
  EXPECT_EQ(dir.err, "error: cannot write 'tests': it is a directory\n");
}

}  // namespace
}  // namespace codesim::testing
