// `codesim trace` as a user runs it.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace codesim::testing {
namespace {

const std::string kTrain = "models/calibration/deepseek-h800/train.json";

TEST(TraceCli, ImportSummary) {
  const auto r = run_codesim("trace import " + kTrain + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kernels"], 963);
  EXPECT_EQ(j["streams"].size(), 3u);
  EXPECT_NEAR(j["span_us"].get<double>(), 129012, 1);
  EXPECT_GT(j["overlap_us"].get<double>(), 0);
  EXPECT_EQ(j["pieces"].size(), 10u);
}

TEST(TraceCli, ReplayOnTheMeasuredGpuReturnsTheSpan) {
  const auto r = run_codesim("trace replay " + kTrain + " --hardware h800 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["span_us"].get<double>() / j["measured_span_us"].get<double>(), 1.0, 0.10);
  const auto h200 = nlohmann::json::parse(
      run_codesim("trace replay " + kTrain + " --hardware h200 --format json").out);
  EXPECT_LT(h200["span_us"].get<double>(), j["span_us"].get<double>());  // faster HBM
}

TEST(TraceCli, ChromeTraceExportIsWrittenWhole) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "codesim_trace_cli";
  fs::create_directories(dir);
  const std::string out = (dir / "replay.trace.json").string();
  const auto r = run_codesim("trace replay " + kTrain + " --hardware b200 --chrome-trace " + out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto again = run_codesim("trace import " + out + " --format json");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["kernels"], 963);
  EXPECT_FALSE(fs::exists(out + ".tmp"));
  fs::remove_all(dir);
}

TEST(TraceCli, BadInput) {
  const auto r = run_codesim("trace import no/such.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "no/such.json: error: cannot read the trace file\n");
  const auto h = run_codesim("trace replay " + kTrain + " --hardware tpu");
  EXPECT_EQ(h.exit_code, 2);
  EXPECT_EQ(
      h.err,
      "codesim trace: error: --hardware: unknown hardware 'tpu'\n"
      "  hint: one of: h800, h100, h200, a100, b200, gb200\n");  // The A100 has no FP8 tensor
                                                                 // cores: DeepSeek's FP8 GEMMs have
                                                                 // nothing to run on.
  const auto a = run_codesim("trace replay " + kTrain + " --hardware a100");
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_EQ(a.err,
            "codesim trace: error: --hardware: the trace's FP8 GEMMs cannot be replayed on the "
            "a100: it has no FP8 tensor cores\n");
}

}  // namespace
}  // namespace codesim::testing
